"""Scored sim runs of one canonical packet for the viewer, made once per session; the
browser the viewer's browser tests need."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from tests.support.chromium import chromium
from tests.support.corpus_fixture import write_corpus
from tests.support.paths import PACKETS, cli_path
from tests.support.viewer import HOSTILE, HOSTILE_DOCUMENT, HOSTILE_PATHS, put, serving


@pytest.fixture(scope="module")
def browser() -> None:
    """Headless Chromium is installed (else the test is skipped, or fails when
    PACKETBENCH_REQUIRE_BROWSER is set)."""
    if chromium() is None:
        if os.environ.get("PACKETBENCH_REQUIRE_BROWSER"):
            pytest.fail("PACKETBENCH_REQUIRE_BROWSER is set but chromium is not installed")
        pytest.skip("chromium is not installed (Debian package `chromium`)")


@pytest.fixture(scope="session")
def viewer_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(packets, a sloppy run, a typical run) of the canonical N3 packet (PDFs with scans,
    a redaction and hidden text; workbooks; CSV exports), both scored."""
    root = tmp_path_factory.mktemp("viewer")
    packets = root / "packets"
    packets.mkdir()
    (packets / "N3-000001").symlink_to(PACKETS / "N3-000001")
    runs = []
    for profile, seed in (("sloppy", 1), ("typical", 2)):
        folder = root / f"{profile}-{seed}"
        extract(SimProvider(profile, seed), packets, folder)
        score_run(folder, packets)
        load_run(folder, packets)
        runs.append(folder)
    return packets, runs[0], runs[1]


@pytest.fixture
def served(viewer_runs: tuple[Path, Path, Path], tmp_path: Path) -> Iterator[str]:
    """The URL of `packetbench view RUN RUN2` (the sloppy and the typical run) running as
    its own process."""
    packets, sloppy, typical = viewer_runs
    with serving(
        str(sloppy), str(typical), "--packets", str(packets), "--cache", str(tmp_path / "cache")
    ) as url:
        yield url


@pytest.fixture(scope="module")
def imported_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The gpt55 cohort of the small corpus in the reference's format, as `packetbench import
    nightmare` writes it (not scored: its run.json names its packets relative to itself)."""
    root = tmp_path_factory.mktemp("imported")
    corpus = write_corpus(root / "corpus")
    done = subprocess.run(
        [cli_path(), "import", "nightmare", str(corpus), "--out", str(root / "out")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return root / "out" / "runs" / "gpt55"


@pytest.fixture(scope="module")
def hostile_run(
    viewer_runs: tuple[Path, Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The sloppy run with markup for a run name and a model name, and as the values of two
    leaves of one document's output, scored again."""
    packets, sloppy, _ = viewer_runs
    run = Path(shutil.copytree(sloppy, tmp_path_factory.mktemp("hostile") / "run"))
    info = json.loads((run / "run.json").read_text(encoding="utf-8"))
    info.update(run_id=f"run {HOSTILE[0]}", model=f"model {HOSTILE[1]}")
    (run / "run.json").write_text(json.dumps(info), encoding="utf-8")
    record_file = run / "extractions" / "N3-000001" / f"{HOSTILE_DOCUMENT}.json"
    record = json.loads(record_file.read_text(encoding="utf-8"))
    for path, value in zip(HOSTILE_PATHS, HOSTILE, strict=True):
        put(record["output"], path, value)
    record_file.write_text(json.dumps(record), encoding="utf-8")
    shutil.rmtree(run / "scores")
    (run / "results.duckdb").unlink()
    score_run(run, packets)
    load_run(run, packets)
    return run
