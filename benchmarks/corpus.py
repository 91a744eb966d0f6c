"""A hard corpus end to end: every tier, each stage as the command a user runs, measured.

    python benchmarks/corpus.py --keep DIR [--per-tier 200] [--small 50] [--jobs 2]
    python benchmarks/corpus.py --keep DIR --stages audit,extract   # again on a kept corpus

Generates `--per-tier` packets of each tier N1-N5 into DIR/packets (first the `--small`
packets of each tier, then the others with `--resume`), then runs `audit --ocr
--ocr-sample 10%` (the text layer of every packet, OCR on a seeded tenth with its bound;
`--ocr-sample` sets another share),
`extract --provider sim`, `score`, `report` and `view` (the document list opened in
headless Chromium, `benchmarks/viewer.py --list-only`) twice: on the first `--small`
packets of each tier (DIR/small, links to the same packets) and on all of them. Each
command runs in its own process group; printed per stage: wall seconds, CPU seconds (user +
system of the command and every process it started), the peak memory of the whole process
group (the sum of its processes' resident sets, sampled every 0.2 s) and of its largest
process, and the machine's load average when it ended (a shared machine's wall times are
read beside it). Memory must not grow with the corpus: the last column set gives the
large corpus's peak over the small one's.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TIERS = ("N1", "N2", "N3", "N4", "N5")
STAGES = ("generate", "audit", "extract", "score", "report", "view")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _group_rss(group: int) -> tuple[int, int]:
    """The summed and the largest resident set (bytes) of the processes of `group`."""
    total = largest = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[2]) != group:  # pgrp
                continue
            rss = int(Path(entry.path, "statm").read_text().split()[1]) * PAGE
        except (OSError, ValueError, IndexError):
            continue  # ended while it was read
        total += rss
        largest = max(largest, rss)
    return total, largest


def measure(command: list[str], log: Path, allowed: tuple[int, ...] = (0,)) -> dict[str, Any]:
    """Run `command` in its own process group; its wall and CPU seconds and peak memory."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    with log.open("w") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        peak = [0, 0]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.2):
                total, largest = _group_rss(process.pid)
                peak[0], peak[1] = max(peak[0], total), max(peak[1], largest)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        code = process.wait()
        done.set()
        sampler.join()
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if code not in allowed:
        raise SystemExit(f"{' '.join(command)}: exit {code}; see {log}")
    return {
        "wall": wall,
        "cpu": cpu,
        "group_mb": peak[0] / 2**20,
        "largest_mb": peak[1] / 2**20,
        "load": os.getloadavg()[0],
        "exit": code,
    }


def small_corpus(packets: Path, small: Path, count: int) -> None:
    """`small`: links to the first `count` packets of each tier of `packets`."""
    shutil.rmtree(small, ignore_errors=True)
    small.mkdir(parents=True)
    for tier in TIERS:
        for packet in sorted(packets.glob(f"{tier}-*"))[:count]:
            (small / packet.name).symlink_to(packet.resolve())


def corpus_stages(
    cli: str,
    packets: Path,
    folder: Path,
    jobs: int,
    stages: list[str],
    sample: str,
    done: Callable[[str, dict[str, Any]], None],
) -> None:
    """Run `stages` on `packets` into `folder`, handing each stage's figures to `done`."""
    run, logs = folder / "run", folder / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    commands = {
        "audit": [
            *(cli, "audit", "--packets", str(packets), "--ocr", "--ocr-sample", sample),
            *("--jobs", str(jobs), "--json"),
        ],
        "extract": [
            *(cli, "extract", "--provider", "sim", "--packets", str(packets)),
            "--out",
            str(run),
        ],
        "score": [cli, "score", str(run), "--packets", str(packets), "--jobs", str(jobs)],
        "report": [cli, "report", str(run), "--out", str(folder / "report"), "--force"],
        "view": [
            *(sys.executable, str(Path(__file__).with_name("viewer.py"))),
            *("--run", str(run), "--packets", str(packets), "--list-only", "--repeat", "3"),
        ],
    }
    for name in stages:
        if name in commands:
            # the audit's findings (exit 1) are figures too; 3: scans the text layer cannot
            # verify (without --ocr)
            row = measure(commands[name], logs / f"{name}.log", (0, 1) if name == "audit" else (0,))
            if name == "view":  # the server is its own process group: its time is the figure
                said = (logs / "view.log").read_text().splitlines()
                row["list"] = next(x for x in said if x.startswith("command to list"))
            print(name, json.dumps(row), flush=True)
            done(name, row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", required=True, help="folder of the corpus and its runs")
    parser.add_argument("--per-tier", type=int, default=200)
    parser.add_argument("--small", type=int, default=50, help="packets per tier of the baseline")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--stages", default=",".join(STAGES))
    parser.add_argument("--ocr-sample", default="10%", help="audit --ocr-sample")
    parser.add_argument(
        "--measured",
        help="a JSON of figures measured already (a run that stopped): its stages are not run",
    )
    args = parser.parse_args()
    # the command of this interpreter's environment, found without it on PATH
    beside = Path(sys.executable).with_name("packetbench")
    cli = str(beside) if beside.is_file() else shutil.which("packetbench") or "packetbench"
    root = Path(args.keep)
    packets, logs = root / "packets", root / "logs"
    stages = [s for s in STAGES if s in args.stages.split(",")]
    rows: dict[str, dict[str, dict[str, Any]]] = {"small": {}, "all": {}}
    if args.measured:
        try:
            measured = json.loads(Path(args.measured).read_text())
            rows.update({key: dict(measured[key]) for key in rows})
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(
                f"corpus.py: {args.measured}: not figures this script wrote ({error})",
                file=sys.stderr,
            )
            raise SystemExit(2) from None
    logs.mkdir(parents=True, exist_ok=True)  # after the figures given are read
    tiers = ",".join(TIERS)
    if "generate" in stages:
        for key, count, resume in (("small", args.small, []), ("all", args.per_tier, ["--resume"])):
            if "generate" in rows[key]:
                continue
            command = [
                *(cli, "generate", "--tiers", tiers, "--count", str(count)),
                *("--seed", str(args.seed), "--out", str(packets), "--jobs", str(args.jobs)),
                *resume,
            ]
            rows[key]["generate"] = measure(command, logs / f"generate-{key}.log")
            print("generate", key, json.dumps(rows[key]["generate"]), flush=True)
            (root / "measured.json").write_text(json.dumps(rows, indent=1))
    small = root / "small"
    small_corpus(packets, small / "packets", args.small)
    for key, folder in (("small", small), ("all", root)):

        def done(name: str, row: dict[str, Any], key: str = key) -> None:
            rows[key][name] = row
            (root / "measured.json").write_text(json.dumps(rows, indent=1))

        todo = [name for name in stages if name not in rows[key]]
        where = folder / "packets" if key == "small" else packets
        corpus_stages(cli, where, folder, args.jobs, todo, args.ocr_sample, done)
    sizes = {"small": args.small * len(TIERS), "all": args.per_tier * len(TIERS)}
    print(
        f"| stage | packets | wall s | CPU s | CPU s/packet | peak MB (all processes) "
        f"| largest process MB | load | peak vs {sizes['small']:,} packets |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in stages:
        for key in ("small", "all"):
            r = rows[key].get(name)
            if r is None:
                continue
            packets_done = sizes[key]
            if name == "generate" and key == "all":
                packets_done -= sizes["small"]  # the others, written with --resume
            if packets_done == 0:
                continue
            base = rows["small"].get(name)
            grows = f"{r['group_mb'] / base['group_mb']:.2f}x" if key == "all" and base else ""
            if name == "view":
                print(f"| view | {packets_done:,} | {r['list']} |")
                continue
            if r["exit"]:
                name = f"{name} (exit {r['exit']})"
            print(
                f"| {name} | {packets_done:,} | {r['wall']:,.0f} | {r['cpu']:,.0f} "
                f"| {r['cpu'] / packets_done:.2f} | {r['group_mb']:,.0f} | {r['largest_mb']:,.0f} "
                f"| {r['load']:.1f} | {grows} |"
            )


if __name__ == "__main__":
    main()
