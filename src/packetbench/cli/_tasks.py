"""How `packetbench --help` lists the commands: by the task a reader comes with, in the order
the work is done, `run` first (a helper module: the command loader skips `_` names).

Each command keeps its own one-line entry (its registration's ``short_help``); this table says
only which task it serves. A command the table does not name is listed last, under
`OTHER`, so a new command shows up in the help before it is placed in a task.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperCommand, TyperGroup

START = "Start here"
OTHER = "Other commands"
# task -> its commands, each in the order a user meets it
TASKS: dict[str, tuple[str, ...]] = {
    START: ("run",),
    "Make packets": ("generate", "patterns", "audit", "difficulty", "corpus"),
    "Run a model": ("extract", "providers", "stub", "audit-tokens", "import"),
    "Score and read results": (
        "score",
        "report",
        "view",
        "compare",
        "sql",
        "verify",
        "gate",
        "plan",
    ),
    "Release": ("release", "leaderboard"),
}


def task_of(command: str) -> str:
    """The task panel `command` is listed under."""
    return next((task for task, names in TASKS.items() if command in names), OTHER)


def _rank(command: str) -> tuple[int, int]:
    tasks = list(TASKS)
    task = task_of(command)
    if task == OTHER:
        return len(tasks), 0
    return tasks.index(task), TASKS[task].index(command)


class TaskGroup(TyperGroup):
    """The root command group: its commands in task order, each under its task's panel."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        # stable: commands the table does not name keep their registration order
        self.commands = dict(sorted(self.commands.items(), key=lambda item: _rank(item[0])))
        for name, command in self.commands.items():
            if isinstance(command, TyperCommand | TyperGroup):
                command.rich_help_panel = task_of(name)
