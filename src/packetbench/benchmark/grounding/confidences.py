"""What a record keeps of the confidences an answer gave (`extract --confidence`).

Each entry is kept as the model gave it, keyed by the value's path; a confidence that is
not a number from 0 to 1 keeps what it said and says why under `problem`, so the scorer
leaves it out instead of reading a made-up number. The first entry of a path counts.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict


class Confidence(BaseModel):
    """One value's confidence as recorded."""

    model_config = ConfigDict(extra="forbid")

    path: str
    confidence: float | None = None  # as given when it is a finite number
    problem: str | None = None  # why the confidence is not scored


def _entry(path: str, value: Any) -> Confidence:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return Confidence(path=path, problem="no confidence")
    if not math.isfinite(value):
        return Confidence(path=path, problem="not a finite number")
    if not 0.0 <= value <= 1.0:
        return Confidence(path=path, confidence=float(value), problem="outside 0-1")
    return Confidence(path=path, confidence=float(value))


def convert(entries: Any) -> list[Confidence]:
    """The record's confidences from an answer's confidence list (entries that name no path
    are dropped; a later entry of a path already given is dropped)."""
    if not isinstance(entries, list):
        return []
    found: dict[str, Confidence] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
            continue
        if entry["path"] not in found:
            found[entry["path"]] = _entry(entry["path"], entry.get("confidence"))
    return list(found.values())
