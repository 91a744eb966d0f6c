"""CSV documents: one header row, then data rows; every cell is text.

A field's location is ``{"row", "column"}``, 0-based, with the header as row 0; `rendered_as`
is the cell text exactly as written.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from generator.render import fmt
from generator.render.record import Recorder

Cell = str | tuple[str]  # literal text, or a 1-tuple holding a leaf path


class CsvDocument:
    def __init__(self, recorder: Recorder, header: list[str]) -> None:
        self.recorder = recorder
        self.rows: list[list[str]] = [list(header)]
        for text in header:
            recorder.visible(text, 1)

    def row(self, cells: list[Cell], style: fmt.Style | None = None) -> None:
        """Append a row; a path cell holds its leaf's text, or nothing when null."""
        index = len(self.rows)
        out: list[str] = []
        for column, cell in enumerate(cells):
            if isinstance(cell, tuple):
                (path,) = cell
                text = self.recorder.text_of(path, style) or ""
                if text:
                    self.recorder.place(path, text, {"row": index, "column": column})
            else:
                text = cell
            self.recorder.visible(text, 1)
            out.append(text)
        self.rows.append(out)

    def render(self) -> bytes:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\r\n").writerows(self.rows)
        return buffer.getvalue().encode("utf-8")

    def save(self, path: Path) -> int:
        path.write_bytes(self.render())
        return 1
