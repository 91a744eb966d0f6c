"""benchmarks/legibility_margin.py's table: boxes grouped by damage and by scan level, the
rule's illegible boxes that OCR read counted with their bound, the near-boundary ones apart."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from packetbench.reading import legibility
from tests.support.benchmarks import load_benchmark


def _margin() -> ModuleType:
    return load_benchmark("legibility_margin")


def test_the_table_counts_illegible_boxes_read_and_near_ones_apart() -> None:
    margin = _margin()
    quad = [0.0, 0.0, 10.0, 0.0, 10.0, 5.0, 0.0, 5.0]

    def box(kind: str, level: str, legible: bool, readable: bool, score: float = 1.0) -> Any:
        made = margin.Box("sov_pdf", 1, level, "x", "1200", quad, kind, 0.5)
        made.legible, made.readable, made.score = legible, readable, score
        return made

    boxes = [
        *(box("blot", "fax", False, False) for _ in range(2999)),
        box("blot", "fax", False, True),  # one illegible box OCR reads
        box("stain:coffee", "clean", False, False),
        box("cover", "clean", True, True, score=legibility.INTACT - 0.1),  # near, read
        box("smear", "clean", True, False),  # legible and far from the boundary
    ]
    table = margin._table(boxes)
    assert table["all"]["boxes"] == 3003 and table["all"]["illegible"] == 3001
    assert table["all"]["illegible_read"] == 1
    assert table["kind blot"]["illegible_read"] == 1
    assert 1 / 3000 < table["kind blot"]["illegible_read_upper_95"] < 0.002
    assert table["kind stain"]["illegible"] == table["stain coffee"]["illegible"] == 1
    assert (table["all"]["near"], table["all"]["near_read"]) == (1, 1)
    assert table["level clean"]["illegible_read_upper_95"] > 0.9  # one box bounds nothing
    assert table["kind smear"]["illegible_read_upper_95"] is None
    assert table["all"]["examples_read"][0]["kind"] == "blot"
    assert "kind blot" in margin._render(table)
