"""`packetbench report`: what it shows, that it says where its numbers come from, and that the
same runs give the same bytes."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.report.render import write_report
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from tests.support.paths import PACKETS
from tests.support.runs import ScoredRun

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.mark.slow
def test_report_is_byte_identical_across_processes(
    run_cli: Run, scored_run: ScoredRun, tmp_path: Path
) -> None:
    runs = [str(scored_run("typical", 1)), str(scored_run("sloppy", 2))]
    outputs = []
    for index, hashseed in enumerate(("0", "12345")):
        out = tmp_path / f"report{index}"
        result = run_cli("report", *runs, "--out", str(out), env={"PYTHONHASHSEED": hashseed})
        assert result.returncode == 0, result.stderr
        assert f"wrote {out / 'report.md'} and {out / 'report.html'}" in result.stdout
        outputs.append({name: (out / name).read_bytes() for name in ("report.md", "report.html")})
    assert outputs[0] == outputs[1]


@pytest.fixture(scope="module")
def two_runs(
    scored_run: ScoredRun, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, Path], str]:
    """typical-1 and sloppy-2, and report.md of the two (rendered once: it takes seconds)."""
    runs = {"typical-1": scored_run("typical", 1), "sloppy-2": scored_run("sloppy", 2)}
    files = write_report(list(runs.values()), tmp_path_factory.mktemp("report"))
    return runs, files.markdown.read_text(encoding="utf-8")


@pytest.mark.slow
def test_report_shows_every_section(two_runs: tuple[dict[str, Path], str]) -> None:
    runs, text = two_runs
    typical = runs["typical-1"]
    for heading in (
        "1. Runs and their configuration",
        "2. Documents completed",
        "3. Hallucination rates",
        "4. Slices, worst first",
        "By tier",
        "By document type",
        "By field kind",
        "By presentation pattern",
        "5. Recall view and the abstention pair",
        "6. Faithfulness and the verdict",
        "7. Internal consistency",
        "8. Tokens and cost",
        "9. Small-cell warnings",
    ):
        assert heading in text, heading
    assert "SIMULATED extractor" in text and "not a model" in text
    assert "2,000 resamples" in text and "cluster bootstrap" in text
    # the exact configuration of each run, and the documents a run did not complete
    assert '`{"profile": "sloppy", "seed": 2}`' in text
    assert "invalid (" in text and "missing (no extraction record)" in text
    # the headline numbers are the score files' numbers
    overall = json.loads((typical / "scores" / "hallucination.json").read_text())["overall"]
    numbers = overall["packet"]["numbers"]
    row = next(
        line
        for line in text.splitlines()
        if line.startswith("| Numeric hallucination rate | typical-1 |")
    )
    assert f"| {numbers['checked']:,} | {numbers['hallucinated']:,} |" in row
    assert f"| {numbers['rate_micro'] * 100:.2f} % |" in row
    # The macro rate is a mean of per-document rates, summed in another order by the report's
    # SQL than by the scorer: the two agree to the printed precision, a half-cent tie aside.
    macro = float(row.split(" | ")[8].removesuffix(" %"))
    assert abs(macro - numbers["rate_macro"] * 100) <= 0.005 + 1e-9, (macro, numbers)
    assert re.search(r"\| \[\d+\.\d\d, \d+\.\d\d\] \| \[\d+\.\d\d, \d+\.\d\d\] \|", row)
    # the abstention pair is printed together
    assert text.index("| Correct abstention | typical-1") < text.index(
        "| Over-refusal (omitted) | typical-1"
    )


@pytest.mark.slow
def test_worst_slice_first(scored_run: ScoredRun, tmp_path: Path) -> None:
    files = write_report([scored_run("typical", 1)], tmp_path)
    text = files.markdown.read_text(encoding="utf-8")
    section = text[text.index("### By document type") : text.index("### By file format")]
    table = section[: section.index("String hallucination rate")]
    rates = [
        float(m)
        for m in re.findall(
            r"^\| \w+(?: \(small\))? \| typical-1 \| \d+ \| "
            r"[\d,]+ \| (\d+\.\d\d) %",
            table,
            re.M,
        )
    ]
    # One row per document type that shows numbers (a cancellation request shows none).
    numeric = {
        d["doc_type"]
        for packet in PACKETS.iterdir()
        if packet.is_dir()
        for d in json.loads((packet / "packet_truth.json").read_text())["documents"]
        if any(
            f["kind"] in ("number", "money", "percent")
            for f in json.loads((packet / f"field_truth_{d['doc_id']}.json").read_text())["fields"]
        )
    }
    assert len(rates) == len(numeric) and rates == sorted(rates, reverse=True)


@pytest.mark.slow
def test_small_slices_are_flagged(tmp_path: Path) -> None:
    """One packet: every document type has one to three documents, too few to compare."""
    packet = PACKETS / "N1-000001"
    extract(SimProvider("typical", 1), packet, tmp_path / "run")
    score_run(tmp_path / "run", packet)
    load_run(tmp_path / "run", packet)
    files = write_report([tmp_path / "run"], tmp_path / "report")
    text = files.markdown.read_text(encoding="utf-8")
    warnings = text[text.index("## 9. Small-cell warnings") :]
    assert "fewer than 5 documents or 30 values" in warnings
    assert "| run | Document type: loss_run | Numeric hallucination rate | 3 |" in warnings
    assert re.search(r"^\| sov \(small\) \| run \| 2 \| .* \|$", text, re.M)


@pytest.mark.slow
def test_html_is_self_contained(scored_run: ScoredRun, tmp_path: Path) -> None:
    files = write_report([scored_run("typical", 1), scored_run("sloppy", 2)], tmp_path)
    html = files.html.read_text(encoding="utf-8")
    assert "<script" not in html and "<link" not in html and "@import" not in html
    references = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)""", html)
    # The only links are to the page's own sections, and each lands on one.
    assert references and all(reference.startswith("#") for reference in references)
    ids = set(re.findall(r"""\bid\s*=\s*["']([^"']+)""", html))
    assert {reference[1:] for reference in references} <= ids
    assert set(re.findall(r"https?://[^\s\"'<>]+", html)) == {"http://www.w3.org/2000/svg"}
    assert html.count("<svg") >= 4 and html.count("<table") > 20


@pytest.mark.slow
def test_report_of_an_unscored_run_is_exit_2(run_cli: Run, tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "run.json").write_text("{}")
    result = run_cli("report", str(tmp_path / "run"), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and "score the run first" in result.stderr


def test_rates_on_the_documents_every_run_scored(two_runs: tuple[dict[str, Path], str]) -> None:
    """Runs that completed different documents are compared on the documents all of them
    scored: the report's common-document rows are the sums of documents.parquet over the
    intersection, beside each run's rate over everything it scored."""
    runs, text = two_runs
    scored = {
        name: {
            f"{p}/{d}": (checked, hallucinated)
            for p, d, checked, hallucinated in duckdb.execute(
                "SELECT packet_id, doc_id, numbers_checked, numbers_hallucinated FROM "
                f"read_parquet('{run / 'scores' / 'documents.parquet'}')"
            ).fetchall()
        }
        for name, run in runs.items()
    }
    common = set(scored["typical-1"]) & set(scored["sloppy-2"])
    assert 0 < len(common) < max(len(s) for s in scored.values())  # the runs differ
    assert f"On the {len(common):,} documents every run scored" in text
    assert "the rates that compare, since the runs scored different documents" in text
    for name, documents in scored.items():
        checked = sum(documents[key][0] for key in common)
        hallucinated = sum(documents[key][1] for key in common)
        own = sum(h for _, h in documents.values()) / sum(c for c, _ in documents.values())
        assert (
            f"| Numeric hallucination rate | {name} | {len(documents):,} | {len(common):,} | "
            f"{checked:,} | {hallucinated:,} | {hallucinated / checked * 100:.2f} % | "
            f"{own * 100:.2f} % |"
        ) in text, name
