"""N4 and N5 over the tier corpus's seeds with their presets (slow; one canonical packet in
the fast tier): packets hold superseded documents, and a sloppy simulated model scores
exactly as its ledger says, `stale` verdicts included. (That every packet audits clean is
test_tiers.py's, on the same shared packets.)"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.config import HarnessOptions
from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.score.outputs import read_documents
from packetbench.benchmark.score.scorer import score_run
from packetbench.benchmark.selection import Selection
from packetbench.core.packet_files import read_json
from packetbench.truth.packets import load_packet
from tests.support.paths import PACKETS
from tests.support.scoring import ledger_mismatches
from tests.support.tier_corpus import SEEDS


@pytest.mark.slow
def test_n4_n5_stale_verdicts_equal_the_ledger(
    tmp_path: Path, tier_corpus: Callable[[str], Path]
) -> None:
    # The session's shared packets, linked (not copied) into one folder to extract from.
    packets = tmp_path / "packets"
    packets.mkdir()
    for tier in ("N4", "N5"):
        for folder in sorted(tier_corpus(tier).glob(f"{tier}-*")):
            shutil.copytree(folder, packets / folder.name, copy_function=os.link)
    assert len(list(packets.iterdir())) == SEEDS["N4"] + SEEDS["N5"]
    superseded = sum(
        len(load_packet(folder).superseded)
        for folder in sorted(packets.iterdir())
        if folder.is_dir()
    )
    assert superseded >= 5  # the presets really add earlier versions

    run = tmp_path / "run"
    extract(SimProvider("sloppy", 7), packets, run, force=True)
    score_run(run, packets)
    ledger = read_json(run / "sim_injections.json")["documents"]
    scored = {key: doc["verdicts"] for key, doc in read_documents(run / "scores").items()}
    # Stale verdicts equal the ledger document by document.
    planned = {
        key: entry["verdicts"].get("stale", 0)
        for key, entry in ledger.items()
        if entry["status"] == "ok"
    }
    assert sum(planned.values()) > 0
    assert planned == {key: scored[key].get("stale", 0) for key in planned}
    # Every document scores exactly as the ledger says (records the simulator changed
    # beyond what the aligner pairs are planned as the aligner pairs them).
    assert ledger_mismatches(run) == []


def test_n5_stale_verdicts_of_the_superseded_documents_equal_the_ledger(tmp_path: Path) -> None:
    """The fast tier's check, on the canonical N5 packet: it holds earlier versions of its
    SOV and its loss run; a sloppy sim run of those two document types (six documents, the
    superseded ones among them) scores `stale` exactly where its ledger planned it, and every
    document exactly as the ledger says."""
    packets = tmp_path / "packets"
    packets.mkdir()
    (packets / "N5-000001").symlink_to(PACKETS / "N5-000001")
    assert load_packet(packets / "N5-000001").superseded == {
        "sov_pdf_prior": "sov_pdf",
        "loss_run_excel_earlier": "loss_run_excel",
    }
    run = tmp_path / "run"
    chosen = HarnessOptions(selection=Selection(doc_types=("sov", "loss_run")))
    extract(SimProvider("sloppy", 7), packets, run, options=chosen)
    score_run(run, packets)
    ledger = read_json(run / "sim_injections.json")["documents"]
    assert len(ledger) == 6
    scored = {key: doc["verdicts"] for key, doc in read_documents(run / "scores").items()}
    planned = {
        key: entry["verdicts"].get("stale", 0)
        for key, entry in ledger.items()
        if entry["status"] == "ok"
    }
    assert sum(planned.values()) > 0
    assert planned == {key: scored[key].get("stale", 0) for key in planned}
    assert ledger_mismatches(run) == []
