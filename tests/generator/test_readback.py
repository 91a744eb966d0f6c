"""Every field_truth location reads back, with an independent reader, as its rendered_as."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.files import read_json
from tests.support.paths import TIERS
from tests.support.readback import check_document, doc_ids


def _assert_reads_back(packet: Path) -> int:
    total = 0
    for doc_id in doc_ids(packet):
        checked, bad = check_document(packet, doc_id)
        assert not bad, (
            f"{packet.name}/{doc_id}: {len(bad)} of {checked} locations differ, first "
            f"{bad[0].path}: expected {bad[0].expected!r}, read {bad[0].got!r} at {bad[0].location}"
        )
        total += checked
    return total


@pytest.mark.slow
def test_canonical_suite_reads_back(canonical_packets: list[Path]) -> None:
    checked = sum(_assert_reads_back(packet) for packet in canonical_packets)
    assert checked > 10_000  # the suite is not trivially small


@pytest.mark.parametrize("tier", TIERS[:3])
@pytest.mark.parametrize("seed", [2, 3])
@pytest.mark.slow
def test_fresh_packets_read_back(
    fresh_packet_dir: Callable[[str, int], Path], tier: str, seed: int
) -> None:
    assert _assert_reads_back(fresh_packet_dir(tier, seed)) > 0


def test_every_pdf_page_count_matches_manifest(canonical_packets: list[Path]) -> None:
    import pypdfium2 as pdfium

    for packet in canonical_packets:
        for doc_id in doc_ids(packet):
            manifest = read_json(packet / f"manifest_{doc_id}.json")
            if manifest["format"] == "pdf":
                pdf = pdfium.PdfDocument(packet / manifest["file"])
                assert len(pdf) == manifest["pages"], f"{packet.name}/{doc_id}"
                pdf.close()


def test_readback_catches_a_moved_bbox(canonical_packets: list[Path], tmp_path: Path) -> None:
    """The check can fail: a bbox shifted off its text no longer reads back."""
    import json
    import shutil

    packet = tmp_path / canonical_packets[0].name
    shutil.copytree(canonical_packets[0], packet)
    doc_id = next(
        d for d in doc_ids(packet) if read_json(packet / f"manifest_{d}.json")["format"] == "pdf"
    )
    path = packet / f"field_truth_{doc_id}.json"
    data = json.loads(path.read_text())
    bbox = data["fields"][0]["locations"][0]["bbox"]
    data["fields"][0]["locations"][0]["bbox"] = [bbox[0], bbox[1] - 300, bbox[2], bbox[3] - 300]
    path.write_text(json.dumps(data))
    _, bad = check_document(packet, doc_id)
    assert [m.path for m in bad] == [data["fields"][0]["path"]]
