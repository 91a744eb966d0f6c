"""Generator throughput per tier, with presentation patterns on and off, and what patterns cost.

    python benchmarks/generate.py [--packets N] [--tiers N1,N2,N3] [--jobs 1,2] [--no-costs]

Three views are printed, each measured in this run:

1. Whole packets, exactly as `packetbench generate` writes them (temporary folder, rename):
   the clock covers the world, every document (PDF, XLSX, CSV), every truth artifact and the
   disk writes; pages/s counts the PDF pages of those packets. Each tier runs with its preset
   patterns ("on") and with every pattern off ("off"), on one core and with more jobs.
2. Stages on one core: where the time of a packet goes (patterns staging and recording
   included), and the PDF renderers' own rate (PDF pages per second of layout and emission).
3. The ten most expensive patterns: each pattern forced on (`patterns.only=<id>`) over the
   same N3 packets, minus the same packets with every pattern off, per packet and per document
   it was applied to.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from generator import doctypes as _doctypes  # noqa: F401  (registers document types)
from generator.batch import generate
from generator.doctypes.base import variants
from generator.packet import build_packet, sub_seed
from generator.patterns import engine
from generator.patterns.base import Subject, catalogue
from generator.render.record import Recorder
from generator.tiers import resolve
from generator.truth import document_artifacts, dump_json
from generator.world.build import build_world

DEFAULT_PACKETS = {"N1": 24, "N2": 16, "N3": 8, "N4": 4, "N5": 2}
FIRST_SEED = 1000  # away from the canonical seed
OFF = {"patterns.off": ("*",)}


def whole_packets(tier: str, packets: int, jobs: int,
                  overrides: dict[str, Any]) -> tuple[float, float, int, float]:
    folder = Path(tempfile.mkdtemp(prefix=f"pb-bench-{tier}-"))
    try:
        generate(tier, FIRST_SEED - 1, 1, folder, overrides=overrides)  # warm caches
        started = time.perf_counter()
        summaries = generate(tier, FIRST_SEED, packets, folder, jobs=jobs,
                             overrides=overrides)
        seconds = time.perf_counter() - started
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    pages = sum(s.pdf_pages for s in summaries)
    return pages / seconds, packets / seconds, pages, seconds


def stages(tier: str, packets: int) -> tuple[dict[str, float], int]:
    """Seconds per stage over `packets` packets (the steps of `build_packet`, timed one by
    one), and their PDF page count."""
    knobs = resolve(tier)
    registry = variants()
    spent: dict[str, float] = defaultdict(float)
    pdf_pages = 0
    for seed in range(FIRST_SEED, FIRST_SEED + packets):
        clock = time.perf_counter()
        world = build_world(seed, knobs)
        spent["world"] += time.perf_counter() - clock
        built = {}
        for doc_id in knobs["documents"]:
            doc_type, variant = registry[doc_id]
            clock = time.perf_counter()
            if doc_type.name not in built:
                rng = random.Random(sub_seed(seed, doc_type.name))
                built[doc_type.name] = doc_type.build(world, rng, knobs)
            doc = variant.adapt(built[doc_type.name])
            spent["document models"] += time.perf_counter() - clock
            clock = time.perf_counter()
            staged = engine.stage(Subject(doc_id, doc_type.name, variant.format, doc,
                                          variant.tables, variant.style), knobs, seed)
            recorder = Recorder(doc_id, staged.doc, variant.style, staged.presentation)
            spent["patterns"] += time.perf_counter() - clock
            clock = time.perf_counter()
            output = variant.render(staged.doc, recorder)
            spent[f"render {variant.format}"] += time.perf_counter() - clock
            if variant.format == "pdf":
                pdf_pages += output.pages
            clock = time.perf_counter()
            applied = engine.finish(staged, recorder)
            spent["patterns"] += time.perf_counter() - clock
            clock = time.perf_counter()
            artifacts = document_artifacts(
                recorder=recorder, doc_type=doc_type.name, fmt=variant.format, file=doc_id,
                data=output.data, pages=output.pages, tier=tier, seed=seed, knobs=knobs,
                omits=variant.omits, patterns_applied=applied)
            for content in artifacts.values():
                dump_json(content)
            spent["truth artifacts"] += time.perf_counter() - clock
    return spent, pdf_pages


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
            for packet in built.values() for name, data in packet.files.items()
            if name.startswith("manifest_"))
        costs.append((pattern.id, (seconds - base) / packets, applied))
    return sorted(costs, key=lambda c: -c[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, help="packets per tier (default scales by tier)")
    parser.add_argument("--tiers", default="N1,N2,N3,N4,N5")
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--no-costs", action="store_true", help="skip the per-pattern costs")
    args = parser.parse_args()
    tiers = args.tiers.split(",")
    print(f"cores available: {os.cpu_count()}\n")
    print("whole packets (everything `packetbench generate` does, written to disk)")
    print(f"{'tier':<5}{'patterns':>9}{'jobs':>5}{'packets':>9}{'PDF pages':>11}{'seconds':>9}"
          f"{'pages/s':>10}{'pages/s/core':>14}{'packets/s':>11}")
    for tier in tiers:
        for jobs in (int(j) for j in args.jobs.split(",")):
            for label, overrides in (("on", {}), ("off", OFF)):
                count = args.packets or DEFAULT_PACKETS[tier]
                pages_s, packets_s, pages, seconds = whole_packets(tier, count, jobs, overrides)
                print(f"{tier:<5}{label:>9}{jobs:>5}{count:>9}{pages:>11}{seconds:>9.2f}"
                      f"{pages_s:>10.1f}{pages_s / jobs:>14.1f}{packets_s:>11.2f}", flush=True)
    print("\nstages on one core, patterns on (ms per packet), and the PDF renderers' own rate")
    names = ["world", "document models", "patterns", "render pdf", "render xlsx",
             "render csv", "truth artifacts"]
    print(f"{'tier':<5}" + "".join(f"{n:>17}" for n in names) + f"{'PDF pages/s':>13}")
    for tier in tiers:
        count = args.packets or DEFAULT_PACKETS[tier]
        spent, pdf_pages = stages(tier, count)
        print(f"{tier:<5}" + "".join(f"{spent[n] / count * 1000:>17.1f}" for n in names)
              + f"{pdf_pages / spent['render pdf']:>13.1f}", flush=True)
    if args.no_costs:
        return
    packets = 3
    print(f"\nthe ten most expensive patterns (forced on over {packets} N3 packets, minus "
          "the same packets with every pattern off; one core)")
    print(f"{'pattern':<34}{'ms/packet':>11}{'documents':>11}{'ms/document':>13}")
    for pattern, seconds, applied in pattern_costs(packets)[:10]:
        per_doc = seconds * packets / applied * 1000 if applied else float("nan")
        print(f"{pattern:<34}{seconds * 1000:>11.1f}{applied:>11}{per_doc:>13.1f}", flush=True)


if __name__ == "__main__":
    main()
