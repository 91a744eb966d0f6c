"""The viewer remembers the hashes of a run's records and packet_truth.json files, and each
packet's listing, in its cache (`core.memo`): opened again, an unchanged run reads none of
them; a file written since is read again whatever its modification time says."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.viewer.source import open_run
from packetbench.core import memo, safe_read
from packetbench.core.errors import BadInput
from tests.support.small_runs import PACKET, small_run


@pytest.fixture
def scored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A scored small run of a copy of the canonical N1 packet, every file of it settled
    (remembered at once, as files older than `memo.SETTLED` are)."""
    packet = tmp_path / "packets" / PACKET.name
    shutil.copytree(PACKET, packet)
    run = small_run(tmp_path / "run", packet=packet)
    monkeypatch.setattr(memo, "SETTLED", 0.0)
    return run, packet


def _hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files safe_read hashes from now on, by name."""
    seen: list[str] = []
    hash_file = safe_read.sha256

    def counted(path: Path, kind: str) -> str:
        seen.append(path.name)
        return hash_file(path, kind)

    monkeypatch.setattr(safe_read, "sha256", counted)
    return seen


def test_an_unchanged_run_is_not_read_again(
    scored: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, packet = scored
    cache = tmp_path / "cache"
    seen = _hashed(monkeypatch)
    first = open_run(run, packet.parent, check_files=False, cache=cache)
    first.close()
    assert sorted(set(seen)) == ["acord_125.json", "packet_truth.json", "sov_pdf.json"]
    seen.clear()
    again = open_run(run, packet.parent, check_files=False, cache=cache)
    try:
        assert seen == []
        assert [d.doc_id for _, d in again.documents] == [d.doc_id for _, d in first.documents]
    finally:
        again.close()


def test_a_record_rewritten_with_its_old_size_and_time_is_refused(
    scored: tuple[Path, Path], tmp_path: Path
) -> None:
    """A record edited after scoring, same size, its modification time set back: its change
    time moved, so it is hashed again and the scores are refused as `score` refuses them."""
    run, packet = scored
    cache = tmp_path / "cache"
    open_run(run, packet.parent, check_files=False, cache=cache).close()
    record = next((run / "extractions").rglob("acord_125.json"))
    before = record.stat()
    data = record.read_bytes()
    assert b'"attempts":1' in data.replace(b" ", b"")
    record.write_bytes(data.replace(b'"attempts": 1', b'"attempts": 2'))
    os.utime(record, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert record.stat().st_size == before.st_size
    with pytest.raises(BadInput, match="extraction records changed since it was scored"):
        open_run(run, packet.parent, check_files=False, cache=cache)


def test_a_regenerated_packet_is_refused_and_a_spoilt_cache_ignored(
    scored: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run, packet = scored
    cache = tmp_path / "cache"
    open_run(run, packet.parent, check_files=False, cache=cache).close()
    (stored,) = (cache / "known").iterdir()
    stored.write_bytes(b'{"version": 1, "hashes": {"x": [1]}, "listings": []}')
    seen = _hashed(monkeypatch)
    open_run(run, packet.parent, check_files=False, cache=cache).close()
    assert "packet_truth.json" in seen  # nothing usable kept: read again
    truth = packet / "packet_truth.json"
    truth.write_bytes(truth.read_bytes().replace(b'"seed": 1,', b'"seed": 2,'))
    with pytest.raises(BadInput, match=r"packet_truth\.json: not the packet .* sha256 differs"):
        open_run(run, packet.parent, check_files=False, cache=cache)


def test_a_file_changed_within_the_clock_s_reach_is_not_remembered(
    scored: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file written less than `SETTLED` seconds before it is hashed might be written again
    within the same clock tick and read the same times: it is hashed again next time."""
    run, packet = scored
    monkeypatch.setattr(memo, "SETTLED", 3600.0)
    cache = tmp_path / "cache"
    open_run(run, packet.parent, check_files=False, cache=cache).close()
    seen = _hashed(monkeypatch)
    open_run(run, packet.parent, check_files=False, cache=cache).close()
    assert "packet_truth.json" in seen and "acord_125.json" in seen


def _check_all(run: Path, packet: Path, cache: Path) -> dict[str, object]:
    """Open the run as the viewer does and let its background check of every document end."""
    from packetbench.benchmark.viewer.checks import Checks

    source = open_run(run, packet.parent, check_files=False, cache=cache)
    checks = Checks(source)
    try:
        checks.start()
        deadline = time.monotonic() + 60
        while not checks.summary()["done"]:
            assert time.monotonic() < deadline, "the check never ended"
            time.sleep(0.02)
        return checks.summary()
    finally:
        checks.stop()
        source.close()


def test_the_documents_checked_are_not_read_again_until_one_changes(
    scored: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The background check of every document keeps its hashes in the cache: opened again,
    the unchanged run's documents are checked by their inodes, none read; a document file
    rewritten since (same size, its modification time set back) is read again and refused."""
    run, packet = scored
    cache = tmp_path / "cache"
    seen = _hashed(monkeypatch)
    first = _check_all(run, packet, cache)
    assert first["refused"] == 0 and "sov_pdf.pdf" in seen
    seen.clear()
    again = _check_all(run, packet, cache)
    assert again["refused"] == 0 and again["checked"] == first["checked"]
    assert seen == []
    document = packet / "sov_pdf.pdf"
    before = document.stat()
    data = bytearray(document.read_bytes())
    data[-2] = ord("x") if data[-2] != ord("x") else ord("y")  # within the file, same size
    document.write_bytes(bytes(data))
    os.utime(document, ns=(before.st_atime_ns, before.st_mtime_ns))
    changed = _check_all(run, packet, cache)
    assert seen == ["sov_pdf.pdf"]
    assert changed["refused"] == 1, changed


def _counted_overviews(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the runs whose overview is computed from now on."""
    from packetbench.benchmark.viewer import overview as overviews

    computed: list[str] = []
    compute = overviews.overview

    def counted(source: Any) -> dict[str, Any]:
        computed.append(source.name)
        return compute(source)

    monkeypatch.setattr(overviews, "overview", counted)
    return computed


def test_a_scored_runs_overview_is_kept_until_the_run_is_scored_again(
    scored: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The viewer computes a scored run's overview (its intervals and slices) once: started
    again on the same cache it answers the kept one, the same bytes, without computing it;
    a results database replaced since, or a kept file spoilt, is computed again."""
    from packetbench.benchmark.viewer.app import Viewer, to_json
    from packetbench.benchmark.viewer.pages import Pages

    run, packet = scored
    cache = tmp_path / "cache"
    computed = _counted_overviews(monkeypatch)

    def shown() -> bytes:
        viewer = Viewer(
            [open_run(run, packet.parent, check_files=False, cache=cache)], Pages(cache)
        )
        try:
            viewer.listed.set()
            return to_json(viewer.overview(0))
        finally:
            viewer.close()

    first = shown()
    assert len(computed) == 1 and b'"headline":[{' in first
    assert shown() == first and len(computed) == 1
    db = run / "results.duckdb"
    stat = db.stat()
    os.utime(db, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert shown() == first and len(computed) == 2
    kept = sorted((cache / "overview").iterdir())
    assert len(kept) == 2  # one for each results database
    for path in kept:
        path.write_bytes(b'{"format": "packetbench-view-overview 1", "overview": {"headline": 3}}')
    assert shown() == first and len(computed) == 3
    assert shown() == first and len(computed) == 3


def test_an_export_uses_the_kept_overview(
    scored: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`view --out` computes a scored run's overview once per cache, as the viewer does:
    exported again (or after the viewer kept it) it writes the same overview, uncomputed."""
    from packetbench.benchmark.viewer.export import export
    from packetbench.benchmark.viewer.pages import Pages

    run, packet = scored
    cache = tmp_path / "cache"
    computed = _counted_overviews(monkeypatch)

    def exported(out: Path) -> bytes:
        source = open_run(run, packet.parent, check_files=False, cache=cache)
        export([source], Pages(cache), out)
        return (out / "data" / "run-0-overview.js").read_bytes()

    first = exported(tmp_path / "one")
    assert len(computed) == 1 and b'"headline": [{' in first
    assert exported(tmp_path / "two") == first and len(computed) == 1
    for path in (cache / "overview").iterdir():
        path.write_bytes(b"{")  # spoilt: computed again, the same
    assert exported(tmp_path / "three") == first and len(computed) == 2


def test_a_signal_while_the_kept_overview_is_looked_up_stops_it_quietly(
    scored: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept overview is looked up by a query on the run's results, in the overview's
    thread: a signal's interrupt of that query (SIGTERM to `view` just after it starts)
    reaches the request as Stopping (a 503), never as a traceback from the thread; another
    error reaches it as itself."""
    import duckdb

    from packetbench.benchmark.viewer import overview as overviews
    from packetbench.benchmark.viewer.app import Stopping, Viewer
    from packetbench.benchmark.viewer.pages import Pages

    run, packet = scored
    raised: list[BaseException] = [duckdb.InterruptException("INTERRUPT Error: Interrupted!")]

    def interrupted(source: Any, cache: Path) -> dict[str, Any] | None:
        raise raised[0]

    monkeypatch.setattr(overviews, "kept", interrupted)
    thread_errors: list[Any] = []
    monkeypatch.setattr("threading.excepthook", thread_errors.append)
    for error, expected in ((raised[0], Stopping), (RuntimeError("disk"), RuntimeError)):
        raised[0] = error
        viewer = Viewer(
            [open_run(run, packet.parent, check_files=False, cache=tmp_path / "c")],
            Pages(tmp_path / "c"),
        )
        try:
            with pytest.raises(expected):
                viewer._overviews[0].result(timeout=60)  # unanswered, it would wait forever
        finally:
            viewer.close()
    assert not thread_errors
