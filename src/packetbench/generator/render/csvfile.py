"""CSV documents: one header row, then data rows; every cell is text.

A field's location is ``{"row", "column"}``, 0-based, with the header as row 0; `rendered_as`
is the cell text exactly as written. What csv.* patterns ask (`Presentation.csv`, a `CsvLook`:
delimiter, encoding, preamble and trailer lines, header words) is done here, for every CSV.
"""

from __future__ import annotations

import codecs
import csv
import io
from pathlib import Path

from packetbench.generator.render import fmt
from packetbench.generator.render.recorder import Recorder

Cell = str | tuple[str]  # literal text, or a 1-tuple holding a leaf path


class CsvDocument:
    def __init__(self, recorder: Recorder, header: list[str]) -> None:
        self.recorder = recorder
        self.look = recorder.presentation.csv
        header = [self._header(text) for text in header]
        self.rows: list[list[str]] = [header]
        for text in header:
            recorder.visible(text, 1)

    def _header(self, text: str) -> str:
        for word, written in self.look.header_words.items():
            text = text.replace(word, written)
        return text

    def row(self, cells: list[Cell], style: fmt.Style | None = None) -> None:
        """Append a row; a path cell holds its leaf's text, or nothing when null."""
        index = len(self.rows)
        out: list[str] = []
        for column, cell in enumerate(cells):
            path: str | None = None
            if isinstance(cell, tuple):
                (path,) = cell
                text = self.recorder.text_of(path, style) or ""
                if text:
                    self.recorder.place(path, text, {"row": index, "column": column})
            else:
                text = cell
            self.recorder.visible(text, 1, path=path)
            out.append(text)
        self.rows.append(out)

    def render(self) -> bytes:
        look = self.look
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter=look.delimiter, lineterminator="\r\n")
        for line in look.preamble:
            writer.writerow([line] if line else [])
            self.recorder.visible(line, 1)
        writer.writerows(self.rows)
        for row in look.trailer:
            writer.writerow(row)
            for text in row:
                self.recorder.visible(text, 1)
        data = buffer.getvalue().encode(look.encoding)
        if look.encoding != "utf-8":
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:  # the file really is in another encoding
                self.recorder.presentation.events.append(("csv.encoded", look.encoding, 1))
        return codecs.BOM_UTF8 + data if look.bom else data

    def save(self, path: Path) -> int:
        path.write_bytes(self.render())
        return 1
