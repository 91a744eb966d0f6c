"""`--help` as a newcomer reads it: the commands grouped by task with `run` first, one line
each; `run` and `extract` with their options in panels by concern; and a shared option's
help that speaks only of the command it is shown for (real `packetbench` processes)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from typing import Annotated, get_args, get_origin

import typer

from packetbench.cli import _options, app
from packetbench.cli._tasks import OTHER, TASKS

Cli = Callable[..., subprocess.CompletedProcess[str]]
NARROW = {"COLUMNS": "80", "TERM": "dumb"}
WIDE = {"COLUMNS": "200", "TERM": "dumb"}
PANEL = re.compile(r"^╭─ (.+?) ─+╮$")


def _panels(text: str) -> dict[str, list[str]]:
    """The panels of a `--help` text: title -> the lines inside its box, in order."""
    panels: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        opened = PANEL.match(line.strip())
        if opened:
            current = panels.setdefault(opened.group(1), [])
        elif line.strip().startswith("╰"):
            current = None
        elif current is not None:
            current.append(line.strip().strip("│").strip())
    return panels


def _option_names(lines: list[str]) -> list[str]:
    return [m.group(1) for line in lines if (m := re.match(r"^(?:\* +)?(--[\w-]+)", line))]


def test_the_commands_are_listed_by_task_run_first_one_line_each(run_cli: Cli) -> None:
    result = run_cli("--help", env=NARROW)
    assert result.returncode == 0, result.stderr
    panels = _panels(result.stdout)
    tasks = [name for name in panels if name != "Options"]
    assert tasks == list(TASKS), tasks  # no "Commands" catch-all, no OTHER
    assert OTHER not in panels and "Commands" not in panels
    rows = {task: [line.split()[0] for line in panels[task]] for task in tasks}
    assert rows["Start here"] == ["run"]
    assert rows == {task: list(names) for task, names in TASKS.items()}
    # one line per command at 80 columns: every line of a task panel starts with its name
    listed = {name for names in TASKS.values() for name in names}
    for task in tasks:
        assert all(line.split()[0] in listed for line in panels[task]), panels[task]
    # every command the app has is in the table (a new one must be given a task)
    root = typer.main.get_command(app)
    assert set(root.commands) == listed  # type: ignore[attr-defined]
    assert "packetbench run" in result.stdout.split("╰")[-1]  # the closing "start here" line


def test_groups_list_their_subcommands_one_line_each(run_cli: Cli) -> None:
    root = typer.main.get_command(app)
    groups = {n: c for n, c in root.commands.items() if hasattr(c, "commands")}  # type: ignore[attr-defined]
    assert sorted(groups) == ["corpus", "import", "release"]
    for name, group in groups.items():
        text = run_cli(name, "--help", env=NARROW).stdout
        lines = _panels(text)["Commands"]
        assert [line.split()[0] for line in lines] == list(group.commands), (name, text)


def test_run_and_extract_show_their_options_in_panels_by_concern(run_cli: Cli) -> None:
    for command, expected in (
        (
            "run",
            [
                "Options",
                "Packets",
                "Audit",
                "Model",
                "Your own system (--provider command, http)",
                "Simulator (--provider sim)",
                "Which documents",
                "What is asked for",
                "Cost and cache",
                "Requests",
                "Batch API",
                "Workers (generate, audit, score)",
            ],
        ),
        (
            "extract",
            [
                "Options",
                "Packets",
                "Model",
                "Your own system (--provider command, http)",
                "Simulator (--provider sim)",
                "Which documents",
                "What is asked for",
                "Cost and cache",
                "Requests",
                "Batch API",
            ],
        ),
    ):
        result = run_cli(command, "--help", env=WIDE)
        assert result.returncode == 0, result.stderr
        panels = {name: _option_names(lines) for name, lines in _panels(result.stdout).items()}
        assert list(panels) == expected, (command, list(panels))
        # the first panel is what the invocation does with its folder
        assert set(panels["Options"]) <= {
            "--out",
            "--resume",
            "--force",
            "--retry-failed",
            "--help",
        }
        assert set(panels["Model"]) == {
            "--provider",
            "--model",
            "--reasoning",
            "--input",
            "--dpi",
            "--delivered-dpi",
            "--base-url",
        }
        assert "--max-cost" in panels["Cost and cache"] and "--batch" in panels["Batch API"]
        # a panel a reader takes in at a glance
        assert max(len(names) for names in panels.values()) <= 8, panels
        # every visible option of the command is in one panel, once
        shown = [name for names in panels.values() for name in names]
        assert len(shown) == len(set(shown))
        command_object = typer.main.get_command(app).commands[command]  # type: ignore[attr-defined]
        visible = {
            param.opts[0]
            for param in command_object.params
            if param.param_type_name == "option" and not param.hidden
        }
        assert set(shown) == visible | {"--help"}


def _shared_helps() -> set[str]:
    """The help texts of the options `cli/_options.py` declares for several commands."""
    found = set()
    for value in vars(_options).values():
        if get_origin(value) is not Annotated:
            continue
        for meta in get_args(value)[1:]:
            if isinstance(meta, typer.models.OptionInfo) and meta.help:
                found.add(meta.help)
    return found


def test_a_shared_option_speaks_only_of_its_own_command(run_cli: Cli) -> None:
    """extract --packets said what verify, score and view do with their packets, and run's
    --tiers what extract does with its: a shared option's help names no other command."""
    root = typer.main.get_command(app)
    commands = set(root.commands)  # type: ignore[attr-defined]
    shared = _shared_helps()
    assert len(shared) >= 30
    checked = 0
    for name in ("extract", "run", "verify"):
        command = root.commands[name]  # type: ignore[attr-defined]
        for param in command.params:
            if param.help not in shared:
                continue
            checked += 1
            # "run" is also the noun (a stopped run): named as a command, it takes a colon
            others = commands - {name, "run"}
            named = [
                c for c in others if re.search(rf"(?<![\w/-]){re.escape(c)}(?![\w-])", param.help)
            ]
            assert not named, (name, param.opts, named, param.help)
            if name != "run":
                assert not re.search(r"\brun:", param.help), (name, param.opts, param.help)
    assert checked >= 60
    # the example the issue gave, as the user sees it
    text = " ".join(run_cli("extract", "--help", env=WIDE).stdout.split())
    assert "The packets to extract: a packet folder, or a folder of packets." in text
    assert "verify, score, view" not in text


def test_a_description_wraps_to_the_terminal_not_to_the_source(run_cli: Cli) -> None:
    """A command's description, written wrapped in its docstring, is reflowed to the terminal:
    at 80 columns no line of `report --help`'s description stops short of the width while its
    paragraph goes on (the source's line breaks at 92 columns used to leave a line of one or
    two words after each), and a block kept as written (gate's rules, click's no-rewrap mark)
    keeps its lines."""
    result = run_cli("report", "--help", env=NARROW)
    assert result.returncode == 0, result.stderr
    text = result.stdout.split("╭")[0]
    paragraphs = [
        [line for line in p.splitlines() if line.strip()] for p in re.split(r"\n\s*\n", text)
    ]
    described = [lines for lines in paragraphs if len(lines) > 1 and "Usage:" not in str(lines)]
    assert described, text
    for lines in described:
        for line in lines[:-1]:  # every line but a paragraph's last is filled
            assert len(line.rstrip()) > 60, lines
    gate = run_cli("gate", "--help", env=NARROW).stdout
    assert re.search(r"^\s*\[\[rule\]\]\s*$", gate, re.M), gate
    assert re.search(r"^\s*max = 0\.03 ", gate, re.M), gate
