"""Hallucination rates: micro (pooled) and macro (mean of documents), never a rate of nothing.

Counted separately for numbers and strings, against the packet universe (comparable with the
reference benchmark) and the stricter document universe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

UNIVERSES = ("packet", "document")
CLASSES = ("numbers", "strings")


def rate(hallucinated: int, checked: int) -> float | None:
    """hallucinated / checked, or None when nothing was checked (a rate over nothing)."""
    return round(hallucinated / checked, 6) if checked else None


def mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return round(sum(present) / len(present), 6) if present else None


@dataclass
class GroundingTally:
    """Checked and hallucinated counts of one document, by universe and value class."""

    checked: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CLASSES, 0))
    hallucinated: dict[tuple[str, str], int] = field(
        default_factory=lambda: {(u, c): 0 for u in UNIVERSES for c in CLASSES}
    )

    def add(self, numeric: bool, checked: bool, in_packet: bool, in_document: bool) -> None:
        if not checked:
            return
        kind = "numbers" if numeric else "strings"
        self.checked[kind] += 1
        self.hallucinated[("packet", kind)] += not in_packet
        self.hallucinated[("document", kind)] += not in_document

    def as_dict(self) -> dict[str, Any]:
        return {
            universe: {
                kind: {
                    "checked": self.checked[kind],
                    "hallucinated": self.hallucinated[(universe, kind)],
                    "rate": rate(self.hallucinated[(universe, kind)], self.checked[kind]),
                }
                for kind in CLASSES
            }
            for universe in UNIVERSES
        }


def summarize(tallies: Sequence[GroundingTally]) -> dict[str, Any]:
    """Micro and macro rates over documents, for each universe and value class."""
    out: dict[str, Any] = {}
    for universe in UNIVERSES:
        out[universe] = {}
        for kind in CLASSES:
            checked = sum(t.checked[kind] for t in tallies)
            hallucinated = sum(t.hallucinated[(universe, kind)] for t in tallies)
            out[universe][kind] = {
                "checked": checked,
                "hallucinated": hallucinated,
                "rate_micro": rate(hallucinated, checked),
                "rate_macro": mean(
                    [rate(t.hallucinated[(universe, kind)], t.checked[kind]) for t in tallies]
                ),
                "documents_with_checks": sum(1 for t in tallies if t.checked[kind]),
            }
    return out
