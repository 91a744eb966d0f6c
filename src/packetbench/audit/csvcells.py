"""CSV cells read back with the shared CSV reader (`truth.csvread`: encoding, delimiter
and header found as a person opening the file finds them): a field's `rendered_as` is its
cell text exactly, rows counted from the header (row 0)."""

from __future__ import annotations

from pathlib import Path

from packetbench.core import safe_read
from packetbench.core.errors import BadInput
from packetbench.truth.csvread import read_csv


class CsvCells:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            data = safe_read.read_bytes(path, "document")
        except OSError as error:
            raise BadInput(f"{path}: unreadable CSV ({error.strerror})") from None
        read = read_csv(data, path)
        self.rows = read.rows
        self.preamble = read.preamble

    def cell(self, row: int, column: int) -> tuple[str | None, str]:
        """(text, "") of a cell (0-based, header row 0), or (None, why it cannot be read)."""
        if not 0 <= row < len(self.rows):
            return None, f"no row {row} (the file has {len(self.rows)})"
        if not 0 <= column < len(self.rows[row]):
            return None, f"row {row} has no column {column} ({len(self.rows[row])} columns)"
        return self.rows[row][column], ""

    def visible_cells(self) -> list[tuple[tuple[int, int] | None, str]]:
        """((row, column), whitespace-normalized text) of every non-empty cell, the preamble's
        lines first (position None)."""
        out: list[tuple[tuple[int, int] | None, str]] = [
            (None, " ".join(cell.split())) for row in self.preamble for cell in row if cell.strip()
        ]
        for r, row in enumerate(self.rows):
            out.extend(
                ((r, c), " ".join(cell.split())) for c, cell in enumerate(row) if cell.strip()
            )
        return out

    def texts(self) -> set[str]:
        """Whitespace-normalized texts of every non-empty cell, preamble lines included."""
        return {
            " ".join(cell.split())
            for row in (*self.preamble, *self.rows)
            for cell in row
            if cell.strip()
        }
