"""The README tells the truth: its two commands, its examples, its command list."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.cli import app
from tests.support.paths import ROOT, cli_path

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _marked_command(marker: str) -> str:
    match = re.search(rf"<!-- {marker} -->\s*```(?:bash|sh|console)?\n(.+?)\n```", README, re.S)
    assert match, f"README has no block marked <!-- {marker} -->"
    return match.group(1).strip()


def test_readme_has_the_two_commands() -> None:
    main = _marked_command("main-command")
    test = _marked_command("test-command")
    assert "pip install" in main and "packetbench " in main
    assert 'pip install -e ".[test]"' in test and "pytest" in test


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _marked_command("test-command") in ci.splitlines()


def test_every_command_is_documented() -> None:
    names = [c.name for c in app.registered_commands]
    assert names
    for name in names:
        assert f"packetbench {name}" in README, f"README does not show `packetbench {name}`"


def _sessions() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for every `$ ` line of the README's console blocks."""
    steps: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", README, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
    return steps


def _mask_time(lines: list[str]) -> list[str]:
    return [re.sub(r" in \d+\.\d s$", " in _ s", line) for line in lines]


@pytest.mark.e2e
def test_readme_session_runs_as_written(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """Every command of the README's console blocks, in order, prints what the README shows
    (elapsed times aside); a command shown failing fails with that message and exit code 2."""
    steps = _sessions()
    assert any(cmd.startswith("packetbench ") for cmd, _ in steps), "no example session"
    bin_dir = str(Path(cli_path()).parent)
    for command, expected in steps:
        argv = shlex.split(command)
        if argv[0] == "packetbench" and not set("*|") & set(command):
            result = run_cli(*argv[1:], cwd=tmp_path)
        else:  # globs and pipes go through the shell, with packetbench on its PATH
            env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
            result = subprocess.run(
                ["sh", "-c", command],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
        if expected and expected[0].startswith("packetbench: error:"):
            assert result.returncode == 2, command
            assert result.stderr.splitlines() == expected, command
        else:
            assert result.returncode == 0, f"{command}: {result.stderr}"
            assert _mask_time(result.stdout.splitlines()) == _mask_time(expected), command
