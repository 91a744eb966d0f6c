"""Box matching on hand-built boxes: IoU 0.49 fails, 0.51 passes, another page fails."""

from __future__ import annotations

import pytest

from packetbench.benchmark.grounding.boxes import (
    box_matches,
    iou,
    normalised_to_points,
    points_to_normalised,
)

TRUTH = (100.0, 200.0, 200.0, 210.0)  # 100 x 10 points


def _shifted(overlap: float) -> tuple[float, float, float, float]:
    """The truth box slid right so that its IoU with the truth is `overlap`: sliding by d
    leaves an intersection of (100 - d) * 10 and a union of (100 + d) * 10."""
    d = 100 * (1 - overlap) / (1 + overlap)
    return (100.0 + d, 200.0, 200.0 + d, 210.0)


def test_iou_of_hand_built_boxes() -> None:
    assert iou(TRUTH, TRUTH) == 1.0
    assert iou(TRUTH, (300.0, 200.0, 400.0, 210.0)) == 0.0
    assert iou(TRUTH, (100.0, 200.0, 150.0, 210.0)) == pytest.approx(0.5)
    assert iou(TRUTH, (200.0, 210.0, 100.0, 200.0)) == 1.0  # corners in either order
    assert iou((1.0, 1.0, 1.0, 1.0), (1.0, 1.0, 1.0, 1.0)) == 0.0  # points match nothing


def test_iou_049_fails_051_passes_and_another_page_fails() -> None:
    low, high = _shifted(0.49), _shifted(0.51)
    assert iou(TRUTH, low) == pytest.approx(0.49)
    assert iou(TRUTH, high) == pytest.approx(0.51)
    assert not box_matches(2, low, 2, TRUTH)
    assert box_matches(2, high, 2, TRUTH)
    assert not box_matches(1, TRUTH, 2, TRUTH)  # the very box, on the wrong page


def test_normalised_boxes_convert_to_points_and_back() -> None:
    width, height = 612.0, 792.0
    # the top left tenth of a letter page, as a model cites it
    points = normalised_to_points((0.0, 0.0, 0.1, 0.1), width, height)
    assert points == (0.0, 712.8, 61.2, 792.0)
    assert points_to_normalised(TRUTH, width, height) == pytest.approx(
        (100 / 612, 1 - 210 / 792, 200 / 612, 1 - 200 / 792)
    )
    back = normalised_to_points(points_to_normalised(TRUTH, width, height), width, height)
    assert back == TRUTH
