"""The `packetbench` command: one typer app; each command calls one library function.

Every module of this package except this one and helpers named ``_*`` defines
``register(app)`` and is registered in name order, so adding a command group is adding a
module; `packetbench --help` lists the commands by task (`_tasks.TASKS`). Bad usage and bad
input (the project's `InputError`s, and typer's usage errors: a value that is not a number,
a missing option) become a one-line message on stderr and exit code 2; a check that fails
exits 1, from its command or as `CheckFailed`; a write the machine refuses (`WriteFailed`: a
full disk; or any write, standard output included, that fails with ENOSPC or EPIPE) exits 1
with one line; SIGINT exits 130 and SIGTERM 143 with one line (`packetbench.core.stopping`);
a task that crashed in a worker exits 1 with one line naming the task (a packet id) and the
error's last line. Anything else, `LayoutError` included, is a bug and shows its traceback
(exit 1).
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import pkgutil
import shlex
import signal
import sys
from typing import Annotated

import typer

from packetbench import __version__
from packetbench.cli._aliases import current
from packetbench.cli._help import plain_help
from packetbench.cli._tasks import TaskGroup
from packetbench.core import stopping
from packetbench.core.errors import CheckFailed, InputError, TaskFailed, WriteFailed

INTERRUPTED = 130  # the exit code of a command stopped by SIGINT (128 + 2)
TERMINATED = 143  # ... and by SIGTERM (128 + 15)
# What the machine answers a write it refuses: no space, no quota, a file size limit, a
# failing disk, a reader that went away.
WRITE_REFUSED = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE})

app = typer.Typer(
    name="packetbench",
    cls=TaskGroup,
    help="Synthetic insurance submission packets, and a benchmark of LLM hallucination on them.",
    epilog="New here: `packetbench run` makes a whole benchmark on the simulated extractor, no "
    "key needed. `packetbench COMMAND --help` shows a command's options.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"packetbench {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """packetbench: generate packets, extract, score, report."""


plain_help()

for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if not _module.name.startswith("_"):  # _options and the like are helpers, not commands
        importlib.import_module(f"{__name__}.{_module.name}").register(app)


def _usage_error(error: Exception) -> tuple[str, int] | None:
    """(message on one line, exit code) of typer's own usage errors (a bad option value, a
    missing option, an unknown command), or None for any other exception. Typer keeps their
    classes private, so they are known by what they offer: a message and an exit code."""
    render = getattr(error, "format_message", None)
    code = getattr(error, "exit_code", None)
    if not callable(render) or not isinstance(code, int):
        return None
    return " ".join(str(render()).split()), code


# Commands whose --resume continues what an interrupt stopped, keeping what was finished.
RESUMABLE = frozenset({"generate", "extract", "run"})
# Commands that write nothing before they end, so keep nothing of a stopped pass: the way on
# is to run them again. command -> why
RERUN = {"audit": "an audit keeps nothing partial"}


def _how_to_continue(words: list[str]) -> str:
    """What to run to continue an interrupted command: the same one with --resume (and
    without --force, which would start it over), or the same one again."""
    if words and words[0] in RERUN:
        return f"; {RERUN[words[0]]}; run it again: packetbench {shlex.join(words)}"
    if not words or words[0] not in RESUMABLE:
        return ""
    again = [w for w in words if w != "--force"]
    if "--resume" not in again:
        again.append("--resume")
    return f"; continue with: packetbench {shlex.join(again)}"


def _takes_value(command: str, option: str) -> bool:
    """Whether `option` of `command` takes a value (an unknown one is left to typer)."""
    group = typer.main.get_command(app)
    found = getattr(group, "commands", {}).get(command)
    for param in getattr(found, "params", []):
        if option in getattr(param, "opts", ()):
            return not (param.is_flag or param.count)
    return False


def _stopped(code: int) -> None:
    """End a command a signal stopped: one line, exit 130 (SIGINT) or 143 (SIGTERM).

    Its cleanups have run on the way here; what is left is the interpreter's own teardown
    (a last garbage collection of everything a harness loaded took seconds on a loaded
    machine), which a stopped command skips: the process ends now."""
    del code
    terminated = stopping.signalled() == signal.SIGTERM
    word = "terminated" if terminated else "interrupted"
    typer.echo(f"packetbench: {word}{_how_to_continue(sys.argv[1:])}", err=True)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(TERMINATED if terminated else INTERRUPTED)


def _write_refused(error: OSError) -> None:
    """A write the machine refused (a full disk, a closed file) anywhere: one line, exit 1.
    Standard output is let go first, so the interpreter's own flush at exit is silent.

    A reader that left standard output early (`packetbench sql ... | head -3`) is no error
    to report: the reader has what it wanted. The command ends silently with the status of a
    process SIGPIPE killed (141), as the shell's own tools do, so `set -o pipefail` still
    sees that the output was cut."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    if error.errno == errno.EPIPE and not error.filename:
        sys.exit(128 + signal.SIGPIPE)
    where = error.filename or "standard output"
    reason = error.strerror or type(error).__name__
    typer.echo(f"packetbench: error: {where}: cannot write ({reason})", err=True)
    sys.exit(1)


def main() -> None:
    sys.argv[1:] = current(sys.argv[1:], _takes_value)  # old spellings, for one release
    if len(sys.argv) <= 1:
        app()  # `packetbench` alone: typer shows the help
        return
    stopping.install()  # SIGTERM as Ctrl-C; native work interrupted at the first signal
    try:
        code = app(standalone_mode=False)
        sys.stdout.flush()  # a full or closed standard output is found here, not at exit
    except KeyboardInterrupt:  # a stop outside typer's own handling (after the command)
        _stopped(INTERRUPTED)
        return
    except BaseException as error:
        if stopping.signalled() is not None and not isinstance(error, SystemExit):
            # whatever the stop broke on the way out (a query "interrupted", a closed
            # connection) is the stop, not an error of its own
            _stopped(INTERRUPTED)
        if isinstance(error, OSError) and error.errno in WRITE_REFUSED:
            _write_refused(error)
        refused = error.__context__  # typer ends a closed pipe by exit 1, saying nothing
        closed = isinstance(refused, OSError) and refused.errno in WRITE_REFUSED
        if isinstance(error, SystemExit) and isinstance(refused, OSError) and closed:
            _write_refused(refused)
        _report(error)
        raise  # a bug: its traceback is the report
    if code == INTERRUPTED or stopping.unheeded() is not None:
        # Typer turns SIGINT's KeyboardInterrupt (and SIGTERM's, `stopping.Terminated`)
        # into exit code 130, silently, once every `finally` and `except BaseException` on
        # the way has cleaned up what was half written. A command that returned after a
        # signal, its raise lost on the way, ends as stopped too: what it wrote is whole
        # (every write is atomic), and a stop must never read as a clean end.
        _stopped(INTERRUPTED)
    sys.exit(code if isinstance(code, int) else 0)


def _report(error: BaseException) -> None:
    """Exit with one line for the errors packetbench raises on purpose and typer's usage
    errors; return for anything else (a bug)."""
    if isinstance(error, InputError):
        typer.echo(f"packetbench: error: {error}", err=True)
        sys.exit(2)
    if isinstance(error, TaskFailed):  # a worker's crash: the task (a packet id), last line
        typer.echo(f"packetbench: crash: {error}", err=True)
        sys.exit(1)
    if isinstance(error, CheckFailed):
        typer.echo(f"packetbench: failed: {error}", err=True)
        sys.exit(1)
    if isinstance(error, WriteFailed):
        typer.echo(f"packetbench: error: {error}", err=True)
        sys.exit(1)
    if isinstance(error, typer.Abort):
        typer.echo("packetbench: aborted", err=True)
        sys.exit(1)
    if isinstance(error, SystemExit):
        raise error
    if isinstance(error, Exception):
        usage = _usage_error(error)
        if usage is not None:
            typer.echo(f"packetbench: error: {usage[0]}", err=True)
            sys.exit(usage[1])
