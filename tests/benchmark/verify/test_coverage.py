"""The verifier's statistics hold what they promise, on the 10 N3 packets of the tier corpus
and a sim judge of known sensitivity and specificity: the calibration's intervals hold the
configured rates (and the kappa they imply), and over 50 repetitions (5 judge seeds x 10
random splits into 7 calibration packets and 3 held back, treated as if they had no truth)
the corrected rate's 95 % interval holds the held-back packets' true rate in at least 90 % of
them. More packets and splits: benchmarks/verify_coverage.py."""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.results import load_run
from packetbench.benchmark.run_folder import listed_documents
from packetbench.benchmark.runs import read_run
from packetbench.benchmark.score.scorer import score_run
from packetbench.benchmark.score.verdicts import VERDICTS
from packetbench.benchmark.verify.calibration import CALIBRATION, calibrate, kappa, rows_of
from packetbench.benchmark.verify.claims import Claim
from packetbench.benchmark.verify.correction import SAME, correct
from packetbench.benchmark.verify.judges import JudgeRequest, SimJudge
from packetbench.benchmark.verify.labelling import verify_run
from packetbench.benchmark.verify.prompt import template_hashes
from packetbench.core.writing import write_json
from packetbench.truth.packets import find_packets
from tests.support.audit import Run
from tests.support.paths import PACKETS

SE, SP = 0.85, 0.93
SEEDS, SPLITS, CALIBRATE = 5, 10, 7


def _expected_kappa(mix: dict[str, int]) -> float:
    """Kappa of the confusion matrix the configured rates give this verdict mix."""
    size = len(VERDICTS)
    confusion = np.zeros((size, size))
    for t, verdict in enumerate(VERDICTS):
        n = mix.get(verdict, 0)
        if verdict == "supported":
            confusion[t, :] = n * (1 - SP) / (size - 1)
            confusion[t, t] = n * SP
        else:
            confusion[t, 0], confusion[t, t] = n * (1 - SE), n * SE
    return float(kappa(confusion))


def _holds(interval: dict[str, Any], value: float) -> bool:
    return bool(interval["low"] <= value <= interval["high"])


@pytest.mark.slow
def test_calibration_recovers_the_rates_and_the_correction_covers_the_truth(
    tier_corpus: Callable[[str], Path], run_cli: Run, tmp_path: Path
) -> None:
    packets = tier_corpus("N3")  # only read: the run, its scores and labels go to tmp_path
    run = tmp_path / "run"
    extract(SimProvider("typical", 0), packets, run)
    score_run(run, packets)
    load_run(run, packets)
    rates = ("--sensitivity", str(SE), "--specificity", str(SP))
    # Many claims a request: a sim judge's labels do not depend on the batch size.
    done = run_cli("verify", str(run), *rates, "--claims-per-request", "100")
    assert done.returncode == 0, done.stderr
    folder = run / "judge" / "sim-sim"
    found = json.loads((folder / CALIBRATION).read_text())
    with duckdb.connect(str(run / "results.duckdb"), read_only=True) as con:
        mix = dict(con.execute("SELECT verdict, COUNT(*) FROM claims GROUP BY 1").fetchall())
    assert found["documents"] > 250 and found["claims"] > 50_000
    assert _holds(found["sensitivity"], SE), found["sensitivity"]
    assert _holds(found["specificity"], SP), found["specificity"]
    assert _holds(found["kappa"], _expected_kappa(mix)), found["kappa"]

    # The repetitions: each judge seed labels every claim once (a claim's label depends on
    # the seed and the claim alone); each split calibrates on 14 packets and corrects the
    # raw rate of the 6 others with that calibration alone.
    rows = rows_of(run, "sim-sim")
    by_document: dict[tuple[str, str], list[int]] = {}
    by_packet: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        by_document.setdefault((row["packet_id"], row["doc_id"]), []).append(i)
        by_packet.setdefault(row["packet_id"], []).append(i)
    found_packets = find_packets(packets)
    selected = listed_documents(read_run(run), run, found_packets)
    documents = {(p.packet_id, d.doc_id): (p, d) for p, d in selected}
    ids = sorted(p.packet_id for p in found_packets)
    covered, se_held, sp_held, kappa_held, repetitions = 0, 0, 0, 0, 0
    scratch = tmp_path / "calibrations"
    for seed in range(1, SEEDS + 1):
        judge = SimJudge("sim", SE, SP, seed)
        judge.prepare(run, selected)
        said: list[str] = [""] * len(rows)
        for key, indices in by_document.items():
            packet, doc = documents[key]
            claims = [Claim(rows[i]["path"], rows[i]["kind"], None) for i in indices]
            answer = judge.label(JudgeRequest(packet, doc, 0, claims, scratch / "unused"))
            for i, label in zip(indices, answer.labels["labels"], strict=True):
                said[i] = label["verdict"]
        about = {**judge.describe(), **template_hashes()}
        identity = {name: about[name] for name in SAME}
        rng = random.Random(seed)
        for split in range(SPLITS):
            calibration_ids = set(rng.sample(ids, CALIBRATE))
            mine = [i for p in ids if p in calibration_ids for i in by_packet[p]]
            held = [i for p in ids if p not in calibration_ids for i in by_packet[p]]
            calibration = calibrate(
                [{**rows[i], "judge_verdict": said[i]} for i in mine],
                {**identity, "run_id": f"seed{seed}-split{split}"},
            )
            place = scratch / f"seed{seed}-split{split}"
            write_json(place / "judge" / "sim-sim" / CALIBRATION, calibration)
            labels = [
                {"packet_id": rows[i]["packet_id"], "doc_id": rows[i]["doc_id"], "verdict": said[i]}
                for i in held
            ]
            estimate = correct(labels, about, place, "sim-sim", min_kappa=0.3)
            true = sum(rows[i]["truth_verdict"] != "supported" for i in held) / len(held)
            covered += _holds(estimate["corrected"], true)
            se_held += _holds(calibration["sensitivity"], SE)
            sp_held += _holds(calibration["specificity"], SP)
            mix_of_mine = Counter(rows[i]["truth_verdict"] for i in mine)
            kappa_held += _holds(calibration["kappa"], _expected_kappa(dict(mix_of_mine)))
            repetitions += 1
            shutil.rmtree(place)
    assert repetitions == 50
    summary = {"covered": covered, "se": se_held, "sp": sp_held, "kappa": kappa_held}
    print(f"\nverify coverage over {repetitions} repetitions: {summary}")
    assert covered >= 45, summary  # the corrected interval holds the true rate in >= 90 %
    assert min(se_held, sp_held, kappa_held) >= 45, summary


def test_calibration_on_the_canonical_n1_n2_holds_the_rates(tmp_path: Path) -> None:
    """The fast tier's check, in process: a scored sim run of the canonical N1 and N2
    packets (about 50 documents, 3,700 claims) labelled by a sim judge of known sensitivity
    and specificity; the calibration's intervals hold both rates and the kappa they imply."""
    packets = tmp_path / "packets"
    packets.mkdir()
    for tier in ("N1", "N2"):  # linked, not copied: only read
        (packets / f"{tier}-000001").symlink_to(PACKETS / f"{tier}-000001")
    run = tmp_path / "run"
    extract(SimProvider("typical", 0), packets, run)
    score_run(run, packets)
    load_run(run, packets)
    verify_run(run, SimJudge("sim", SE, SP, 1), packets, batch_size=100)
    found = json.loads((run / "judge" / "sim-sim" / CALIBRATION).read_text())
    with duckdb.connect(str(run / "results.duckdb"), read_only=True) as con:
        mix = dict(con.execute("SELECT verdict, COUNT(*) FROM claims GROUP BY 1").fetchall())
    assert found["documents"] > 40 and found["claims"] == sum(mix.values()) > 3000
    assert _holds(found["sensitivity"], SE), found["sensitivity"]
    assert _holds(found["specificity"], SP), found["specificity"]
    assert _holds(found["kappa"], _expected_kappa(mix)), found["kappa"]
