"""The progress display every long command shows: a transient bar on stderr (on stdout for
`run`, whose stage lines it interleaves), and nothing at all when that stream is not a
terminal, so scripts and logs only ever see the commands' own lines."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress


def display(
    label: str,
    *fields: str,
    eta: bool = False,
    spinner: bool = False,
    to_stdout: bool = False,
    disable: bool = False,
) -> Progress:
    """A display of `label`, a bar, done/total, each of `fields` (rich text columns such as
    ``"{task.fields[errors]} errors"``), the time elapsed and, with `eta`, the time left."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        ProgressColumn,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as RichProgress

    stderr = Console(stderr=True)
    columns: list[ProgressColumn | str] = [SpinnerColumn()] if spinner else []
    columns += [TextColumn(label), BarColumn(), MofNCompleteColumn()]
    columns += [TextColumn(field) for field in fields]
    columns.append(TimeElapsedColumn())
    if eta:
        columns += [TextColumn("ETA"), TimeRemainingColumn()]
    return RichProgress(
        *columns,
        console=Console(highlight=False, soft_wrap=True) if to_stdout else stderr,
        transient=True,
        disable=disable or not stderr.is_terminal,
    )


@contextmanager
def bar(
    stage: str, unit: str = "", total: int | None = None, disable: bool = False
) -> Iterator[Callable[[int | None], None]]:
    """A bar for `stage` counting `unit`; the callable it yields takes how many are done
    (None: one more)."""
    with display(f"[bold]{stage}[/] {unit}".rstrip(), disable=disable) as progress:
        task = progress.add_task(stage, total=total)

        def advance(done: int | None = None) -> None:
            if done is None:
                progress.advance(task)
            else:
                progress.update(task, completed=done)

        yield advance
