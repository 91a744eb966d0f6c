"""N4 and N5 over 20 seeds with their presets (slow): every packet audits clean (what only OCR
can read is counted, not judged, here), packets hold superseded documents, and a sloppy
simulated model scores exactly as its ledger says, `stale` verdicts included."""

from __future__ import annotations

from pathlib import Path

import pytest

from packetbench.benchmark.audit import audit_packets
from packetbench.benchmark.extract import extract
from packetbench.benchmark.packets import load_packet, read_json
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.score.outputs import read_documents
from packetbench.benchmark.score.scorer import score_run
from packetbench.generator.batch import generate
from tests.support.scoring import ledger_mismatches

SEEDS = 20

pytestmark = pytest.mark.slow


def test_n4_n5_audit_clean_and_stale_verdicts_equal_the_ledger(tmp_path: Path) -> None:
    packets = tmp_path / "packets"
    for tier in ("N4", "N5"):
        generate(tier, 1, SEEDS, packets, jobs=2)
    result = audit_packets([packets])
    assert [f for f in result.findings() if f.problem != "not_checked"] == []
    assert result.totals()["packets"] == 2 * SEEDS
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
