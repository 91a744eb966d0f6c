"""`packetbench view` as its own process, for the viewer's tests in a real browser."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.support.chromium import Page
from tests.support.paths import cli_path

# Markup where a run or a packet gives the viewer a string: as text it is harmless; parsed as
# HTML it would run (the script, the image's error handler) and set window.__pwned.
HOSTILE = (
    "<script>window.__pwned = 1</script>",
    '"><img src=x onerror="window.__pwned = 2">',
)
PORT = 8765  # the port an in-process viewer (starlette's TestClient) is addressed at
HOSTILE_DOCUMENT = "acord_130"  # the document of the canonical N3 packet given hostile values
# Two plain string leaves of its schema (no enum): the model's answers there become claims.
HOSTILE_PATHS = ("header.agency_name", "header.carrier_name")


def put(output: dict[str, Any], path: str, value: Any) -> None:
    """Set the leaf at dotted `path` (objects only) of an extraction's output."""
    *parents, leaf = path.split(".")
    node = output
    for name in parents:
        node = node[name]
    node[leaf] = value


def problems(page: Page) -> list[Any]:
    """The page's uncaught exceptions, and its console and log errors and warnings."""
    found: list[Any] = list(page.exceptions)
    found += [m for m in page.console if m.get("type") in ("error", "warning", "assert")]
    found += [e for e in page.log if e.get("level") in ("error", "warning")]
    return found


@contextmanager
def serving(*args: str, cwd: Path | None = None) -> Iterator[str]:
    """The URL of `packetbench view ARGS --port 0`, served until the block ends."""
    process = subprocess.Popen(
        [cli_path(), "view", *args, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=cwd,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        line = process.stdout.readline()
        if not line.startswith("packetbench view: serving http://127.0.0.1:"):
            process.wait(timeout=60)
            raise AssertionError(f"view did not serve: {line!r} {process.stderr.read()!r}")
        yield line.split()[3]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
