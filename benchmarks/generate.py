"""Generator throughput per tier, with presentation patterns on and off, and what patterns cost.

    python benchmarks/generate.py [--packets N] [--tiers N1,N2,N3] [--jobs 1,2] [--no-costs]
    python benchmarks/generate.py --vs REF [--tiers N1,N4,N5] [--packets N] [--pairs 5]

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
4. Scanned pages (`benchmarks/scan.py`'s first part): per scan level, scanned pages per second
   on one core beside the minimal work for one scanned page in the same run (pdfium render at
   the level's resolution plus one image encode), and beside them the scan as the generator
   makes it (judged: the legibility rule's clean side and the decoded image too); then, per
   tier, all levels in the proportions the packets of view 1 (patterns on, one job) scanned
   their pages, and that tier's whole packets per second from view 1; the issue's target
   ratio is 0.5.

`--cpu` times the one-job runs and the stages by the process's CPU time instead of the wall
clock: on a machine other work is sharing, that is what one free core would take.

`--vs REF` prints only this: whole packets per tier (patterns on, one job, written to disk as
in view 1) made by another checkout's code (REF: its root or its `src` folder) and by this
one's, each run in a process of its own on the same seeds, old and new in turn (the order
swapped every pair), each run's CPU time. Per pair the ratio new/old in packets per second
(old seconds over new seconds), then per tier their median and geometric mean. For N1, each
run also draws its packets' PDF pages again with reportlab alone, from their finished display
lists (`render.emit.emit_pdf`: the canvas calls and the save, none of the layout, truth,
patterns, workbooks or disk), and the tier's whole-packet page rate is given as a share of
that rate. Each ratio and share is given again by user CPU time alone: the system time of
writing a packet's files (131 for N1) varies several-fold between identical runs on a
machine whose file creation is slow, and swamps a few per cent.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from scan import mixed, scanned_pages, throughput  # benchmarks/scan.py, beside this script

from packetbench.generator.generation import generate
from packetbench.generator.packet import Stopwatch, build_packet
from packetbench.generator.patterns.base import catalogue
from packetbench.generator.render.scan_levels import LEVELS
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


def reportlab_rate(tier: str, packets: int) -> tuple[float, float]:
    """PDF pages per CPU second (and per user CPU second) of reportlab drawing the pages of
    packets FIRST_SEED.. of `tier` again from their finished display lists (every
    `emit_pdf` call a packet's documents make, repeated: canvas calls and save only)."""
    from unittest import mock

    from packetbench.generator.render import pdf

    # `--vs` runs this in the other checkout too: one whose PdfDocument still emits its pages
    # itself (`PdfDocument._emit_pages(pages, ...)`) is measured there.
    owner: Any = pdf if hasattr(pdf, "emit_pdf") else pdf.PdfDocument
    name, at = ("emit_pdf", 2) if owner is pdf else ("_emit_pages", 1)  # where `pages` is
    emit = getattr(owner, name)
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def kept(*args: Any, **kwargs: Any) -> bytes:
        calls.append((args, kwargs))
        return bytes(emit(*args, **kwargs))

    with mock.patch.object(owner, name, kept):
        knobs = resolve(tier)
        for seed in range(FIRST_SEED, FIRST_SEED + packets):
            build_packet(tier, seed, knobs)
    started, user = time.process_time(), _user()
    for args, kwargs in calls:
        emit(*args, **kwargs)
    pages = sum(len(args[at] if len(args) > at else kwargs["pages"]) for args, kwargs in calls)
    return pages / (time.process_time() - started), pages / (_user() - user)


def _user() -> float:
    """This process's user CPU seconds (its system time left out: on a machine whose file
    creation is slow and uneven, the same packets' system time varied from 0.2 to 1.4 s)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def one_run(tier: str, packets: int, baseline: bool) -> None:
    """`--vs`'s worker: whole packets of `tier` made once (after one packet that warms the
    caches), timed by this process's CPU time; one JSON line on standard output."""
    import packetbench

    folder = Path(tempfile.mkdtemp(prefix=f"pb-vs-{tier}-"))
    try:
        generate(tier, FIRST_SEED - 1, 1, folder)
        started, user = time.process_time(), _user()
        summaries = generate(tier, FIRST_SEED, packets, folder)
        seconds, user = time.process_time() - started, _user() - user
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    result = {
        "package": packetbench.__file__,
        "seconds": seconds,
        "user": user,
        "pages": sum(s.pdf_pages for s in summaries),
        "reportlab": reportlab_rate(tier, packets) if baseline else None,
    }
    print(json.dumps(result), flush=True)


def source_of(checkout: Path) -> Path:
    """The folder that holds `packetbench` in a checkout given by its root or its `src`."""
    for folder in (checkout, checkout / "src"):
        if (folder / "packetbench" / "__init__.py").is_file():
            return folder.resolve()
    raise SystemExit(f"{checkout}: no packetbench package there nor in its src/")


def run_with(source: Path, tier: str, packets: int, baseline: bool) -> dict[str, Any]:
    """`one_run` in a process of its own that imports packetbench from `source`."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(source), str(source.parent)])}
    command = [sys.executable, __file__, "--worker", tier, "--packets", str(packets)]
    if baseline:
        command.append("--baseline")
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{source} ({tier}) failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if not Path(result["package"]).resolve().is_relative_to(source):
        raise SystemExit(f"{source}: the run imported packetbench from {result['package']}")
    return result


def versus(reference: Path, tiers: list[str], packets: int | None, pairs: int) -> None:
    """Old (`reference`) and new (this checkout) in turn, pair by pair (see `--vs`)."""
    old, new = source_of(reference), source_of(Path(__file__).resolve().parents[1])
    print(f"old: {old}\nnew: {new}\nCPU seconds per run, one job; ratio = new/old packets/s")
    for tier in tiers:
        count = packets or DEFAULT_PACKETS[tier]
        seeds = f"seeds {FIRST_SEED}-{FIRST_SEED + count - 1}"
        print(f"\n{tier}: {count} packets a run ({seeds}), {pairs} pairs")
        ratios: list[float] = []
        user_ratios: list[float] = []
        shares: dict[str, list[float]] = {"old": [], "new": []}
        user_shares: dict[str, list[float]] = {"old": [], "new": []}
        for pair in range(pairs):
            order = [("old", old), ("new", new)]
            runs = dict(
                (label, run_with(source, tier, count, tier == "N1"))
                for label, source in (order if pair % 2 == 0 else order[::-1])
            )
            ratio = runs["old"]["seconds"] / runs["new"]["seconds"]
            ratios.append(ratio)
            line = (
                f"  pair {pair + 1}: old {runs['old']['seconds']:.2f} s, "
                f"new {runs['new']['seconds']:.2f} s, ratio {ratio:.3f}"
            )
            user_ratios.append(runs["old"]["user"] / runs["new"]["user"])
            line += f" (user time {user_ratios[-1]:.3f})"
            for label, run in runs.items():
                if run["reportlab"]:
                    cpu_rate, user_rate = run["reportlab"]
                    share = run["pages"] / run["seconds"] / cpu_rate
                    shares[label].append(share)
                    user_shares[label].append(run["pages"] / run["user"] / user_rate)
                    line += (
                        f", {label} {share:.3f} of reportlab (user time "
                        f"{user_shares[label][-1]:.3f})"
                    )
            print(line, flush=True)
        for name, values in (("", ratios), (" by user time", user_ratios)):
            geometric = math.exp(statistics.fmean(math.log(r) for r in values))
            print(
                f"{tier} ratio new/old packets/s{name}: median {statistics.median(values):.3f}"
                f", geometric mean {geometric:.3f}"
            )
        for name, by_label in (("", shares), (", by user time", user_shares)):
            for label, values in by_label.items():
                if values:
                    print(
                        f"{tier} {label}: whole packets' PDF pages/s as a share of reportlab "
                        f"drawing the same pages{name}: median {statistics.median(values):.3f}"
                    )


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
    parser.add_argument(
        "--vs",
        metavar="REF",
        type=Path,
        help="only whole packets, this checkout's against the checkout REF, paired run by run",
    )
    parser.add_argument("--pairs", type=int, default=5, help="--vs: old/new pairs per tier")
    parser.add_argument("--worker", metavar="TIER", help=argparse.SUPPRESS)
    parser.add_argument("--baseline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        one_run(args.worker, args.packets or DEFAULT_PACKETS[args.worker], args.baseline)
        return
    if args.vs:
        versus(args.vs, args.tiers.split(","), args.packets, args.pairs)
        return
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
