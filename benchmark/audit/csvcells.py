"""CSV cells read back with the csv module: a field's `rendered_as` is its cell text exactly."""

from __future__ import annotations

import csv
from pathlib import Path

from benchmark.errors import BadInput


class CsvCells:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            with path.open(encoding="utf-8", newline="") as handle:
                self.rows = list(csv.reader(handle))
        except (OSError, UnicodeDecodeError, csv.Error) as error:
            raise BadInput(f"{path}: unreadable CSV ({error})") from None

    def cell(self, row: int, column: int) -> tuple[str | None, str]:
        """(text, "") of a cell (0-based, header row 0), or (None, why it cannot be read)."""
        if not 0 <= row < len(self.rows):
            return None, f"no row {row} (the file has {len(self.rows)})"
        if not 0 <= column < len(self.rows[row]):
            return None, f"row {row} has no column {column} ({len(self.rows[row])} columns)"
        return self.rows[row][column], ""

    def texts(self) -> set[str]:
        """Whitespace-normalized texts of every non-empty cell."""
        return {" ".join(cell.split()) for row in self.rows for cell in row if cell.strip()}
