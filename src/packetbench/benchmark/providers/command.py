"""`command`: a program of one's own, run once per document (`--command "CMD {file} {schema}"`).

The contract (docs/own-system.md): the template is split once, with shell rules, from the
user's own option; in each of its words `{file}`, `{schema}` and `{doc_type}` are replaced by
the document's path, the path of a file holding the JSON schema the answer must follow, and
the document type. The program is started directly (no shell ever reads packet data), with
the environment variables of `ENVIRONMENT` added, in a process group of its own. It answers
with one JSON object on stdout and exits 0; a line

    packetbench-usage: {"cost_usd": 0.0012, "input_tokens": 900, "output_tokens": 150}

on stderr (the last one counts, every key optional) reports what it spent. Exit status 75
(EX_TEMPFAIL) asks for a retry, like a 5xx; any other failure (another status, a signal, no
answer within --timeout, which kills the whole process group, more than `MAX_STDOUT` bytes
on stdout) is that document's error record. The response cache knows the program by its
version string: `--system-version`, else the first line printed by the template's words
before the first placeholder followed by `--version` (`python my.py --version`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from packetbench.benchmark.providers.api import (
    ApiSettings,
    Prompt,
    ProviderFailure,
    Reply,
    settings_from_options,
)
from packetbench.benchmark.providers.base import Provider
from packetbench.benchmark.providers.own import USAGE, OwnSystem, parse_usage
from packetbench.core.errors import UsageError
from packetbench.truth.packets import DocInfo, Packet

PLACEHOLDERS = ("file", "schema", "doc_type")
_PLACEHOLDER = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
USAGE_PREFIX = f"{USAGE}:"
TEMPFAIL = 75  # sysexits.h EX_TEMPFAIL: "try again later"
MAX_STDOUT = 16 * 1024 * 1024  # an answer is a few kilobytes; beyond this it is not one
STDERR_TAIL = 64 * 1024  # stderr kept (its last bytes) to find the usage line and the error
VERSION_TIMEOUT_S = 30.0
REAP_S = 10.0  # after the kill, for its pipes to close and its exit to be collected
# What the program finds in its environment, besides the placeholders' values.
ENVIRONMENT = {
    "PACKETBENCH_FILE": "the document's path",
    "PACKETBENCH_SCHEMA": "the path of the JSON schema the answer follows",
    "PACKETBENCH_DOCUMENT_TYPE": "the document type (the schema's name), e.g. sov",
    "PACKETBENCH_DOCUMENT_ID": "the document's id in its packet",
    "PACKETBENCH_PACKET_ID": "the packet's id",
    "PACKETBENCH_FORMAT": "pdf, xlsx or csv",
}


def split_template(template: str) -> list[str]:
    """The words of `--command` (UsageError, one line, when it has none or cannot be split)."""
    try:
        words = shlex.split(template)
    except ValueError as error:
        raise UsageError(f"--command {template!r}: cannot be split ({error})") from None
    if not words:
        raise UsageError("--command is empty; give the program to run and its arguments")
    return words


def fill(words: list[str], values: dict[str, str]) -> list[str]:
    """Each word with its placeholders replaced, in one pass (a value that itself contains
    `{schema}` stays as it is)."""
    return [_PLACEHOLDER.sub(lambda m: values[m.group(1)], word) for word in words]


def version_words(words: list[str]) -> list[str]:
    """How the program is asked its version: the template's words before the first one with
    a placeholder, then `--version` (`python my.py {file}` asks `python my.py --version`, not
    the interpreter's)."""
    head: list[str] = []
    for word in words:
        if _PLACEHOLDER.search(word):
            break
        head.append(word)
    return [*head, "--version"]


def program_version(words: list[str]) -> str:
    """The first line `version_words` print (UsageError when they print none)."""
    hint = "give the version with --system-version"
    asked = version_words(words)
    shown = shlex.join(asked)
    try:
        done = subprocess.run(
            asked,
            capture_output=True,
            timeout=VERSION_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except FileNotFoundError:
        raise UsageError(f"--command: program {words[0]!r} not found") from None
    except PermissionError:
        raise UsageError(f"--command: program {words[0]!r} cannot be run (permission)") from None
    except subprocess.TimeoutExpired:
        raise UsageError(
            f"--command: {shown} gave no answer within {VERSION_TIMEOUT_S:g} s; {hint}"
        ) from None
    text = (
        done.stdout.decode("utf-8", "replace").strip()
        or done.stderr.decode("utf-8", "replace").strip()
    )
    line = text.splitlines()[0].strip() if text else ""
    if done.returncode != 0 or not line:
        raise UsageError(f"--command: {shown} printed no version (exit {done.returncode}); {hint}")
    return line[:200]


def read_usage(stderr: str) -> tuple[dict[str, float], str | None]:
    """The last usage line of `stderr`: its numbers, and a note when it cannot be read."""
    lines = [line for line in stderr.splitlines() if line.startswith(USAGE_PREFIX)]
    if not lines:
        return {}, None
    return parse_usage(lines[-1][len(USAGE_PREFIX) :].strip())


def _last_line(stderr: str) -> str:
    lines = [
        line.strip()
        for line in stderr.splitlines()
        if line.strip() and not line.startswith(USAGE_PREFIX)
    ]
    return lines[-1][:300] if lines else ""


def _kill_group(process: asyncio.subprocess.Process) -> None:
    """Kill the program and everything it started (its process group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


async def _read_capped(
    stream: asyncio.StreamReader, cap: int, overflow: Callable[[], None]
) -> tuple[bytes, bool]:
    """Up to `cap` bytes of `stream`, read to its end; True when it had more, in which case
    `overflow` is called once (it kills the program) and the rest is read and dropped: a
    pipe left unread would keep the program, and its transport, from ever finishing."""
    chunks: list[bytes] = []
    size = 0
    flooded = False
    while True:
        chunk = await stream.read(65536)
        if not chunk:
            return b"".join(chunks), flooded
        size += len(chunk)
        if size > cap and not flooded:
            flooded = True
            overflow()
        if not flooded:
            chunks.append(chunk)


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.read(65536):
        pass


async def _read_tail(stream: asyncio.StreamReader, keep: int) -> bytes:
    """The last `keep` bytes of `stream` (read to its end, so the program never blocks)."""
    tail = b""
    while True:
        chunk = await stream.read(65536)
        if not chunk:
            return tail
        tail = (tail + chunk)[-keep:]


class CommandProvider(OwnSystem):
    name = "command"
    sdk = "command"  # run.json's versions: the program's version string under this name
    sdk_module = "subprocess"
    default_retries = 2

    def __init__(self, settings: ApiSettings, template: str, version: str) -> None:
        super().__init__(settings, version)
        self.template = template
        self.words = split_template(template)
        self._schemas: Path | None = None

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Provider:
        template = options.get("command")
        if not template:
            raise UsageError('provider command needs --command "PROGRAM ARGS {file} {schema}"')
        words = split_template(template)
        version = (options.get("system_version") or "").strip() or program_version(words)
        # The run's name on reports and boards: --model when given, else the version.
        settings = settings_from_options(options, model=options.get("model") or version)
        return cls(settings, template, version)

    # -- what run.json records ---------------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        return self.own_description({"command": self.words})

    def identity(self) -> dict[str, Any]:
        return {"command": self.words}

    def document_request(
        self,
        prompt: Prompt,
        schema_name: str,
        schema: dict[str, Any],
        packet: Packet,
        doc: DocInfo,
    ) -> dict[str, Any]:
        path = str((packet.path / doc.file).resolve())
        schema_path = str(self._schema_file(schema_name, schema))
        values = {"file": path, "schema": schema_path, "doc_type": doc.doc_type}
        env = {
            "PACKETBENCH_FILE": path,
            "PACKETBENCH_SCHEMA": schema_path,
            "PACKETBENCH_DOCUMENT_TYPE": doc.doc_type,
            "PACKETBENCH_DOCUMENT_ID": doc.doc_id,
            "PACKETBENCH_PACKET_ID": packet.packet_id,
            "PACKETBENCH_FORMAT": doc.format,
        }
        return {"argv": fill(self.words, values), "env": env}

    def _schema_file(self, name: str, schema: dict[str, Any]) -> Path:
        """The file holding schema `name` as sent, written once per run."""
        if self._schemas is None:
            self._schemas = Path(tempfile.mkdtemp(prefix="packetbench-schemas-"))
        path = self._schemas / f"{name}.schema.json"
        if not path.is_file():
            path.write_text(json.dumps(schema, indent=1, ensure_ascii=False), encoding="utf-8")
        return path

    # -- one document --------------------------------------------------------------------------

    async def send(self, request: dict[str, Any]) -> Reply:
        if "argv" not in request:  # a question with no document (the classifier's)
            raise self.no_document()
        argv: list[str] = request["argv"]
        env = {**os.environ, **request["env"]}
        timeout = self.settings.timeout_s
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=env,
                start_new_session=True,  # its own process group: a timeout kills all of it
            )
        except FileNotFoundError:
            raise ProviderFailure("fatal", f"program {argv[0]!r} not found") from None
        except PermissionError:
            raise ProviderFailure("fatal", f"program {argv[0]!r} cannot be run") from None
        assert process.stdout is not None and process.stderr is not None
        try:
            reading = asyncio.gather(
                _read_capped(process.stdout, MAX_STDOUT, lambda: _kill_group(process)),
                _read_tail(process.stderr, STDERR_TAIL),
            )
            try:
                (out, flooded), err = await asyncio.wait_for(reading, timeout)
            except TimeoutError:
                raise ProviderFailure(
                    "timeout", f"no answer within {timeout:g} s (process group killed)"
                ) from None
            if flooded:
                raise ProviderFailure(
                    "rejected", f"printed more than {MAX_STDOUT:,} bytes on stdout (killed)"
                )
            try:
                code = await asyncio.wait_for(process.wait(), timeout)
            except TimeoutError:
                raise ProviderFailure(
                    "timeout", f"closed stdout but did not exit within {timeout:g} s (killed)"
                ) from None
        finally:
            # On every way out: nothing it started outlives its document, and its pipes are
            # read to their end (a killed group closes them) so the process can be reaped.
            _kill_group(process)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    asyncio.gather(_drain(process.stdout), _drain(process.stderr)), REAP_S
                )
            if process.returncode is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), REAP_S)
        stderr = err.decode("utf-8", "replace")
        said = _last_line(stderr)
        if code != 0:
            how = (
                f"killed by signal {signal.Signals(-code).name}"
                if code < 0 and -code in signal.valid_signals()
                else f"exit status {code}"
            )
            message = f"{argv[0]}: {how}" + (f": {said}" if said else "")
            raise ProviderFailure("server" if code == TEMPFAIL else "rejected", message)
        usage, note = read_usage(stderr)
        return Reply(
            text=out.decode("utf-8", "replace"),
            finish_reason="exit 0",
            input_tokens=int(usage.get("input_tokens", 0)),
            output_tokens=int(usage.get("output_tokens", 0)),
            reasoning_tokens=int(usage.get("reasoning_tokens", 0)),
            note=note,
            cost_usd=usage.get("cost_usd"),
        )

    async def aclose(self) -> None:
        if self._schemas is not None:
            shutil.rmtree(self._schemas, ignore_errors=True)
            self._schemas = None
