"""Writing a packet: atomic placement and recovery after a killed writer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from packetbench.core.errors import UsageError
from packetbench.generator.packet import build_packet, recover, write_packet
from packetbench.generator.tiers import resolve


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_old_packet_of_a_dead_writer_is_restored(tmp_path: Path) -> None:
    write_packet(tmp_path, "N1", 1, resolve("N1"))
    packet = tmp_path / "N1-000001"
    moved = tmp_path / f".N1-000001.old-{_dead_pid()}"
    packet.rename(moved)  # as if --force died between its two renames
    recover(tmp_path, "N1-000001")
    assert packet.is_dir() and not moved.exists()
    assert (packet / "packet_truth.json").exists()


def test_partial_of_a_dead_writer_is_removed(tmp_path: Path) -> None:
    partial = tmp_path / f".N1-000001.partial-{_dead_pid()}"
    partial.mkdir()
    (partial / "half.pdf").write_bytes(b"%PDF-")
    with pytest.raises(UsageError):
        write_packet(tmp_path, "N1", 1, resolve("N1"))
        write_packet(tmp_path, "N1", 1, resolve("N1"))
    assert not partial.exists()


def test_a_live_writers_folders_are_left_alone(tmp_path: Path) -> None:
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) as live:
        try:
            partial = tmp_path / f".N1-000001.partial-{live.pid}"
            partial.mkdir()
            recover(tmp_path, "N1-000001")
            assert partial.exists()
        finally:
            live.kill()


@pytest.mark.slow
def test_documents_follow_the_lines() -> None:
    # Without the cap on documents, which may leave out one format of the driver schedule.
    names = {
        tier: set(build_packet(tier, 2, resolve(tier, {"documents.max": 0})).pages)
        for tier in ("N1", "N4")
    }
    assert "acord_140" in names["N1"] and "acord_160" in names["N1"]
    assert not {"acord_126", "acord_130", "acord_127", "driver_schedule_pdf"} & names["N1"]
    assert {
        "acord_126",
        "acord_127",
        "acord_129",
        "acord_130",
        "acord_137",
        "driver_schedule_pdf",
    } <= names["N4"]
    # The documents knob restricts a packet; the application's attachments then say so.
    knobs = resolve("N4", {"documents": ("acord_125", "acord_127")})
    built = build_packet("N4", 2, knobs)
    assert set(built.pages) == {"acord_125", "acord_127"}
    truth = json.loads(built.files["document_truth_acord_125.json"])["truth"]
    assert truth["attachments"]["driver_schedule"] == "No"
    assert json.loads(built.files["packet_truth.json"])["knobs"]["documents"] == [
        "acord_125",
        "acord_127",
    ]
