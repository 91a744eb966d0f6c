"""Reading a CSV export the way a careful person opening it would: one reader for the audit
and for what the harness sends a model.

- Encoding: a UTF-8 byte-order mark says UTF-8; otherwise UTF-8 when the bytes are valid
  UTF-8, else Windows-1252 (the other encoding exports use); bytes that are neither, or NUL
  bytes, make the file unreadable.
- Delimiter: the one of , ; TAB | under which most lines have the same number of cells
  (ties: the wider table, then that order).
- Header: the first line with that many cells. Lines before it are a report preamble, not
  rows; rows are counted from the header (row 0), as field locations are written.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from packetbench.core.errors import BadInput

DELIMITERS = (",", ";", "\t", "|")
# Control bytes no text export holds (tab, line ends and form feed aside): a binary file.
_MAGIC = ((b"%PDF-", "PDF"), (b"PK\x03\x04", "ZIP (workbook)"))
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f\x7f]")
DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}


@dataclass(frozen=True)
class CsvRead:
    text: str  # the decoded file
    encoding: str  # "utf-8", "utf-8-sig" (with a byte-order mark) or "cp1252"
    delimiter: str
    preamble: list[list[str]]  # lines before the header
    rows: list[list[str]]  # the header (row 0) and every line after it

    def choices(self) -> dict[str, object]:
        """How the file was read, for a record of what a model was given."""
        return {
            "encoding": self.encoding,
            "delimiter": DELIMITER_NAMES[self.delimiter],
            "preamble_lines": len(self.preamble),
            "rows": len(self.rows),
        }


def decode(data: bytes, path: Path) -> tuple[str, str]:
    """(text, encoding) of a CSV file's bytes; BadInput when it is not text."""
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            raise BadInput(f"{path}: a {kind} file, not CSV text")
    if _CONTROL.search(data):
        raise BadInput(f"{path}: not a text file (control bytes)")
    if data.startswith(codecs.BOM_UTF8):
        try:
            return data[len(codecs.BOM_UTF8) :].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as error:
            raise BadInput(
                f"{path}: a UTF-8 byte-order mark, but not UTF-8 ({error.reason} "
                f"at byte {error.start + 3})"
            ) from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError as error:
        raise BadInput(
            f"{path}: neither UTF-8 nor Windows-1252 text (byte "
            f"0x{data[error.start]:02x} at {error.start})"
        ) from None


def _parse(text: str, delimiter: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True))


def read_csv(data: bytes, path: Path) -> CsvRead:
    text, encoding = decode(data, path)
    best: tuple[tuple[int, int, int], str, list[list[str]], int] | None = None
    for order, delimiter in enumerate(DELIMITERS):
        try:
            rows = _parse(text, delimiter)
        except csv.Error:
            continue
        widths = Counter(len(row) for row in rows if any(cell.strip() for cell in row))
        if not widths:
            continue
        width, count = max(widths.items(), key=lambda item: (item[1], item[0]))
        score = (count if width > 1 else 0, width, -order)
        if best is None or score > best[0]:
            best = (score, delimiter, rows, width)
    if best is None:
        raise BadInput(f"{path}: not a readable CSV file")
    _, delimiter, rows, width = best
    start = next((i for i, row in enumerate(rows) if len(row) == width), 0)
    return CsvRead(text, encoding, delimiter, rows[:start], rows[start:])
