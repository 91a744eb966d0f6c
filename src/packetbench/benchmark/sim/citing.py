"""How the simulated extractor cites its values (`extract --provider sim --cite page|box`).

Per claim, one seeded draw: the page (cell) that shows the value (`right`), the page or row
after it, or before it at the end of the document (`off_by_one`), page 1 or the first cell
whatever the value (`first_page`, the default page ExtractBench's users report), or no
citation. A `right` box is the left part of the truth's box cut to a set IoU with it: `HIT_IOU` for
a share `box_hit` of them, `MISS_IOU` for the rest. A value the truth does not hold (a
fabricated one, an invented record) is cited to page 1 or the first cell, at the same rate
as a true one is cited at all. Every choice, and the citation verdict it must get, goes into
the ledger; the expected verdict follows from the places alone (which pages and cells hold
the value, the IoU of the boxes), so the scorer's verdicts are checked against it.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from packetbench.benchmark.grounding.boxes import Box, box_matches, points_to_normalised
from packetbench.benchmark.score.field_view import Claim

HIT_IOU = 0.7
MISS_IOU = 0.3
MADE_UP_BOX: Box = (0.1, 0.1, 0.3, 0.12)


@dataclass(frozen=True)
class Citing:
    right: float = 0.8
    off_by_one: float = 0.08
    first_page: float = 0.07  # the rest cite nothing
    box_hit: float = 0.85

    def describe(self) -> dict[str, float]:
        return {
            "right": self.right,
            "off_by_one": self.off_by_one,
            "first_page": self.first_page,
            "box_hit": self.box_hit,
            "hit_iou": HIT_IOU,
            "miss_iou": MISS_IOU,
        }


CITING = {
    "perfect": Citing(right=1.0, off_by_one=0.0, first_page=0.0, box_hit=1.0),
    "typical": Citing(),
    "sloppy": Citing(right=0.5, off_by_one=0.15, first_page=0.25, box_hit=0.5),
}


def shrunk(box: Box, overlap: float) -> Box:
    """The left part of `box` whose IoU with `box` is `overlap` (inside the box, so inside
    the page, however wide the box is)."""
    x0, y0, x1, y1 = box
    return (x0, y0, x0 + (x1 - x0) * overlap, y1)


_CELL = re.compile(r"^([A-Z]+)([0-9]+)$")


def _next_cell(cell: str) -> str:
    found = _CELL.match(cell)
    return f"{found.group(1)}{int(found.group(2)) + 1}" if found else "A1"


@dataclass
class Citer:
    """Cites the claims of one document and writes down what the scorer must conclude."""

    citing: Citing
    mode: str  # page or box
    fmt: str  # pdf, xlsx, csv
    sizes: list[tuple[float, float]]  # page sizes (PDF)
    places: dict[str, list[dict[str, Any]]]
    rng: random.Random
    evidence: list[dict[str, Any]] = field(default_factory=list)
    choices: list[dict[str, Any]] = field(default_factory=list)
    verdicts: Counter[str] = field(default_factory=Counter)
    supported: Counter[str] = field(default_factory=Counter)  # verdicts of right values

    def cite(self, claims: list[Claim]) -> None:
        first_sheet = next(
            (loc["sheet"] for locs in self.places.values() for loc in locs if "sheet" in loc),
            "Sheet1",
        )
        for claim in claims:
            source = claim.source or claim.path
            locations = self.places.get(claim.path, []) if claim.truth is not None else []
            roll = self.rng.random()
            c = self.citing
            if locations:
                choice = (
                    "right"
                    if roll < c.right
                    else "off_by_one"
                    if roll < c.right + c.off_by_one
                    else "first_page"
                    if roll < c.right + c.off_by_one + c.first_page
                    else "none"
                )
            else:
                choice = "first_page" if roll < c.right + c.off_by_one + c.first_page else "none"
            entry, verdict, overlap = self._place(choice, locations, first_sheet)
            if entry is None:
                choice, verdict = "none", "uncited"
            else:
                self.evidence.append({"path": source, **entry})
            self.choices.append(
                {"path": source, "truth_path": claim.path, "choice": choice, "iou": overlap}
            )
            self.verdicts[verdict] += 1
            if claim.supported:
                self.supported[verdict] += 1

    def _entry(self, **given: Any) -> dict[str, Any]:
        entry: dict[str, Any] = {"page": None}
        if self.mode == "box":
            entry |= dict.fromkeys(("x0", "y0", "x1", "y1"))
        entry |= {"sheet": None, "cell": None, "row": None, "column": None}
        return entry | given

    def _place(
        self, choice: str, locations: list[dict[str, Any]], first_sheet: str
    ) -> tuple[dict[str, Any] | None, str, float | None]:
        """(the evidence entry, the verdict it must get, the IoU it was drawn at)."""
        if choice == "none":
            return None, "uncited", None
        if self.fmt == "pdf":
            return self._page(choice, locations)
        if self.fmt == "xlsx":
            if locations:
                sheet, cell = locations[0]["sheet"], locations[0]["cell"]
                if choice == "off_by_one":
                    cell = _next_cell(cell)
                elif choice == "first_page":
                    cell = "A1"
            else:
                sheet, cell = first_sheet, "A1"
            hit = any((loc.get("sheet"), loc.get("cell")) == (sheet, cell) for loc in locations)
            return self._entry(sheet=sheet, cell=cell), "right_box" if hit else "wrong_place", None
        if locations:
            row, column = locations[0]["row"], locations[0]["column"]
            if choice == "off_by_one":
                row += 1
            elif choice == "first_page":
                row, column = 0, 0
        else:
            row, column = 0, 0
        hit = any((loc.get("row"), loc.get("column")) == (row, column) for loc in locations)
        return self._entry(row=row, column=column), "right_box" if hit else "wrong_place", None

    def _page(
        self, choice: str, locations: list[dict[str, Any]]
    ) -> tuple[dict[str, Any] | None, str, float | None]:
        pdf = [loc for loc in locations if "bbox" in loc]
        if not pdf:
            if locations or choice != "first_page":
                return None, "uncited", None
            entry = self._entry(page=1)
            if self.mode == "box":
                entry |= dict(zip(("x0", "y0", "x1", "y1"), MADE_UP_BOX, strict=True))
            return entry, "wrong_place", None
        first = pdf[0]
        truth: Box = tuple(first["bbox"])
        page, points, overlap = first["page"], truth, None
        if choice == "right":
            overlap = HIT_IOU if self.rng.random() < self.citing.box_hit else MISS_IOU
            points = shrunk(truth, overlap)
        elif choice == "off_by_one":
            page = page + 1 if page < len(self.sizes) else page - 1
            if page < 1:
                return None, "uncited", None
        else:
            page = 1
        entry = self._entry(page=page)
        if self.mode == "box":
            width, height = self.sizes[page - 1]
            box = points_to_normalised(points, width, height)
            entry |= dict(zip(("x0", "y0", "x1", "y1"), (round(v, 6) for v in box), strict=True))
        on_page = [loc for loc in pdf if loc["page"] == page]
        if not on_page:
            return entry, "wrong_place", overlap
        if self.mode == "box" and any(
            box_matches(page, points, page, tuple(loc["bbox"])) for loc in on_page
        ):
            return entry, "right_box", overlap
        return entry, "right_page", overlap
