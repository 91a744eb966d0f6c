"""The progress bar of an extraction: done/total, errors, tokens, cost so far, ETA."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass
class Tally:
    total: int = 0
    done: int = 0
    ok: int = 0
    failed: int = 0
    cached: int = 0
    requests: int = 0
    retries: int = 0
    batches: int = 0  # provider batches created (extract --batch)
    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    spent_usd: float = 0.0  # requests sent in this run
    cached_usd: float = 0.0  # what cache hits cost when they were first requested

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens + self.reasoning_tokens


class Reporter(Protocol):
    def start(self, total: int) -> None: ...
    def update(self, tally: Tally) -> None: ...
    def note(self, line: str) -> None: ...
    def stop(self) -> None: ...


class Silent:
    def start(self, total: int) -> None:
        return None

    def update(self, tally: Tally) -> None:
        return None

    def note(self, line: str) -> None:
        return None

    def stop(self) -> None:
        return None


class ProgressBar:
    """A rich progress bar on stderr (nothing when stderr is not a terminal)."""

    def __init__(self, label: str) -> None:
        from packetbench.core.progress import display

        self._progress = display(
            f"[bold]{label}[/]",
            "{task.fields[errors]} errors",
            "{task.fields[tokens]} tokens",
            "${task.fields[cost]}",
            eta=True,
        )
        self._task: Any = None

    def start(self, total: int) -> None:
        self._progress.start()
        self._task = self._progress.add_task(
            "extract", total=total, errors=0, tokens="0", cost="0.00"
        )

    def update(self, tally: Tally) -> None:
        self._progress.update(
            self._task,
            completed=tally.done,
            errors=tally.failed,
            tokens=f"{tally.tokens:,}",
            cost=f"{tally.spent_usd:,.2f}",
        )

    def note(self, line: str) -> None:
        """A line on stderr above the bar (printed when stderr is not a terminal too)."""
        self._progress.console.print(line, markup=False, highlight=False, soft_wrap=True)

    def stop(self) -> None:
        self._progress.stop()
