"""A disk that fills up while `packetbench score` writes: one line, exit 1, and nothing half
written left as if complete (a run's scores and its results.duckdb agree, or are absent).

The run lives on a small tmpfs mounted in a user and mount namespace of its own (`unshare
-rm`), so the writes really fail with ENOSPC; the test skips where namespaces are not allowed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from tests.support.disks import namespaces as _namespaces
from tests.support.paths import PACKETS, cli_path

SCORES = {
    "claims.parquet",
    "consistency.json",
    "documents.parquet",
    "field_breakdown.json",
    "fields.parquet",
    "hallucination.json",
}


pytestmark = pytest.mark.skipif(not _namespaces(), reason="no user and mount namespaces")


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("source") / "run"
    extract(SimProvider("typical", 1), PACKETS / "N1-000001", run)
    return run


def _score_on_a_small_disk(extracted: Path, where: Path, free_kb: int) -> tuple[int, str]:
    """Score a copy of the run on a tmpfs with `free_kb` KiB free after the copy; return the
    exit code and stderr, and leave the disk's files copied to `where` for inspection."""
    used = sum(p.stat().st_size for p in extracted.rglob("*") if p.is_file()) // 1024
    files = sum(1 for _ in extracted.rglob("*"))
    size = used + files * 4 + free_kb  # tmpfs takes a page per small file
    mount = where / "disk"
    mount.mkdir()
    script = (
        f"mount -t tmpfs -o size={size}k tmpfs {mount} && cp -r {extracted} {mount}/run && "
        f"{cli_path()} score {mount}/run --packets {PACKETS / 'N1-000001'}; code=$?; "
        f"cp -r {mount}/run {where}/after; exit $code"
    )
    result = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, check=False
    )
    return result.returncode, result.stderr


@pytest.mark.parametrize(
    ("free_kb", "fails_at", "scores"),
    [(150, "scores/", set()), (1200, "results.duckdb", SCORES)],
    ids=["while the Parquet files are written", "while results.duckdb is written"],
)
def test_a_full_disk_is_one_line_and_leaves_nothing_half_written(
    extracted: Path, tmp_path: Path, free_kb: int, fails_at: str, scores: set[str]
) -> None:
    code, stderr = _score_on_a_small_disk(extracted, tmp_path, free_kb)
    assert code == 1, stderr
    (line,) = stderr.splitlines()
    assert line.startswith("packetbench: error: ") and fails_at in line, line
    assert "cannot write (No space left on device)" in line
    after = tmp_path / "after"
    assert {p.name for p in after.iterdir()} == {
        "extractions",
        "run.json",
        "sim_injections.json",
    } | ({"scores"} if scores else set())  # no results.duckdb, no scratch folder left behind
    if scores:
        assert {p.name for p in (after / "scores").iterdir()} == scores
