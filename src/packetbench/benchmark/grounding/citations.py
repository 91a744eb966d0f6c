"""What a record keeps of a cited answer: each citation as given, and its conversion.

A model's evidence entry is kept as it came (page, the normalised box, sheet and cell, row
and column) beside its conversion to the truth's coordinates (`points`: the box in PDF
points, origin bottom left). An entry that cannot be used (a page the document does not
have, a box outside 0-1, a field of another format) keeps what it said and says why under
`problem`, so it is scored as a citation that supports nothing, not dropped.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

from packetbench.benchmark.grounding.boxes import normalised_to_points, valid_normalised
from packetbench.benchmark.grounding.schema import BOX_KEYS
from packetbench.core import safe_read, stopping

CELL = re.compile(r"^\$?([A-Za-z]{1,3})\$?([1-9][0-9]{0,6})$")


class Citation(BaseModel):
    """One value's evidence as recorded: the raw citation and its conversion."""

    model_config = ConfigDict(extra="forbid")

    path: str
    page: int | None = None
    box: list[float] | None = None  # as cited: x0, y0, x1, y1 in 0-1, origin top left
    points: list[float] | None = None  # converted: PDF points, origin bottom left
    sheet: str | None = None
    cell: str | None = None
    row: int | None = None
    column: int | None = None
    problem: str | None = None  # why the citation cannot support a value
    quote: str | None = None  # --cite native: the text the provider cited

    @model_serializer(mode="wrap")
    def _without_absent_quote(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Records of --cite page|box runs stay what they were before native citations.
        data: dict[str, Any] = handler(self)
        if data.get("quote") is None:
            data.pop("quote", None)
        return data


def page_sizes(path: Path) -> list[tuple[float, float]]:
    """Width and height in points of every page of the PDF at `path`."""
    import pypdfium2 as pdfium

    data = safe_read.read_bytes(path, "document")
    with stopping.PDFIUM:
        document = pdfium.PdfDocument(data)
        try:
            return [document[i].get_size() for i in range(len(document))]
        finally:
            document.close()


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def _pdf(entry: dict[str, Any], sizes: list[tuple[float, float]], mode: str) -> Citation:
    path = str(entry.get("path"))
    page = _int(entry.get("page"))
    if page is None:
        return Citation(path=path, problem="no page")
    if not 1 <= page <= len(sizes):
        return Citation(path=path, page=page, problem=f"page {page} of {len(sizes)}")
    if mode != "box":
        return Citation(path=path, page=page)
    edges = [_number(entry.get(key)) for key in BOX_KEYS]
    if any(v is None for v in edges):
        return Citation(path=path, page=page, problem="no box")
    box = (edges[0] or 0.0, edges[1] or 0.0, edges[2] or 0.0, edges[3] or 0.0)
    if not valid_normalised(box):
        return Citation(path=path, page=page, box=list(box), problem="box outside 0-1 or empty")
    width, height = sizes[page - 1]
    return Citation(
        path=path, page=page, box=list(box), points=list(normalised_to_points(box, width, height))
    )


def _sheet(entry: dict[str, Any]) -> Citation:
    path = str(entry.get("path"))
    sheet, cell = entry.get("sheet"), entry.get("cell")
    if not isinstance(sheet, str) or not isinstance(cell, str):
        return Citation(path=path, problem="no sheet and cell")
    found = CELL.match(cell.strip())
    if found is None:
        return Citation(path=path, sheet=sheet, cell=cell, problem="not an A1 cell")
    return Citation(path=path, sheet=sheet, cell=f"{found.group(1).upper()}{found.group(2)}")


def _csv(entry: dict[str, Any]) -> Citation:
    path = str(entry.get("path"))
    row, column = _int(entry.get("row")), _int(entry.get("column"))
    if row is None or column is None or row < 0 or column < 0:
        return Citation(path=path, row=row, column=column, problem="no row and column")
    return Citation(path=path, row=row, column=column)


def convert(entries: Any, fmt: str, mode: str, file: Path | None) -> list[Citation]:
    """The record's citations of a document of format `fmt` (pdf, xlsx, csv) from a cited
    answer's evidence list. The first entry of a path counts; later ones are dropped (one
    citation per value). `file` is the PDF whose page sizes convert boxes."""
    if not isinstance(entries, list):
        return []
    sizes = page_sizes(file) if fmt == "pdf" and file is not None else []
    found: dict[str, Citation] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
            continue
        if entry["path"] in found:
            continue
        if fmt == "pdf":
            found[entry["path"]] = _pdf(entry, sizes, mode)
        elif fmt == "xlsx":
            found[entry["path"]] = _sheet(entry)
        else:
            found[entry["path"]] = _csv(entry)
    return list(found.values())
