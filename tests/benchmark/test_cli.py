"""The real `packetbench` command in subprocesses: success, bad input, safety of what exists."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.files import file_digests as _tree_digest

Run = Callable[..., subprocess.CompletedProcess[str]]


def _one_line_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("packetbench: error: ")
    for needle in needles:
        assert needle in lines[0]


@pytest.mark.slow
def test_generate_writes_packets_in_seed_order(run_cli: Run, tmp_path: Path) -> None:
    result = run_cli(
        "generate", "--tiers", "N1", "--seed", "40", "--count", "3", "--out", str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "N1-000040",
        "N1-000041",
        "N1-000042",
        "corpus.json",
        "corpus.lock",
    ]
    lines = result.stdout.strip().splitlines()
    assert [line.split()[0] for line in lines[:3]] == [
        str(tmp_path / f"N1-0000{s}") for s in (40, 41, 42)
    ]
    documents = sum(int(line.split()[1]) for line in lines[:3])  # "<path>  13 documents, ..."
    assert documents >= 3 * 13 and lines[-2].startswith(f"wrote 3 packet(s), {documents} documents")
    assert lines[-1].startswith(f"corpus {tmp_path / 'corpus.json'}: 3 packet(s), digest ")


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--tiers", "N9"], ["unknown tier 'N9'", "N1, N2, N3, N4, N5"]),
        (["--tiers", "N1", "--count", "0"], ["--count must be at least 1"]),
        (["--tiers", "N1", "--seed", "-3"], ["--seed must be zero or positive"]),
        (["--tiers", "N1", "--jobs", "0"], ["--jobs must be at least 1"]),
        (["--tiers", "N1", "--set", "sov.rows=3"], ["unknown knob"]),
        (["--tiers", "N1", "--set", "sov.max_rows=many"], ["expected an integer"]),
        (["--tiers", "N1", "--set", "sov.min_rows=9"], ["sov.min_rows=9 exceeds sov.max_rows=5"]),
        (["--tiers", "N1", "--set", "documents=acord_999"], ["unknown document(s) acord_999"]),
        (["--tiers", "N1", "--set", "lines=property,hull"], ["unknown line(s) hull"]),
        (["--tiers", "N1", "--set", "lines=property,umbrella"], ["umbrella needs gl"]),
        (["--tiers", "N4", "--set", "lines=property,cargo"], ["cargo needs auto"]),
        (
            ["--tiers", "N1", "--set", "documents=acord_125,acord_130"],
            ["acord_130 needs line wc", "lines=property does not carry"],
        ),
    ],
)
@pytest.mark.slow
def test_bad_input_is_one_line_and_exit_2(
    run_cli: Run, tmp_path: Path, args: list[str], needles: list[str]
) -> None:
    out = tmp_path / "out"
    _one_line_error(run_cli("generate", *args, "--out", str(out)), *needles)
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.slow
def test_unwritable_folder_is_refused(run_cli: Run, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    _one_line_error(
        run_cli("generate", "--tiers", "N1", "--out", str(blocker / "packets")),
        str(blocker / "packets"),
        "cannot write packets here",
    )
    assert blocker.read_text() == "not a folder"


@pytest.mark.slow
def test_existing_packet_is_refused_and_untouched(run_cli: Run, tmp_path: Path) -> None:
    assert run_cli("generate", "--tiers", "N1", "--out", str(tmp_path)).returncode == 0
    before = _tree_digest(tmp_path)
    # Seeds 0..1: seed 0 is new, seed 1 exists; nothing at all may be written.
    result = run_cli(
        "generate", "--tiers", "N1", "--seed", "0", "--count", "2", "--out", str(tmp_path)
    )
    _one_line_error(result, str(tmp_path / "N1-000001"), "already exists", "--force")
    assert _tree_digest(tmp_path) == before


@pytest.mark.slow
def test_force_replaces_a_packet_completely(run_cli: Run, tmp_path: Path) -> None:
    assert run_cli("generate", "--tiers", "N1", "--out", str(tmp_path)).returncode == 0
    packet = tmp_path / "N1-000001"
    before = _tree_digest(packet)
    (packet / "sov_pdf.pdf").write_bytes(b"corrupted")
    (packet / "stray.txt").write_text("left over")
    result = run_cli("generate", "--tiers", "N1", "--out", str(tmp_path), "--force")
    assert result.returncode == 0, result.stderr
    assert _tree_digest(packet) == before
    # no partial folders remain
    assert sorted(p.name for p in tmp_path.iterdir()) == ["N1-000001", "corpus.json", "corpus.lock"]


def test_version(run_cli: Run) -> None:
    result = run_cli("--version")
    assert result.returncode == 0 and result.stdout.startswith("packetbench ")


@pytest.mark.slow
def test_generate_does_not_import_provider_sdks(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "import packetbench.cli\n"
        "from packetbench.generator.generation import generate\n"
        f"generate('N1', 1, 1, Path({str(tmp_path)!r}))\n"
        "loaded = [m for m in ('openai', 'anthropic', 'google.genai') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.e2e
def test_killed_writer_loses_nothing(run_cli: Run, tmp_path: Path) -> None:
    """SIGKILL while --force rewrites a packet: the old packet stays whole; a rerun cleans up."""
    import signal
    import time

    from tests.support.paths import cli_path

    assert run_cli("generate", "--tiers", "N4", "--out", str(tmp_path)).returncode == 0
    packet = tmp_path / "N4-000001"
    before = _tree_digest(packet)
    process = subprocess.Popen(
        [cli_path(), "generate", "--tiers", "N4", "--out", str(tmp_path), "--force"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".N4-000001.partial-*")) and time.monotonic() < deadline:
        if process.poll() is not None:
            break
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert _tree_digest(packet) == before
    result = run_cli("generate", "--tiers", "N4", "--out", str(tmp_path), "--force")
    assert result.returncode == 0, result.stderr
    assert _tree_digest(packet) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["N4-000001", "corpus.json", "corpus.lock"]
