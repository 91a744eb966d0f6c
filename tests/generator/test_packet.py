"""Writing a packet: atomic placement and recovery after a killed writer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator.errors import UsageError
from generator.packet import recover, write_packet
from generator.tiers import resolve


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
