"""Scoring throughput: claims scored per second on one core.

    python benchmarks/score.py [--packets N] [--tiers N1,N2,N3] [--profile typical]

Generates packets into a temporary folder, extracts them with the simulated extractor, then
times `score_run` in a fresh process (cold caches, as a user's `packetbench score` runs). The
figure covers everything scoring does: reading truth and records, building every universe,
validating, comparing, grounding, verdicts, arithmetic checks and writing the score files.
The universe stage is also timed on its own. Target: at least 50,000 claims/s on one core.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.generator.generation import generate

TIMER = textwrap.dedent("""
    import gc, sys, time
    from pathlib import Path
    from packetbench.truth import universe
    from packetbench.truth.packets import find_packets
    from packetbench.benchmark.score.scorer import score_run
    run, packets = Path(sys.argv[1]), Path(sys.argv[2])
    started = time.perf_counter()
    result = score_run(run, packets)
    seconds = time.perf_counter() - started
    universe._contribution.cache_clear()
    gc.disable()  # as score_run does
    clock = time.perf_counter()
    for packet in find_packets(packets):
        universe.build(packet.path)
    universes = time.perf_counter() - clock
    print(result.claims, result.documents, seconds, universes)
""")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=6, help="packets per tier")
    parser.add_argument("--tiers", default="N1,N2,N3")
    parser.add_argument("--profile", default="typical")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pb-bench-score-"))
    try:
        packets = folder / "packets"
        for tier in args.tiers.split(","):
            generate(tier, 2000, args.packets, packets)
        run = folder / "run"
        extract(SimProvider(args.profile, seed=1), packets, run)
        out = subprocess.run(
            [sys.executable, "-c", TIMER, str(run), str(packets)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        claims, documents = int(out[0]), int(out[1])
        seconds, universes = float(out[2]), float(out[3])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"tiers {args.tiers}, {args.packets} packets each, sim profile {args.profile}")
    print(f"documents scored: {documents}, claims: {claims}")
    print(f"score_run: {seconds:.2f} s -> {claims / seconds:,.0f} claims/s (one core, cold)")
    print(
        f"of which building universes: {universes:.2f} s; everything else "
        f"{claims / max(seconds - universes, 1e-9):,.0f} claims/s"
    )


if __name__ == "__main__":
    main()
