"""benchmarks/audit_sweep.py's per-tier table: the sums of its packets' rows."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from tests.support.benchmarks import load_benchmark


def _sweep() -> ModuleType:
    return load_benchmark("audit_sweep")


def _row(status: str, boxes: int, agreed: int, levels: dict[str, list[int]]) -> dict[str, Any]:
    return {
        "status": status,
        "findings": {},
        "illegible_boxes_unread": 3,
        "illegible_boxes_read": 0,
        "calibration": {
            "pages_judged": 5,
            "pages_sampled": 2,
            "boxes": boxes,
            "agreed": agreed,
            "problem": "" if status == "passed" else "the pixel rule disagrees",
        },
        "levels": levels,
        "recall": {"fax": [90, 100]},
        "cpu_generate": 1.0,
        "cpu_audit": 2.0,
    }


def test_the_tier_table_sums_its_packets() -> None:
    rows = [
        _row("passed", 200, 198, {"fax": [40, 41], "rotated": [7, 7]}),
        _row("not_verified", 146, 127, {"motion_blur": [81, 100]}),
    ]
    table = _sweep()._tier_table(rows)
    assert table["packets"] == 2 and table["status"] == {"passed": 1, "not_verified": 1}
    assert (table["calibration_boxes"], table["calibration_agreed"]) == (346, 325)
    assert table["calibration_rate"] == round(325 / 346, 4)
    assert table["calibration_levels"] == {
        "fax": [40, 41],
        "motion_blur": [81, 100],
        "rotated": [7, 7],
    }
    assert table["recall_levels"] == {"fax": [180, 200]}
    assert table["calibration_pages"] == 4 and table["packets_calibration_problem"] == 1
    assert table["illegible_boxes"] == 6 and table["illegible_boxes_read"] == 0


def test_a_text_layer_sweep_audits_and_a_crash_is_a_finding(tmp_path: Path) -> None:
    """`--text-layer` audits a real packet without OCR (what only OCR settles is not a
    finding), and a packet that does not generate is a `crash` row with its error, counted
    in its tier's table, where before it stopped the sweep after every other packet ran."""
    sweep = _sweep()
    row = sweep._one((tmp_path, "N1", 7, False, True))
    assert row["status"] == "passed" and row["findings"] == {}, row["first_findings"]
    assert not (tmp_path / "N1" / "N1-000007").exists()  # passed: not kept
    crashed = sweep._one((tmp_path, "N9", 7, False, True))
    assert crashed["status"] == "crashed" and crashed["findings"] == {"crash": 1}
    assert "N9" in crashed["first_findings"][0]["detail"]
    table = sweep._tier_table([row, crashed])
    assert table["packets_with_finding"] == 1 and table["findings"]["crash"]["packets"] == 1
