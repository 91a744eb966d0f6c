"""Types of the run fixtures."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

ScoredRun = Callable[[str, int], Path]
