"""A progress bar on a terminal's stderr (nothing when stderr is not a terminal)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def bar(
    stage: str, unit: str, total: int | None = None, disable: bool = False
) -> Iterator[Callable[[int], None]]:
    """A transient bar for `stage`; the callable it yields takes how many are done."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    stderr = Console(stderr=True)
    with Progress(
        TextColumn(f"[bold]{stage}[/] {unit}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=stderr,
        transient=True,
        disable=disable or not stderr.is_terminal,
    ) as progress:
        task = progress.add_task(stage, total=total)

        def advance(done: int) -> None:
            progress.update(task, completed=done)

        yield advance
