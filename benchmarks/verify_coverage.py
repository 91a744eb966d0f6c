"""Coverage of the judge-corrected hallucination rate: does its interval hold the true rate?

    python benchmarks/verify_coverage.py [--packets 30] [--calibrate 20] [--repetitions 50]
        [--sensitivity 0.85] [--specificity 0.93] [--work DIR]

Generates N3 packets (seeds 1..--packets), extracts them with the sim extractor (`typical`),
scores them and has the sim judge label every claim once (`packetbench verify`; a claim's
label depends only on its own seed, never on which packets share its run). Each repetition
then draws a random split: --calibrate packets are the calibration set, the rest are held
back and treated as if they had no truth. The calibration is computed from the calibration
packets' labels and verdicts (`verify.calibration.calibrate`), the held-back packets' raw rate
is corrected with it (`verify.correction.correct`), and the corrected interval is checked
against the held-back packets' true rate (their claims not supported, from the scorer). It
prints how often the interval covered the true rate, and how often the calibration's
intervals held the configured sensitivity and specificity.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from packetbench.benchmark.verify.calibration import CALIBRATION, calibrate, rows_of
from packetbench.benchmark.verify.correction import SAME, correct
from packetbench.core.writing import write_json


def _cli(*args: str) -> None:
    command = Path(sys.executable).parent / "packetbench"
    subprocess.run([str(command), *args], check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--packets", type=int, default=30)
    parser.add_argument("--calibrate", type=int, default=20)
    parser.add_argument("--repetitions", type=int, default=50)
    parser.add_argument("--sensitivity", type=float, default=0.85)
    parser.add_argument("--specificity", type=float, default=0.93)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    if not 0 < args.calibrate < args.packets:
        parser.error("--calibrate must be between 0 and --packets")
    work = args.work or Path(tempfile.mkdtemp(prefix="verify-coverage-"))
    packets, run = work / "packets", work / "run"
    started = time.perf_counter()
    if not (run / "judge" / "sim-sim" / "labels.jsonl").is_file():
        _cli(
            "generate",
            "--tiers",
            "N3",
            "--seed",
            "1",
            "--count",
            str(args.packets),
            "--out",
            str(packets),
            "--jobs",
            "2",
        )
        _cli("extract", "--packets", str(packets), "--out", str(run), "--force")
        _cli("score", str(run), "--packets", str(packets), "--jobs", "2")
        _cli(
            "verify",
            str(run),
            "--sensitivity",
            str(args.sensitivity),
            "--specificity",
            str(args.specificity),
            "--force",
        )
    prepared = time.perf_counter() - started
    about = json.loads((run / "judge" / "sim-sim" / "judge.json").read_text())
    truth_rows = rows_of(run, "sim-sim")
    labels = [
        json.loads(line)
        for line in (run / "judge" / "sim-sim" / "labels.jsonl").read_text().splitlines()
    ]
    ids = sorted({row["packet_id"] for row in truth_rows})
    rng = random.Random(20250601)
    covered = se_held = sp_held = 0
    scratch = work / "calibrations"
    for repetition in range(args.repetitions):
        calibration_ids = set(rng.sample(ids, args.calibrate))
        cal_rows = [r for r in truth_rows if r["packet_id"] in calibration_ids]
        held_truth = [r for r in truth_rows if r["packet_id"] not in calibration_ids]
        held_labels = [r for r in labels if r["packet_id"] not in calibration_ids]
        identity = {name: about[name] for name in SAME}
        found = calibrate(cal_rows, {**identity, "run_id": f"split-{repetition}"})
        place = scratch / f"split-{repetition}"
        write_json(place / "judge" / "sim-sim" / CALIBRATION, found)
        estimate = correct(held_labels, about, place, "sim-sim", min_kappa=-1.0)
        true = sum(r["truth_verdict"] != "supported" for r in held_truth) / len(held_truth)
        low, high = estimate["corrected"]["low"], estimate["corrected"]["high"]
        hit = low <= true <= high
        covered += hit
        se_held += found["sensitivity"]["low"] <= args.sensitivity <= found["sensitivity"]["high"]
        sp_held += found["specificity"]["low"] <= args.specificity <= found["specificity"]["high"]
        print(
            f"split {repetition + 1:>2}: true {true:.4f}, raw {estimate['raw']['estimate']:.4f}, "
            f"corrected {estimate['corrected']['estimate']:.4f} [{low:.4f}, {high:.4f}]"
            f"{'' if hit else '  MISSED'}",
            flush=True,
        )
    n = args.repetitions
    print(
        f"{len(ids)} N3 packets ({args.calibrate} calibration, {len(ids) - args.calibrate} held "
        f"back), {len(truth_rows):,} claims; prepared in {prepared:.0f} s"
    )
    print(
        f"corrected interval covered the true rate in {covered} of {n} splits ({covered / n:.0%})"
    )
    print(
        f"calibration intervals held sensitivity {args.sensitivity} in {se_held} of {n}, "
        f"specificity {args.specificity} in {sp_held} of {n}"
    )


if __name__ == "__main__":
    main()
