"""The `packetbench` command: one typer app; each command calls one library function.

Every module of this package except this one and helpers named ``_*`` defines
``register(app)`` and is registered in name order, so adding a command group is adding a
module. Bad usage and bad input (the project's `InputError`s, and typer's usage errors: a
value that is not a number, a missing option) become a one-line message on stderr and exit
code 2; a check that fails exits 1, from its command or as `CheckFailed`; a write the
machine refuses (`WriteFailed`: a full disk) exits 1 with one line; SIGINT exits 130 with
one line; a task that crashed in a worker exits 1 with one line naming the task (a packet
id) and the error's last line. Anything else, `LayoutError` included, is a bug and shows
its traceback (exit 1).
"""

from __future__ import annotations

import importlib
import pkgutil
import shlex
import sys
from typing import Annotated

import typer

from packetbench import __version__
from packetbench.cli._aliases import current
from packetbench.cli._help import plain_help
from packetbench.core.errors import CheckFailed, InputError, TaskFailed, WriteFailed

INTERRUPTED = 130  # the exit code of a command stopped by SIGINT (128 + 2)

app = typer.Typer(
    name="packetbench",
    help="Synthetic insurance submission packets, and a benchmark of LLM hallucination on them.",
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


def main() -> None:
    sys.argv[1:] = current(sys.argv[1:], _takes_value)  # old spellings, for one release
    if len(sys.argv) <= 1:
        app()  # `packetbench` alone: typer shows the help
        return
    try:
        code = app(standalone_mode=False)
    except InputError as error:
        typer.echo(f"packetbench: error: {error}", err=True)
        sys.exit(2)
    except TaskFailed as error:  # a worker's crash: the task (a packet id) and its last line
        typer.echo(f"packetbench: crash: {error}", err=True)
        sys.exit(1)
    except CheckFailed as error:
        typer.echo(f"packetbench: failed: {error}", err=True)
        sys.exit(1)
    except WriteFailed as error:
        typer.echo(f"packetbench: error: {error}", err=True)
        sys.exit(1)
    except typer.Abort:
        typer.echo("packetbench: aborted", err=True)
        sys.exit(1)
    except Exception as error:
        usage = _usage_error(error)
        if usage is None:
            raise  # a bug: its traceback is the report
        typer.echo(f"packetbench: error: {usage[0]}", err=True)
        sys.exit(usage[1])
    if code == INTERRUPTED:
        # Typer turns SIGINT's KeyboardInterrupt into exit code 130, silently, once every
        # `finally` and `except BaseException` on the way has cleaned up what was half written.
        typer.echo(f"packetbench: interrupted{_how_to_continue(sys.argv[1:])}", err=True)
    sys.exit(code if isinstance(code, int) else 0)
