"""The lines a newcomer reads after `audit`, `run` and `extract`: what passed, what was not
checked and the command that checks it; records counted as `score` will count them (real
commands on a small packet whose ACORD 125 is scanned, so that its values need OCR)."""

from __future__ import annotations

import re
import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.ocr import needs_tesseract
from tests.support.paths import PACKETS

Cli = Callable[..., subprocess.CompletedProcess[str]]
# One N1 packet of two documents, its ACORD 125 a clean scan (no text layer) and its
# statement of values a workbook: part of it only OCR reads, part of it any reader.
SCANNED = (
    "--tiers",
    "N1",
    "--set",
    "documents=acord_125,sov_excel",
    "--set",
    "patterns.scan.clean=1",
)


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory, run_cli: Cli) -> Path:
    folder = tmp_path_factory.mktemp("summaries") / "bench"
    made = run_cli("generate", *SCANNED, "--out", str(folder))
    assert made.returncode == 0, made.stderr
    return folder


def _not_checked(line: str) -> tuple[int, int, str]:
    """(values, strings, the command that checks them) of a "not checked:" line."""
    found = re.fullmatch(
        r"not checked: ([\d,]+) located values and ([\d,]+) visible strings (?:in 1 "
        r"document\(s\), )?on pages only OCR reads \(scans, ink, attacked text\); to check "
        r"them: (packetbench audit --ocr .+)",
        line,
    )
    assert found, line
    return (
        int(found.group(1).replace(",", "")),
        int(found.group(2).replace(",", "")),
        found.group(3),
    )


def test_audit_says_what_passed_what_was_not_checked_and_how_to_check_it(
    run_cli: Cli, scanned: Path
) -> None:
    result = run_cli("audit", "--packets", str(scanned), env={"COLUMNS": "300"})
    assert result.returncode == 3, result.stdout[-2000:] + result.stderr
    *_, passed, unchecked, verdict = result.stdout.splitlines()
    assert passed.startswith("audit passed for what it read: "), passed
    assert passed.endswith(" found in 1 packet(s), 2 documents, 3 PDF pages"), passed
    values, strings, command = _not_checked(unchecked)
    assert command == f"packetbench audit --ocr --packets {shlex.quote(str(scanned))}"
    assert (
        verdict == "audit not verified (exit 3): nothing is wrong, but not everything was checked"
    )
    # the counts are the audit's own, as its JSON gives them
    import json

    totals = json.loads(run_cli("audit", "--packets", str(scanned), "--json").stdout)["totals"]
    assert (values, strings) == (totals["fields_not_checked"], totals["strings_not_checked"])
    assert values > 100 and totals["fields_found"] == totals["fields_checked"] > 0


@pytest.mark.slow
@needs_tesseract
def test_the_command_it_names_checks_what_it_did_not(run_cli: Cli, scanned: Path) -> None:
    said = run_cli("audit", "--packets", str(scanned), env={"COLUMNS": "300"}).stdout
    _, _, command = _not_checked(said.splitlines()[-2])
    words = shlex.split(command)
    assert words[0] == "packetbench"
    result = run_cli(*words[1:])
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert result.stdout.splitlines()[-1].startswith("audit passed: ")


@pytest.mark.slow
def test_run_says_the_same_on_its_audit_line(run_cli: Cli, tmp_path: Path) -> None:
    result = run_cli("run", *SCANNED, "--out", "bench", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    audit = next(i for i, line in enumerate(lines) if line.startswith("audit "))
    assert re.fullmatch(
        r"audit     passed: ([\d,]+) of \1 located values and ([\d,]+) of \2 visible strings "
        r"found in \d+\.\d s",
        lines[audit],
    ), lines[audit]
    # the line under it, indented under the stage's words, is what was not checked
    assert lines[audit + 1].startswith(" " * 10 + "not checked: ")
    values, _, command = _not_checked(lines[audit + 1].strip())
    assert command == "packetbench audit --ocr --packets bench/packets"
    assert values > 100 and lines[audit + 2].startswith("extract ")
    assert (
        "not verified" not in result.stdout and "passed for what was checked" not in result.stdout
    )


@pytest.mark.slow
def test_extract_counts_an_invalid_record_as_invalid_not_ok(run_cli: Cli, tmp_path: Path) -> None:
    """The sloppy simulator (seed 3) writes one output on N1-000001 that breaks its schema:
    its record says ok, but `score` excludes it as invalid, and so does extract's count."""
    packet = PACKETS / "N1-000001"
    run = tmp_path / "run"
    made = run_cli(
        "extract", "--provider", "sim", "--profile", "sloppy", "--sim-seed", "3",
        "--packets", str(packet), "--out", str(run),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    written, failed = made.stdout.splitlines()
    counts = dict(
        (status, int(n))
        for n, status in re.findall(r"(\d+) (\w+)", written.split("[", 1)[1].split("]")[0])
    )
    assert counts["invalid"] >= 1, written
    assert sum(counts.values()) == int(re.search(r": (\d+) of", written).group(1))  # type: ignore[union-attr]
    scored = run_cli("score", str(run), "--packets", str(packet))
    assert scored.returncode == 0, scored.stderr
    documents = int(re.search(r": (\d+) documents scored", scored.stdout).group(1))  # type: ignore[union-attr]
    assert counts["ok"] == documents
    assert (
        f"{counts['invalid']} invalid" in scored.stdout and f"{counts['invalid']} invalid" in failed
    )
