"""The scorer's citation verdicts and grounding rates recover the sim's citation ledger.

The simulator cites each claim from seeded draws and writes down the citation verdict each
must get (`sim_injections.json`: documents' citations.verdicts, and of those the claims whose
value is right, citations.supported); the scorer, which knows nothing of the draws, must
arrive at the same counts per document, and the grounding view at the same totals.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from packetbench.benchmark.results.query import open_runs
from packetbench.benchmark.selection import Selection
from tests.support.packets import write_packets
from tests.support.paths import PACKETS, TIERS
from tests.support.small_runs import small_run

Run = Callable[..., subprocess.CompletedProcess[str]]


def _recovered(run_cli: Run, packets: Path, run: Path, mode: str, profile: str) -> None:
    made = run_cli(
        "extract", "--packets", str(packets), "--out", str(run), "--cite", mode,
        "--profile", profile,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    scored = run_cli("score", str(run), "--packets", str(packets))
    assert scored.returncode == 0, scored.stderr
    _check_ledger(run, mode)


def _check_ledger(run: Path, mode: str) -> None:
    """The scored run's citation verdicts per document, and its grounding rates, are the
    sim's ledger's."""
    ledger = json.loads((run / "sim_injections.json").read_text())
    claims = (
        duckdb.connect()
        .execute(
            "SELECT packet_id || '/' || doc_id, citation, verdict = 'supported' "
            f"FROM read_parquet('{run / 'scores' / 'claims.parquet'}')"
        )
        .fetchall()
    )
    verdicts: dict[str, Counter[str]] = {}
    supported: dict[str, Counter[str]] = {}
    for key, citation, right in claims:
        verdicts.setdefault(key, Counter())[citation] += 1
        if right:
            supported.setdefault(key, Counter())[citation] += 1
    documents = [(k, d) for k, d in ledger["documents"].items() if d["status"] == "ok"]
    assert documents
    for key, entry in documents:
        assert dict(verdicts.get(key, {})) == entry["citations"]["verdicts"], key
        assert dict(supported.get(key, {})) == entry["citations"]["supported"], key
    total = ledger["overall"]["citations"]
    cited = sum(n for v, n in total["verdicts"].items() if v != "uncited")
    with open_runs([run]) as runs:
        rates = {r["metric"]: r for r in runs.rows("SELECT * FROM grounding")}
    assert rates["citation_recall"]["num"] == cited
    assert rates["citation_recall"]["den"] == sum(total["verdicts"].values())
    page = total["supported"].get("right_page", 0) + total["supported"].get("right_box", 0)
    assert rates["citation_precision_page"]["num"] == page
    assert rates["citation_precision_page"]["den"] == cited
    if mode == "box":
        assert rates["citation_precision_box"]["num"] == total["supported"].get("right_box", 0)
        assert rates["grounding_f1_box"]["num"] == 2 * total["supported"].get("right_box", 0)
    else:
        assert "citation_precision_box" not in rates
    assert rates["grounding_f1_page"]["num"] == 2 * page
    # every kind of citation was drawn, so the test can tell them apart
    kinds = {c["choice"] for _, d in documents for c in d["citations"]["choices"]}
    assert kinds == {"right", "off_by_one", "first_page", "none"}


def test_sim_citations_recovered_in_process(tmp_path: Path) -> None:
    """The fast tier's check: the canonical N1 packet run and scored in process (no command
    calls), sloppy citations by page."""
    run = small_run(tmp_path / "run", "sloppy", cite="page", selection=Selection())
    _check_ledger(run, "page")


@pytest.mark.slow
def test_sim_citations_recovered_on_one_packet(run_cli: Run, tmp_path: Path) -> None:
    _recovered(run_cli, PACKETS / "N1-000001", tmp_path / "run", "page", "sloppy")


@pytest.mark.slow
def test_sim_citations_recovered_on_every_tier(run_cli: Run, tmp_path: Path) -> None:
    packets = tmp_path / "packets"
    packets.mkdir()
    for tier in TIERS:  # one canonical packet a tier, linked, not copied
        (packets / f"{tier}-000001").symlink_to(PACKETS / f"{tier}-000001")
    _recovered(run_cli, packets, tmp_path / "run", "box", "typical")


@pytest.mark.slow
def test_sim_citations_recovered_on_fourteen_packets(run_cli: Run, tmp_path: Path) -> None:
    """The grounding measure on more packets: the canonical seed 1 of every tier and seeds 2-4
    of N1-N3 (an N4-N5 packet costs 5-20 times one of N1-N3 to write, and the canonical ones
    stand for their tiers here and in test_sim_citations_recovered_on_every_tier)."""
    packets = tmp_path / "packets"
    packets.mkdir()
    for tier in TIERS:
        (packets / f"{tier}-000001").symlink_to(PACKETS / f"{tier}-000001")
        if tier in ("N1", "N2", "N3"):
            write_packets(packets, tier, range(2, 5))
    assert len(list(packets.iterdir())) == 14
    _recovered(run_cli, packets, tmp_path / "run", "box", "sloppy")
