"""Coverage of the reports' 95 % intervals on simulated runs whose true rate is known.

    python benchmarks/bootstrap_coverage.py [--n1 10] [--n2 10] [--seeds 50]
        [--repetitions 200] [--work DIR]

The population is a bank of simulated extractions: --n1 N1 and --n2 N2 packets (seeds 1..)
extracted by `sim typical` under --seeds seeds each, every document's checked and hallucinated
counts taken from the simulator's ledger (what the scorer counts, as
tests/benchmark/score/test_scorer.py proves). The true micro rate is the bank's own pooled
rate, known exactly. A repetition draws packets (cluster bootstrap, 100 a draw) or documents
(document bootstrap, 1,100 a draw) from the bank with replacement and builds the 95 % interval
exactly as the reports do; it prints how often the interval held the true rate, for numbers
and strings (about 95 % is right; docs/measurements.md has the figures).

Draws are large on purpose: the simulator's errors are heavy-tailed (an invented record of a
financial statement brings some thirty invented numbers at once, in about 1 % of documents),
and a draw too small to hold a few of those under-covers, as any bootstrap must.
tests/benchmark/stats/test_coverage_sim.py runs a small bank of the canonical packets.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.stats.bootstrap import intervals
from packetbench.truth import universe
from packetbench.truth.packets import Packet, find_packets

RESAMPLES = 1000  # per interval (the reports use 2,000; 1,000 keeps 400 intervals quick)
PACKETS_PER_DRAW = 100
DOCUMENTS_PER_DRAW = 1100
CLASSES = ("numbers", "strings")


@dataclass
class Bank:
    counts: np.ndarray  # per extracted document: numbers checked, hallucinated, strings ...
    packet: np.ndarray  # which extracted packet (pool packet x seed) each row belongs to
    truth: dict[str, float]


def build_bank(packets: list[Packet], seeds: int) -> Bank:
    """Every document of `packets` extracted by `sim typical` under `seeds` seeds, its
    checked and hallucinated counts from the simulator's ledger."""
    rows: list[tuple[int, int, int, int]] = []
    owners: list[int] = []
    for index, packet in enumerate(packets):
        found = universe.build(packet.path)
        for seed in range(seeds):
            provider = SimProvider("typical", seed)
            provider.found = found  # what prepare() builds, built once per packet
            for doc in packet.documents:
                provider.extract(packet, doc)
                entry = provider.ledger[f"{packet.packet_id}/{doc.doc_id}"]
                if entry["status"] != "ok":
                    continue
                tally = entry["grounding"]["packet"]
                rows.append(
                    (
                        tally["numbers"]["checked"],
                        tally["numbers"]["hallucinated"],
                        tally["strings"]["checked"],
                        tally["strings"]["hallucinated"],
                    )
                )
                owners.append(index * seeds + seed)
    counts = np.array(rows, dtype=float)
    totals = counts.sum(axis=0)
    return Bank(
        counts,
        np.array(owners),
        {"numbers": totals[1] / totals[0], "strings": totals[3] / totals[2]},
    )


def interval_hits(bank: Bank, rows: np.ndarray, clusters: np.ndarray | None) -> list[bool]:
    sample = bank.counts[rows]
    found = intervals(sample[:, [1, 3]], sample[:, [0, 2]], clusters, resamples=RESAMPLES)
    return [found.micro[i].contains(bank.truth[kind]) for i, kind in enumerate(CLASSES)]


def coverage_of(hits: list[list[bool]]) -> dict[str, float]:
    return {kind: float(np.mean([h[i] for h in hits])) for i, kind in enumerate(CLASSES)}


def cluster_coverage(bank: Bank, repetitions: int, seed: int = 1) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    extracted = np.unique(bank.packet)
    members = {p: np.flatnonzero(bank.packet == p) for p in extracted}
    hits = []
    for _ in range(repetitions):
        drawn = rng.choice(extracted, PACKETS_PER_DRAW)
        rows = np.concatenate([members[p] for p in drawn])
        clusters = np.concatenate(
            [np.full(len(members[p]), slot) for slot, p in enumerate(drawn)]
        ).astype(np.int64)
        hits.append(interval_hits(bank, rows, clusters))
    return coverage_of(hits)


def document_coverage(bank: Bank, repetitions: int, seed: int = 2) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    hits = [
        interval_hits(bank, rng.integers(0, len(bank.counts), DOCUMENTS_PER_DRAW), None)
        for _ in range(repetitions)
    ]
    return coverage_of(hits)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--n1", type=int, default=10)
    parser.add_argument("--n2", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bootstrap-coverage-"))
    packets = work / "packets"
    command = str(Path(sys.executable).parent / "packetbench")
    for tier, count in (("N1", args.n1), ("N2", args.n2)):
        if count:
            generate = ["generate", "--tiers", tier, "--count", str(count), "--jobs", "2"]
            subprocess.run(
                [command, *generate, "--out", str(packets)],
                check=True,
                stdout=subprocess.DEVNULL,
            )
    bank = build_bank(find_packets(packets), args.seeds)
    found = {
        "extracted_packets": len(np.unique(bank.packet)),
        "documents": len(bank.counts),
        "true_rates": {kind: round(rate, 6) for kind, rate in bank.truth.items()},
        "cluster": cluster_coverage(bank, args.repetitions),
        "document": document_coverage(bank, args.repetitions),
    }
    print(json.dumps(found, indent=2))


if __name__ == "__main__":
    main()
