"""The citation verdict of one claim, from its citation and the truth's locations of its path.

`uncited`: the value has no usable citation. `wrong_place`: it cites a page (a cell) where
the truth does not show the value at its path (every citation of a value the truth lacks
lands here). `right_page`: a page that shows it, with no box or a box under IoU 0.5 with
every truth box on that page. `right_box`: a box with IoU >= 0.5 with a truth box on that
page, or the very cell (sheet and cell, row and column) the truth names. Whether the
citation supports the claim also needs the value to be right: the metrics nest value >=
page >= box (`metrics/grounding.sql`).
"""

from __future__ import annotations

from typing import Any

from packetbench.benchmark.grounding.boxes import Box, box_matches
from packetbench.benchmark.grounding.citations import Citation

CITED_PLACES: tuple[str, ...] = ("uncited", "wrong_place", "right_page", "right_box")


def _box(values: list[float]) -> Box:
    x0, y0, x1, y1 = values
    return (x0, y0, x1, y1)


def usable(citation: Citation | None) -> bool:
    """Whether a citation names a place (a page, a cell, a row and column) at all."""
    if citation is None:
        return False
    return (
        citation.page is not None
        or (citation.sheet is not None and citation.cell is not None)
        or (citation.row is not None and citation.column is not None)
    )


def cited_place(citation: Citation | None, locations: list[dict[str, Any]]) -> str:
    """The verdict of `citation` against `locations` (a field_truth entry's locations)."""
    if not usable(citation):
        return "uncited"
    assert citation is not None
    if citation.page is not None:
        pages = [loc for loc in locations if loc.get("page") == citation.page and "bbox" in loc]
        if not pages:
            return "wrong_place"
        if citation.points is not None and any(
            box_matches(citation.page, _box(citation.points), loc["page"], _box(loc["bbox"]))
            for loc in pages
        ):
            return "right_box"
        return "right_page"
    if citation.sheet is not None:
        cell = (citation.sheet, citation.cell)
        hit = any((loc.get("sheet"), loc.get("cell")) == cell for loc in locations)
    else:
        place = (citation.row, citation.column)
        hit = any((loc.get("row"), loc.get("column")) == place for loc in locations)
    return "right_box" if hit else "wrong_place"
