"""The corpus's rendered elements, layout boxes and pattern records in our contract's terms.

- rendered_universe: every element the corpus records as drawn (its ``doc.elements``), as
  ``{text, page}`` (PDF), ``{text, page, sheet, cell}`` (XLSX, page = the sheet's position) or
  ``{text, page, row, column}`` (CSV, 0-based like our CSV locations; the corpus counts from
  1); spreadsheet cells it marks ``hidden`` go under ``hidden``. Its other views (the flat
  ``strings`` list, the ``corrupted_view`` a broken text layer yields) are not what a reader
  sees and are not read.
- locations: its boxes are ``{page, x, y, width, height}`` with the origin at the top left of
  the page; ours are ``bbox [x0, y0, x1, y1]`` with the origin at the bottom left, so y flips
  against the page's height (read from the PDF). ``text_layer`` is false on a page a pattern
  rasterized or whose text layer it broke (TEXT_BREAKING, or any scan), so the audit reads it
  by OCR.
- manifests: each pattern applied keeps the corpus's id as ``reference`` and takes ours where
  one of ours names it as its reference (by id, else by its ``pNN`` number); ``corresponds``
  lists every one of ours that does.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from packetbench.generator.patterns.base import PATTERNS

TEXT_BREAKING = frozenset({"p28_broken_cmap", "p42_font_corrupt", "p56_handwritten"})
SCAN_PHASE = "scan_effects"
_NUMBERED = re.compile(r"^(p\d+)_")


def page_heights(pdf: Path) -> list[float]:
    import pypdfium2  # loaded only when a PDF is imported

    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return [float(document[i].get_height()) for i in range(len(document))]
    finally:
        document.close()


def page_count(path: Path, fmt: str, universe: dict[str, Any]) -> int:
    if fmt == "pdf":
        return len(page_heights(path))
    sheets = (universe.get("doc") or {}).get("sheets")
    return len(sheets) if fmt == "xlsx" and isinstance(sheets, list) else 1


def broken_pages(manifest: dict[str, Any], pages: int) -> set[int]:
    """Pages whose text layer does not carry what the page shows."""
    broken: set[int] = set()
    for applied in manifest.get("patterns_applied") or []:
        if applied.get("phase") != SCAN_PHASE and applied.get("id") not in TEXT_BREAKING:
            continue
        affected = [p for p in applied.get("pages_affected") or [] if isinstance(p, int)]
        broken.update(affected or range(1, pages + 1))
    return broken


class Locator:
    """Converts the corpus's top-left boxes of one PDF into our locations."""

    def __init__(self, heights: list[float], broken: set[int]) -> None:
        self.heights = heights
        self.broken = broken

    def __call__(self, boxes: list[Any]) -> list[dict[str, Any]]:
        found = []
        for box in boxes:
            if not isinstance(box, dict) or not isinstance(box.get("page"), int):
                continue
            page = box["page"]
            if not 1 <= page <= len(self.heights):
                continue
            height = self.heights[page - 1]
            x, y = float(box.get("x", 0)), float(box.get("y", 0))
            w, h = float(box.get("width", 0)), float(box.get("height", 0))
            found.append(
                {
                    "page": page,
                    "bbox": [
                        round(x, 2),
                        round(height - y - h, 2),
                        round(x + w, 2),
                        round(height - y, 2),
                    ],
                    "text_layer": page not in self.broken,
                }
            )
        return found


def no_locations(boxes: list[Any]) -> list[dict[str, Any]]:
    """Spreadsheets: the corpus locates their values by no box we can convert."""
    return []


def universe(
    doc_id: str,
    fmt: str,
    data: dict[str, Any],
    broken: set[int] | None = None,
) -> dict[str, Any]:
    """Our rendered_universe of one document from the corpus's; a string on a `broken` page
    is marked ``text_layer: false`` (the audit reads it by OCR)."""
    inner = data.get("doc") or {}
    sheets = {name: i + 1 for i, name in enumerate(inner.get("sheets") or [])}
    strings: list[dict[str, Any]] = []
    hidden: list[dict[str, Any]] = []
    for element in inner.get("elements") or []:
        value = element.get("value")
        if value is None or str(value).strip() == "":
            continue
        text = str(value)
        entry: dict[str, Any]
        if fmt == "xlsx":
            entry = {
                "text": text,
                "page": sheets.get(element.get("sheet"), 1),
                "sheet": element.get("sheet"),
                "cell": element.get("cell"),
            }
        elif fmt == "csv":
            entry = {
                "text": text,
                "page": 1,
                "row": int(element.get("csv_row", 1)) - 1,
                "column": int(element.get("csv_col", 1)) - 1,
            }
        else:
            entry = {"text": text, "page": element.get("page")}
            if broken and element.get("page") in broken:
                entry["text_layer"] = False
        (hidden if element.get("hidden") else strings).append(entry)
    return {"doc_id": doc_id, "strings": strings, "hidden": hidden}


@cache
def _ours() -> dict[str, tuple[str, ...]]:
    """Reference id (and its pNN number) -> our pattern ids naming it, sorted."""
    found: dict[str, set[str]] = {}
    for pattern in PATTERNS.values():
        if pattern.reference:
            found.setdefault(pattern.reference, set()).add(pattern.id)
            numbered = _NUMBERED.match(pattern.reference)
            if numbered:
                found.setdefault(numbered.group(1), set()).add(pattern.id)
    for pattern_id in PATTERNS:  # the scan levels share their names
        if pattern_id.startswith("scan."):
            found.setdefault("scan_" + pattern_id.split(".", 1)[1], set()).add(pattern_id)
    return {key: tuple(sorted(ids)) for key, ids in found.items()}


def corresponding(reference: str) -> tuple[str, ...]:
    ours = _ours()
    if reference in ours:
        return ours[reference]
    numbered = _NUMBERED.match(reference)
    return ours.get(numbered.group(1), ()) if numbered else ()


def patterns(manifest: dict[str, Any], pages: int) -> list[dict[str, Any]]:
    """Our patterns_applied of a corpus manifest. The phase is ours where a pattern of ours
    corresponds (a scan is "scan" to our audit) and the corpus's otherwise; a pattern that
    breaks the text layer without listing pages lists every page, as it affects them all."""
    applied = []
    for entry in manifest.get("patterns_applied") or []:
        reference = str(entry.get("id"))
        ours = corresponding(reference)
        affected = [p for p in entry.get("pages_affected") or [] if isinstance(p, int)]
        breaking = entry.get("phase") == SCAN_PHASE or reference in TEXT_BREAKING
        applied.append(
            {
                "id": ours[0] if len(ours) == 1 else f"nightmare.{reference}",
                "name": entry.get("name"),
                "family": ours[0].split(".", 1)[0] if len(ours) == 1 else "nightmare",
                "phase": PATTERNS[ours[0]].phase if ours else entry.get("phase"),
                "reference_phase": entry.get("phase"),
                "reference": reference,
                "corresponds": list(ours),
                "pages_affected": affected or (list(range(1, pages + 1)) if breaking else []),
                "targets": [],
                "ground_truth_delta": entry.get("ground_truth_delta") or {},
            }
        )
    return applied
