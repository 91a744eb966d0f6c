"""Generator throughput per tier, with presentation patterns on and off, and what patterns cost.

    python measure/generate.py [--packets N] [--tiers N1,N2,N3] [--jobs 1,2] [--no-costs]

Three views are printed, each measured in this run:

1. Whole packets, exactly as `packetbench generate` writes them (temporary folder, rename):
   the clock covers the world, every document (PDF, XLSX, CSV), every truth artifact and the
   disk writes; pages/s counts the PDF pages of those packets. Each tier runs with its preset
   patterns ("on") and with every pattern off ("off"), on one core and with more jobs.
2. Stages on one core: where the time of a packet goes (`build_packet` timed stage by stage,
   patterns staging and recording included), and the PDF renderers' own rate (PDF pages per
   second of layout and emission).
3. The ten most expensive patterns: each pattern forced on (`patterns.only=<id>`) over the
   same N3 packets, minus the same packets with every pattern off, per packet and per document
   it was applied to.
4. Scanned pages (`measure/scan.py`'s first part): per scan level, scanned pages per second
   on one core beside the minimal work for one scanned page in the same run (pdfium render at
   the level's resolution plus one image encode), and beside them the scan as the generator
   makes it (judged: the legibility rule's clean side and the decoded image too); then, per
   tier, all levels in the proportions the packets of view 1 (patterns on, one job) scanned
   their pages, and that tier's whole packets per second from view 1; the issue's target
   ratio is 0.5.

`--cpu` times the one-job runs and the stages by the process's CPU time instead of the wall
clock: on a machine other work is sharing, that is what one free core would take.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from scan import mixed, scanned_pages, throughput  # measure/scan.py, beside this script

from packetbench.generator.batch import generate
from packetbench.generator.packet import Stopwatch, build_packet
from packetbench.generator.patterns.base import catalogue
from packetbench.generator.render.scan import LEVELS
from packetbench.generator.tiers import resolve

DEFAULT_PACKETS = {"N1": 24, "N2": 16, "N3": 8, "N4": 4, "N5": 2}
FIRST_SEED = 1000  # away from the canonical seed
OFF = {"patterns.off": ("*",)}
CLOCK = time.perf_counter  # time.process_time under --cpu


# Per tier, scanned pages per level of the packets made "on" with one job, and their rate.
SCANNED: dict[str, Counter[str]] = {}
PACKETS_PER_SECOND: dict[str, float] = {}


def whole_packets(
    tier: str, packets: int, jobs: int, overrides: dict[str, Any]
) -> tuple[float, float, int, float]:
    folder = Path(tempfile.mkdtemp(prefix=f"pb-bench-{tier}-"))
    # Worker processes' CPU time is not the parent's: several jobs are timed by the wall.
    clock = CLOCK if jobs == 1 else time.perf_counter
    try:
        generate(tier, FIRST_SEED - 1, 1, folder, overrides=overrides)  # warm caches
        started = clock()
        summaries = generate(tier, FIRST_SEED, packets, folder, jobs=jobs, overrides=overrides)
        seconds = clock() - started
        if jobs == 1 and not overrides:
            SCANNED.setdefault(tier, Counter()).update(scanned_pages(folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    pages = sum(s.pdf_pages for s in summaries)
    if jobs == 1 and not overrides:
        PACKETS_PER_SECOND[tier] = packets / seconds
    return pages / seconds, packets / seconds, pages, seconds


def stages(tier: str, packets: int) -> Stopwatch:
    """`build_packet` of `packets` packets, timed stage by stage."""
    knobs = resolve(tier)
    watch = Stopwatch(CLOCK)
    for seed in range(FIRST_SEED, FIRST_SEED + packets):
        build_packet(tier, seed, knobs, watch)
    return watch


def pattern_costs(packets: int) -> list[tuple[str, float, int]]:
    """(pattern, extra seconds per packet, documents it was applied to) on N3 packets."""
    seeds = range(FIRST_SEED, FIRST_SEED + packets)

    def timed(overrides: dict[str, Any]) -> tuple[float, dict[int, Any]]:
        knobs = resolve("N3", overrides)
        best = float("inf")
        out: dict[int, Any] = {}
        for _ in range(2):  # the faster of two passes: less noise from the other core
            started = time.perf_counter()
            out = {seed: build_packet("N3", seed, knobs) for seed in seeds}
            best = min(best, time.perf_counter() - started)
        return best, out

    base, _ = timed(OFF)
    costs = []
    for pattern in catalogue():
        seconds, built = timed({"patterns.only": (pattern.id,)})
        applied = sum(
            any(p["id"] == pattern.id for p in json.loads(data)["patterns_applied"])
            for packet in built.values()
            for name, data in packet.files.items()
            if name.startswith("manifest_")
        )
        costs.append((pattern.id, (seconds - base) / packets, applied))
    return sorted(costs, key=lambda c: -c[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, help="packets per tier (default scales by tier)")
    parser.add_argument("--tiers", default="N1,N2,N3,N4,N5")
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--no-costs", action="store_true", help="skip the per-pattern costs")
    parser.add_argument("--no-scans", action="store_true", help="skip the scanned-page rates")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time one-job runs and stages by CPU time, not the wall clock",
    )
    args = parser.parse_args()
    if args.cpu:
        global CLOCK
        CLOCK = time.process_time
    tiers = args.tiers.split(",")
    print(f"cores available: {os.cpu_count()}\n")
    print("whole packets (everything `packetbench generate` does, written to disk)")
    print(
        f"{'tier':<5}{'patterns':>9}{'jobs':>5}{'packets':>9}{'PDF pages':>11}{'seconds':>9}"
        f"{'pages/s':>10}{'pages/s/core':>14}{'packets/s':>11}"
    )
    for tier in tiers:
        for jobs in (int(j) for j in args.jobs.split(",")):
            for label, overrides in (("on", {}), ("off", OFF)):
                count = args.packets or DEFAULT_PACKETS[tier]
                pages_s, packets_s, pages, seconds = whole_packets(tier, count, jobs, overrides)
                print(
                    f"{tier:<5}{label:>9}{jobs:>5}{count:>9}{pages:>11}{seconds:>9.2f}"
                    f"{pages_s:>10.1f}{pages_s / jobs:>14.1f}{packets_s:>11.2f}",
                    flush=True,
                )
    print("\nstages on one core, patterns on (ms per packet), and the PDF renderers' own rate")
    names = [
        "world",
        "document models",
        "patterns",
        "render pdf",
        "render xlsx",
        "render csv",
        "truth artifacts",
    ]
    print(f"{'tier':<5}" + "".join(f"{n:>17}" for n in names) + f"{'PDF pages/s':>13}")
    for tier in tiers:
        count = args.packets or DEFAULT_PACKETS[tier]
        watch = stages(tier, count)
        print(
            f"{tier:<5}"
            + "".join(f"{watch.spent[n] / count * 1000:>17.1f}" for n in names)
            + f"{watch.pdf_pages / watch.spent['render pdf']:>13.1f}",
            flush=True,
        )
    if not args.no_scans:
        print()
        rates = throughput("N3", 6, list(LEVELS))
        # The levels as the packets above scanned their pages, tier by tier.
        for tier, levels in SCANNED.items():
            if levels:
                mixed(rates, levels, f"mix {tier}")
        for tier, rate in PACKETS_PER_SECOND.items():
            print(f"{tier} whole packets, patterns on, one job: {rate:.3f} packets/s")
    if args.no_costs:
        return
    packets = 3
    print(
        f"\nthe ten most expensive patterns (forced on over {packets} N3 packets, minus "
        "the same packets with every pattern off; one core)"
    )
    print(f"{'pattern':<34}{'ms/packet':>11}{'documents':>11}{'ms/document':>13}")
    for pattern, seconds, applied in pattern_costs(packets)[:10]:
        per_doc = seconds * packets / applied * 1000 if applied else float("nan")
        print(f"{pattern:<34}{seconds * 1000:>11.1f}{applied:>11}{per_doc:>13.1f}", flush=True)


if __name__ == "__main__":
    main()
