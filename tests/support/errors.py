"""A command's refusal as the project words it: exit 2 and one line on stderr."""

from __future__ import annotations

import subprocess

PREFIX = "packetbench: error: "


def one_line_error(result: subprocess.CompletedProcess[str], *needles: str) -> str:
    """The one line a refused command printed, holding every one of `needles`."""
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(PREFIX), result.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def error_message(result: subprocess.CompletedProcess[str]) -> str:
    """The message of a refused command's one line, without its prefix."""
    return one_line_error(result).removeprefix(PREFIX)
