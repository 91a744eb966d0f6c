"""Scale: a corpus end to end (generate, audit, extract with sim, score, report) on this machine.

    python benchmarks/scale.py [--tier N1] [--packets 1000] [--jobs 2] [--small 100]
    python benchmarks/scale.py --keep DIR --stages score,report   # again on a kept corpus
    python benchmarks/scale.py --tier N3 --packets 20 --stages generate,audit --ocr
    python benchmarks/scale.py --ray [--packets 20]      # Ray overhead against local

Each stage runs in a fresh process (as its command would) and reports its wall seconds, the
peak RSS of its main process and of its largest worker, and the machine's load average
(1 minute) when it ended: the figures of a shared machine are read beside its load. The run
prints claims scored per second and a projection of every stage to 10,000 packets (linear:
every stage is a loop over packets with nothing held across them but a run's totals). The
baseline measured in the same run is the scoring and the report of the first `--small`
packets of the same corpus: scoring the whole corpus must stay within 1.5x its peak RSS.

`--keep DIR` builds the corpus in DIR and keeps it; `--stages` runs only some stages on
it (the others' outputs are already there).

With --ray, generate, audit and score run once with `--executor local` and once on a Ray
instance started with `--jobs` CPUs, and the bytes of packets and scores are compared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

STAGE = textwrap.dedent("""
    import json, os, resource, sys, time
    from pathlib import Path
    stage, tier, count, jobs, executor, folder = sys.argv[1:7]
    ocr = sys.argv[7:8] == ["ocr"]
    count, jobs, folder = int(count), int(jobs), Path(folder)
    packets, run = folder / "packets", folder / "run"
    began = time.perf_counter()
    facts = {}
    from packetbench.core.executors import make_executor
    from packetbench.benchmark.errors import BenchmarkError
    runner = make_executor(executor, jobs, None, (BenchmarkError,))
    if stage == "generate":
        from packetbench.generator.generation import generate
        made = generate(tier, 1, count, packets, executor=runner)
        facts["documents"] = sum(s.documents for s in made)
        facts["pdf_pages"] = sum(s.pdf_pages for s in made)
    elif stage == "audit":
        from packetbench.audit import audit_packets
        result = audit_packets([packets], executor=runner, ocr=ocr)
        totals = result.totals()
        facts["failed"] = sum(1 for f in result.findings() if f.problem != "not_checked")
        facts["first"] = [f"{p.packet_id}/{f.file} {f.problem} {f.path} {f.detail}"[:160]
                          for p in result.packets for f in p.all_findings()
                          if f.problem != "not_checked"][:5]
        facts["fields_found"] = totals["fields_found"]
        facts["not_checked"] = totals["fields_not_checked"]
    elif stage == "extract":
        from packetbench.benchmark.extract import extract
        from packetbench.benchmark.providers.sim import SimProvider
        extract(SimProvider("typical", seed=1), packets, run)
    elif stage == "score":
        from packetbench.benchmark.results import load_run
        from packetbench.benchmark.score.scorer import score_run
        result = score_run(run, packets, executor=runner)
        load_run(run, packets)
        facts["claims"] = result.claims
        facts["documents"] = result.documents
    elif stage == "report":
        from packetbench.benchmark.report.render import write_report
        write_report([run], folder / "report", force=True)  # again on a kept corpus
    seconds = time.perf_counter() - began
    facts["load"] = os.getloadavg()[0]
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "rss_mb": own, "worker_rss_mb": workers, **facts}))
""")
STAGES = ("generate", "audit", "extract", "score", "report")


def stage(
    name: str,
    tier: str,
    count: int,
    jobs: int,
    folder: Path,
    executor: str = "local",
    ocr: bool = False,
) -> dict[str, Any]:
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            STAGE,
            name,
            tier,
            str(count),
            str(jobs),
            executor,
            str(folder),
            "ocr" if ocr else "plain",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"{name} failed:\n{out.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def subset(folder: Path, count: int) -> Path:
    """A corpus folder of the first `count` packets of `folder` (symbolic links)."""
    small = folder.parent / f"first-{count}"
    shutil.rmtree(small, ignore_errors=True)
    (small / "packets").mkdir(parents=True)
    for packet in sorted(p for p in (folder / "packets").iterdir() if p.is_dir())[:count]:
        (small / "packets" / packet.name).symlink_to(packet)
    return small


def end_to_end(args: argparse.Namespace) -> None:
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="pb-bench-scale-"))
    stages = [name for name in STAGES if name in args.stages.split(",")]
    try:
        folder = root / "corpus"
        rows = {
            name: stage(
                name, args.tier, args.packets, args.jobs, folder, ocr=args.ocr and name == "audit"
            )
            for name in stages
        }
        # The baseline: the same stages on the first --small packets (scoring needs a run).
        wanted = [name for name in ("score", "report") if name in stages]
        small = subset(folder, args.small) if wanted else folder
        needed = ["extract", "score", "report"] if "report" in wanted else ["extract", "score"]
        baseline = {
            name: stage(name, args.tier, args.small, args.jobs, small)
            for name in (needed if wanted else [])
        }
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    facts = [f"{args.packets:,} {args.tier} packets, sim typical, --jobs {args.jobs}"]
    if "generate" in rows:
        facts.append(
            f"{rows['generate']['documents']:,.0f} documents, "
            f"{rows['generate']['pdf_pages']:,.0f} PDF pages"
        )
    if "score" in rows:
        facts.append(f"{rows['score']['claims']:,.0f} claims")
    if "audit" in rows:
        audit = rows["audit"]
        facts.append(
            f"audit{' --ocr' if args.ocr else ''} findings: {audit['failed']:.0f} "
            f"({audit['fields_found']:,.0f} located values found, "
            f"{audit['not_checked']:,.0f} left to OCR)"
        )
    print(", ".join(facts))
    for finding in rows.get("audit", {}).get("first", []):
        print(f"  audit: {finding}")
    print(
        f"{'stage':<9} {'seconds':>9} {'s/packet':>9} {'main RSS MB':>12} "
        f"{'worker RSS MB':>14} {'10,000 packets':>15} {'load':>6}"
    )
    total = 0.0
    for name in stages:
        r = rows[name]
        total += r["seconds"]
        per = r["seconds"] / args.packets
        print(
            f"{name:<9} {r['seconds']:>9.1f} {per:>9.3f} {r['rss_mb']:>12.0f} "
            f"{r['worker_rss_mb']:>14.0f} {per * 10_000 / 3600:>13.2f} h {r['load']:>6.1f}"
        )
    print(
        f"{'total':<9} {total:>9.1f} {total / args.packets:>9.3f} {'':>12} {'':>14} "
        f"{total / args.packets * 10_000 / 3600:>13.2f} h"
    )
    if "score" in rows:
        print(
            f"score: {rows['score']['claims'] / rows['score']['seconds']:,.0f} claims/s "
            f"(--jobs {args.jobs}, results.duckdb load included)"
        )
    for name, bound in (("score", 1.5), ("report", None)):
        if name not in rows:
            continue
        big, little = rows[name], baseline[name]
        ratio = big["rss_mb"] / little["rss_mb"]
        verdict = f"; bound {bound}x: {'ok' if ratio <= bound else 'EXCEEDED'}" if bound else ""
        print(
            f"{name} memory: {args.packets:,} packets {big['rss_mb']:.0f} MB vs "
            f"{args.small:,} packets {little['rss_mb']:.0f} MB peak RSS -> {ratio:.2f}x"
            f"{verdict}; workers {big['worker_rss_mb']:.0f} vs "
            f"{little['worker_rss_mb']:.0f} MB; {little['seconds']:.1f} s at "
            f"{args.small:,} packets"
        )


def _tree(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.name.endswith(".duckdb"):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def ray_overhead(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="pb-bench-ray-"))
    try:
        seconds: dict[str, dict[str, float]] = {}
        trees: dict[str, tuple[str, str]] = {}
        for executor in ("local", "ray"):
            folder = root / executor
            seconds[executor] = {}
            for name in ("generate", "audit", "extract", "score"):
                began = time.perf_counter()
                stage(name, args.tier, args.packets, args.jobs, folder, executor)
                seconds[executor][name] = time.perf_counter() - began
            trees[executor] = (_tree(folder / "packets"), _tree(folder / "run" / "scores"))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(
        f"{args.packets} {args.tier} packets, --jobs {args.jobs}; seconds per stage with "
        "process start-up (Ray: its instance starts in each stage's process)"
    )
    print(f"{'stage':<9} {'local':>8} {'ray':>8} {'overhead':>9}")
    for name in ("generate", "audit", "score"):
        local, ray = seconds["local"][name], seconds["ray"][name]
        print(f"{name:<9} {local:>8.1f} {ray:>8.1f} {ray - local:>+8.1f}s")
    same = trees["local"] == trees["ray"]
    print(f"packets and scores byte-identical across executors: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tier", default="N1")
    parser.add_argument("--packets", type=int, default=1000)
    parser.add_argument("--small", type=int, default=100, help="packets of the baseline")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", help="build the corpus in this folder and keep it")
    parser.add_argument(
        "--stages",
        default=",".join(STAGES),
        help="stages to run (the others' outputs are in --keep's folder)",
    )
    parser.add_argument("--ray", action="store_true", help="Ray overhead against local")
    parser.add_argument(
        "--ocr", action="store_true", help="audit with --ocr (reads scanned and attacked pages)"
    )
    args = parser.parse_args()
    (ray_overhead if args.ray else end_to_end)(args)


if __name__ == "__main__":
    main()
