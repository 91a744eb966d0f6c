"""What is sent for one document: the PDF itself, its text layer, or its pages as images; a
workbook or CSV always as text.

`--input native` sends a PDF as a file where the provider accepts one; `text` sends the PDF's
text layer page by page (pypdfium2); `images` sends every page rendered to PNG. A scanned
page's text is what its text layer holds (nothing, or an OCR layer), an attacked page's text
is what the attack left: the input records which pages had no text at all and which pages
the manifest says were attacked (text-layer patterns, scans), so a report can slice by them.
A workbook is sent sheet by sheet as CSV text with only what a reader can see: hidden sheets,
rows and columns are skipped, a formula shows its cached value (what the spreadsheet
displays), and the skipped sheets are recorded. A CSV file is decoded as a spreadsheet program
opens it (byte-order mark, UTF-8 or Windows-1252) and sent as written; its encoding, delimiter
and preamble lines are recorded. A file that cannot be decoded is bad input: that document's
record says why.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from packetbench.benchmark.providers.api import Part
from packetbench.core import safe_read, stopping
from packetbench.core.errors import BadInput
from packetbench.core.packet_files import read_manifest
from packetbench.truth.csvread import read_csv
from packetbench.truth.packets import DocInfo, Packet

IMAGE_DPI = 150  # unless --dpi says otherwise (benchmark.delivery.DEFAULT_DPI)
# pdfium is not thread-safe: every use goes through this lock (the process's one).
_PDFIUM = stopping.PDFIUM


@dataclass(frozen=True)
class DocumentInput:
    parts: tuple[Part, ...]
    mode: str  # what was sent: native, text or images
    sha256: str  # of the document file
    pages: int | None
    sheets: tuple[str, ...] = ()
    hidden_sheets: tuple[str, ...] = ()
    hidden_rows: int = 0
    hidden_columns: int = 0
    choices: dict[str, Any] = field(default_factory=dict)  # how the file was read
    image_only_pages: tuple[int, ...] = ()  # sent as text: pages whose text layer is empty
    attacked_pages: dict[int, tuple[str, ...]] = field(default_factory=dict)  # page -> ids

    def describe(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "mode": self.mode,
            "sha256": self.sha256,
            "parts": [p.label for p in self.parts],
        }
        if self.pages is not None:
            info["pages"] = self.pages
        if self.sheets or self.hidden_sheets:
            info.update(
                sheets=list(self.sheets),
                hidden_sheets_skipped=list(self.hidden_sheets),
                hidden_rows_skipped=self.hidden_rows,
                hidden_columns_skipped=self.hidden_columns,
            )
        info.update(self.choices)
        if self.image_only_pages:
            info["image_only_pages"] = list(self.image_only_pages)
        if self.attacked_pages:
            info["attacked_pages"] = {
                str(page): list(ids) for page, ids in sorted(self.attacked_pages.items())
            }
        return info

    def size(self) -> int:
        """Characters of text plus bytes of binary parts (for token estimates)."""
        return sum(len(p.text) + len(p.data) for p in self.parts)


# Patterns whose pages a reader of the text layer meets damaged (no text, or a lying one).
ATTACK_FAMILIES = frozenset({"textlayer", "scan"})


def build(
    packet: Packet, doc: DocInfo, mode: str, native_pdf: bool = True, dpi: int = IMAGE_DPI
) -> DocumentInput:
    """The input of `doc` in `mode` (a workbook or CSV is text whatever the mode; pages sent
    as images are rendered at `dpi`)."""
    built = build_file(packet.path / doc.file, mode, native_pdf, dpi)
    attacked = attacked_pages(read_manifest(packet.path, doc.doc_id))
    return replace(built, attacked_pages=attacked) if attacked else built


def attacked_pages(manifest: Any) -> dict[int, tuple[str, ...]]:
    """Page -> ids of the text-layer and scan patterns the manifest lists on it."""
    found: dict[int, list[str]] = {}
    applied = manifest.get("patterns_applied") if isinstance(manifest, dict) else None
    for pattern in applied or []:
        if not isinstance(pattern, dict) or pattern.get("family") not in ATTACK_FAMILIES:
            continue
        for page in pattern.get("pages_affected") or []:
            if type(page) is int:
                found.setdefault(page, []).append(str(pattern.get("id")))
    return {page: tuple(ids) for page, ids in sorted(found.items())}


def build_file(
    path: Path, mode: str, native_pdf: bool = True, dpi: int = IMAGE_DPI
) -> DocumentInput:
    """`build` for one file (a plain function of picklable arguments, for worker processes)."""
    try:
        data = safe_read.read_bytes(path, safe_read.document_kind(path))
    except safe_read.UnsafeFile as error:  # that document's record says why, as for others
        raise BadInput(str(error)) from None
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error.strerror})") from None
    digest = hashlib.sha256(data).hexdigest()
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return _pdf(path, data, digest, mode if native_pdf or mode != "native" else "text", dpi)
    if suffix == ".xlsx":
        return _workbook(path, data, digest)
    if suffix == ".csv":
        # Decoded as a person's spreadsheet program opens it; sent as written otherwise.
        read = read_csv(data, path)
        return DocumentInput(
            (Part("text", path.name, text=read.text),), "text", digest, None, choices=read.choices()
        )
    raise BadInput(f"{path}: cannot send a {suffix or 'suffix-less'} file")


def _pdf(path: Path, data: bytes, digest: str, mode: str, dpi: int = IMAGE_DPI) -> DocumentInput:
    import pypdfium2 as pdfium

    with stopping.PDFIUM:
        try:
            document = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as error:
            raise BadInput(f"{path}: not a readable PDF ({error})") from None
        try:
            count = len(document)
            if mode == "native":
                return DocumentInput((Part("pdf", path.name, data=data),), "native", digest, count)
            parts: list[Part] = []
            empty: list[int] = []
            for index in range(count):
                page = document[index]
                if mode == "text":
                    textpage = page.get_textpage()
                    text = textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n")
                    textpage.close()
                    if not text.strip():
                        empty.append(index + 1)
                    parts.append(
                        Part(
                            "text",
                            f"page {index + 1}",
                            text=f"[page {index + 1} of {count}]\n{text}",
                        )
                    )
                else:
                    image = page.render(scale=dpi / 72).to_pil()
                    buffer = io.BytesIO()
                    image.save(buffer, format="PNG")
                    parts.append(Part("png", f"page {index + 1}", data=buffer.getvalue()))
                page.close()
        finally:
            document.close()
    return DocumentInput(tuple(parts), mode, digest, count, image_only_pages=tuple(empty))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time() else value.isoformat()
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _workbook(path: Path, data: bytes, digest: str) -> DocumentInput:
    import openpyxl
    from openpyxl.utils import column_index_from_string

    try:
        safe_read.check_workbook(path, data)
    except safe_read.UnsafeFile as error:
        raise BadInput(str(error)) from None
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    except Exception as error:  # openpyxl raises many kinds on a damaged file
        raise BadInput(f"{path}: not a readable workbook ({error})") from None
    parts: list[Part] = []
    sheets: list[str] = []
    hidden: list[str] = []
    hidden_rows = hidden_columns = 0
    for sheet in book.worksheets:
        if sheet.sheet_state != "visible":
            hidden.append(sheet.title)
            continue
        rows_off = {i for i, d in sheet.row_dimensions.items() if d.hidden}
        columns_off: set[int] = set()
        for letter, dim in sheet.column_dimensions.items():
            if dim.hidden:
                first = column_index_from_string(letter)
                columns_off.update(range(dim.min or first, (dim.max or first) + 1))
        hidden_rows += len(rows_off)
        hidden_columns += len(columns_off)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
            if number in rows_off:
                continue
            cells = [_cell(v) for column, v in enumerate(row, start=1) if column not in columns_off]
            while cells and cells[-1] == "":
                cells.pop()
            writer.writerow(cells)
        sheets.append(sheet.title)
        parts.append(
            Part(
                "text",
                f"sheet {sheet.title}",
                text=f"[sheet {sheet.title!r}]\n{out.getvalue().rstrip()}",
            )
        )
    book.close()
    return DocumentInput(
        tuple(parts),
        "text",
        digest,
        None,
        tuple(sheets),
        tuple(hidden),
        hidden_rows,
        hidden_columns,
        {"formulas": "cached values"},
    )
