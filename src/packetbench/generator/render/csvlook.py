"""What CSV patterns (csv.*) ask of the CSV writer (`generator.render.csvfile`).

A field's `rendered_as` is its cell text as written; values a pattern writes differently
(European numbers, line breaks inside a quoted cell) go through `Presentation.shown` like any
shown text. Lines before the header (a report preamble) are not rows: locations keep the
header as row 0, and a reader finds the header as the first line that has the table's width
(`truth/csvread.py`). Lines after the data (a trailer) are rows after the last record.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class CsvLook:
    delimiter: str = ","
    encoding: str = "utf-8"  # "cp1252" or "utf-8"; a BOM is `bom`
    bom: bool = False
    preamble: list[str] = field(default_factory=list)  # one-cell lines before the header
    trailer: list[list[str]] = field(default_factory=list)  # rows after the last record
    header_words: dict[str, str] = field(default_factory=dict)  # word -> as a header writes it

    def __bool__(self) -> bool:
        return (
            self.delimiter != ","
            or self.encoding != "utf-8"
            or self.bom
            or bool(self.preamble)
            or bool(self.trailer)
            or bool(self.header_words)
        )
