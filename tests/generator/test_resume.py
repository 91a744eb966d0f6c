"""`generate --resume`: an interrupted batch is continued, byte-identical to one that ran
through; a killed `generate --jobs 2` leaves no worker behind."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.generator.generation import generate
from tests.support.files import tree_digests as _tree
from tests.support.paths import cli_path
from tests.support.processes import children, wait_until_gone

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """N3 seeds 1..6 written by an uninterrupted run."""
    out = tmp_path_factory.mktemp("reference")
    generate("N3", 1, 6, out)
    return out


@pytest.mark.e2e
def test_kill_9_with_two_jobs_leaves_no_worker_and_resume_completes(
    run_cli: Run, reference: Path, tmp_path: Path
) -> None:
    out = tmp_path / "packets"
    # A new session: the command and every process it starts share one process group.
    process = subprocess.Popen(
        [cli_path(), "generate", "--tiers", "N3", "--count", "6", "--jobs", "2", "--out", str(out)],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while not (len(children(process.pid)) >= 2 and any(out.glob("N3-*"))):
        assert process.poll() is None, "generate ended before it was killed"
        assert time.monotonic() < deadline, "generate never got going"
        time.sleep(0.005)
    workers = children(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    assert wait_until_gone(process.pid) == [], f"workers {workers} outlived their parent"
    done = sorted(p.name for p in out.glob("N3-*"))
    assert 1 <= len(done) < 6, done  # killed mid-way

    result = run_cli(
        "generate", "--tiers", "N3", "--count", "6", "--jobs", "2", "--out", str(out), "--resume"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    kept = [line for line in lines if line.endswith("(complete, kept)")]
    assert [line.split()[0] for line in kept] == [str(out / name) for name in done]
    assert lines[-2].startswith(f"wrote {6 - len(done)} packet(s)")
    assert f"; kept {len(done)} complete packet(s) in " in lines[-2]
    # The corpus a resumed batch leaves is the one an uninterrupted batch leaves.
    assert lines[-1] == f"corpus {out / 'corpus.json'}: 6 packet(s), digest " + _digest(reference)
    assert _tree(out) == _tree(reference)  # no partial folder left, every byte as uninterrupted


def _digest(folder: Path) -> str:
    return str(json.loads((folder / "corpus.json").read_text(encoding="utf-8"))["digest"])


def _dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


@pytest.mark.slow
def test_resume_rewrites_exactly_the_broken_packets(
    run_cli: Run, reference: Path, tmp_path: Path
) -> None:
    out = tmp_path / "packets"
    generate("N3", 1, 5, out)  # seed 6 is missing altogether
    (out / "N3-000001" / "sov_pdf.pdf").write_bytes(b"%PDF-1.4 truncated")
    (out / "N3-000002" / "field_truth_loss_run_csv.json").write_bytes(b'{"doc_id": "lo')
    (out / "N3-000003" / "manifest_acord_140.json").unlink()
    (out / "N3-000004" / "notes.txt").write_text("not part of a packet")
    half = out / f".N3-000006.partial-{_dead_pid()}"  # a writer killed mid-packet
    half.mkdir()
    (half / "acord_125.pdf").write_bytes(b"%PDF-")
    result = run_cli("generate", "--tiers", "N3", "--count", "6", "--out", str(out), "--resume")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[4] == f"{out / 'N3-000005'}  {lines[4].split('  ')[1]}  (complete, kept)"
    assert not any("kept" in line for line in lines[:4] + lines[5:6])
    assert lines[-2].startswith("wrote 5 packet(s)")
    assert "; kept 1 complete packet(s) in " in lines[-2]
    assert _tree(out) == _tree(reference)


@pytest.mark.slow
def test_resume_refuses_packets_made_with_other_settings(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "packets"
    generate("N1", 1, 1, out, overrides={"sov.max_rows": 2})
    before = _tree(out)
    result = run_cli("generate", "--tiers", "N1", "--out", str(out), "--resume")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"packetbench: error: {out / 'N1-000001'}: made with other settings (knobs differs) "
        "than this run asks for; --resume keeps only packets it would write itself (use "
        "--force to replace it)"
    ]
    assert _tree(out) == before
    both = run_cli("generate", "--tiers", "N1", "--out", str(out), "--resume", "--force")
    assert both.returncode == 2 and "choose one" in both.stderr
    assert _tree(out) == before


@pytest.mark.slow
def test_a_file_where_the_packet_belongs_is_refused_even_with_force(
    run_cli: Run, tmp_path: Path
) -> None:
    (tmp_path / "N1-000001").write_text("my notes")
    for extra in ([], ["--force"], ["--resume"]):
        result = run_cli("generate", "--tiers", "N1", "--out", str(tmp_path), *extra)
        assert result.returncode == 2, result.stderr
        assert result.stderr.splitlines() == [
            f"packetbench: error: {tmp_path / 'N1-000001'}: exists and is not a packet folder "
            "(move it away first)"
        ]
        assert [p.name for p in tmp_path.iterdir()] == ["N1-000001"]  # no .old-PID debris
        assert (tmp_path / "N1-000001").read_text() == "my notes"


@pytest.mark.parametrize(
    ("seed", "count", "needle"),
    [
        (str(2**70), "1", f"reach seed {2**70}, above the largest seed {2**63 - 1}"),
        (str(2**63 - 1), "2", f"reach seed {2**63}, above the largest seed"),
        ("-1", "1", "--seed must be zero or positive (got -1)"),
    ],
)
def test_seeds_out_of_range_are_one_line(
    run_cli: Run, tmp_path: Path, seed: str, count: str, needle: str
) -> None:
    result = run_cli(
        "generate",
        "--tiers",
        "N1",
        "--seed",
        seed,
        "--count",
        count,
        "--out",
        str(tmp_path / "out"),
    )
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and needle in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()
