"""Generator throughput per tier: PDF pages/s and packets/s, one core and two jobs.

    python benchmarks/generate.py [--packets N] [--tiers N1,N2,N3] [--jobs 1,2]

Two views are printed:

1. Whole packets, exactly as `packetbench generate` writes them (temporary folder, rename):
   the clock covers the world, every document (PDF, XLSX, CSV), every truth artifact
   and the disk writes; pages/s counts the PDF pages of those packets.
2. Stages on one core: where the time of a packet goes, and the PDF renderers' own rate
   (PDF pages per second of time spent laying out and emitting PDFs), the figure comparable
   with a bare reportlab canvas drawing form-like pages.

The issue's target is at least 100 rendered PDF pages per second per core for N1-N3.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from generator import doctypes as _doctypes  # noqa: F401  (registers document types)
from generator.batch import generate
from generator.doctypes.base import compose
from generator.packet import sub_seed
from generator.render.record import Recorder
from generator.tiers import resolve
from generator.truth import document_artifacts, dump_json
from generator.world.build import build_world

DEFAULT_PACKETS = {"N1": 24, "N2": 16, "N3": 8, "N4": 4, "N5": 2}
FIRST_SEED = 1000  # away from the canonical seed


def whole_packets(tier: str, packets: int, jobs: int) -> tuple[float, float, int, float]:
    folder = Path(tempfile.mkdtemp(prefix=f"pb-bench-{tier}-"))
    try:
        generate(tier, FIRST_SEED - 1, 1, folder)  # warm imports and caches
        started = time.perf_counter()
        summaries = generate(tier, FIRST_SEED, packets, folder, jobs=jobs)
        seconds = time.perf_counter() - started
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    pages = sum(s.pdf_pages for s in summaries)
    return pages / seconds, packets / seconds, pages, seconds


def stages(tier: str, packets: int) -> tuple[dict[str, float], int]:
    """Seconds per stage over `packets` packets, and their PDF page count."""
    knobs = resolve(tier)
    spent: dict[str, float] = defaultdict(float)
    pdf_pages = 0
    for seed in range(FIRST_SEED, FIRST_SEED + packets):
        clock = time.perf_counter()
        world = build_world(seed, knobs)
        spent["world"] += time.perf_counter() - clock
        built = {}
        # The documents this packet carries, as `generate` composes them.
        for doc_type, variant in compose(world, knobs["documents"]):
            doc_id = variant.doc_id
            clock = time.perf_counter()
            if doc_type.name not in built:
                rng = random.Random(sub_seed(seed, doc_type.name))
                built[doc_type.name] = doc_type.build(world, rng, knobs)
            doc = variant.adapt(built[doc_type.name])
            recorder = Recorder(doc_id, doc, variant.style)
            spent["document models"] += time.perf_counter() - clock
            clock = time.perf_counter()
            output = variant.render(doc, recorder)
            spent[f"render {variant.format}"] += time.perf_counter() - clock
            if variant.format == "pdf":
                pdf_pages += output.pages
            clock = time.perf_counter()
            artifacts = document_artifacts(
                recorder=recorder, doc_type=doc_type.name, fmt=variant.format, file=doc_id,
                data=output.data, pages=output.pages, tier=tier, seed=seed, knobs=knobs,
                omits=variant.omits)
            for content in artifacts.values():
                dump_json(content)
            spent["truth artifacts"] += time.perf_counter() - clock
    return spent, pdf_pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, help="packets per tier (default scales by tier)")
    parser.add_argument("--tiers", default="N1,N2,N3,N4,N5")
    parser.add_argument("--jobs", default="1,2")
    args = parser.parse_args()
    tiers = args.tiers.split(",")
    print(f"cores available: {os.cpu_count()}\n")
    print("whole packets (everything `packetbench generate` does, written to disk)")
    print(f"{'tier':<5}{'jobs':>5}{'packets':>9}{'PDF pages':>11}{'seconds':>9}"
          f"{'pages/s':>10}{'pages/s/core':>14}{'packets/s':>11}")
    for tier in tiers:
        for jobs in (int(j) for j in args.jobs.split(",")):
            count = args.packets or DEFAULT_PACKETS[tier]
            pages_s, packets_s, pages, seconds = whole_packets(tier, count, jobs)
            print(f"{tier:<5}{jobs:>5}{count:>9}{pages:>11}{seconds:>9.2f}{pages_s:>10.1f}"
                  f"{pages_s / jobs:>14.1f}{packets_s:>11.2f}", flush=True)
    print("\nstages on one core (ms per packet) and the PDF renderers' own rate")
    names = ["world", "document models", "render pdf", "render xlsx", "render csv",
             "truth artifacts"]
    print(f"{'tier':<5}" + "".join(f"{n:>17}" for n in names) + f"{'PDF pages/s':>13}")
    for tier in tiers:
        count = args.packets or DEFAULT_PACKETS[tier]
        spent, pdf_pages = stages(tier, count)
        print(f"{tier:<5}" + "".join(f"{spent[n] / count * 1000:>17.1f}" for n in names)
              + f"{pdf_pages / spent['render pdf']:>13.1f}", flush=True)


if __name__ == "__main__":
    main()
