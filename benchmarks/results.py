"""Results database and report speed: loading a scored run, reporting and comparing it.

    python benchmarks/results.py [--packets N] [--tiers N1,N2,N3]

Generates packets, extracts them twice with the simulated extractor (typical and sloppy) and
scores both, then times, each in a fresh process (imports excluded): `load_run` (what
`packetbench score` adds after scoring, to write RUN/results.duckdb), `write_report` over both
runs (metric views, four bootstrap intervals of every rate and slice, templates) and
`compare_runs`.
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
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from packetbench.generator.generation import generate

TIMER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from packetbench.benchmark.report.comparison import compare_runs
    from packetbench.benchmark.report.render import write_report
    from packetbench.benchmark.results import load_run
    stage, packets, out, *runs = sys.argv[1:]
    runs = [Path(r) for r in runs]
    started = time.perf_counter()
    if stage == "load":
        load_run(runs[0], Path(packets))
    elif stage == "report":
        write_report(runs, Path(out), force=True)
    else:
        compare_runs(runs)
    print(time.perf_counter() - started)
""")


def _time(stage: str, packets: Path, out: Path, *runs: Path) -> float:
    result = subprocess.run(
        [sys.executable, "-c", TIMER, stage, str(packets), str(out), *map(str, runs)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=10, help="packets per tier")
    parser.add_argument("--tiers", default="N1,N2,N3")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pb-bench-results-"))
    try:
        packets = folder / "packets"
        for tier in args.tiers.split(","):
            generate(tier, 3000, args.packets, packets, jobs=2)
        runs = []
        for profile in ("typical", "sloppy"):
            run = folder / profile
            extract(SimProvider(profile, seed=1), packets, run)
            score_run(run, packets)
            load_run(run, packets)
            runs.append(run)
        claims = sum(1 for _ in (runs[0] / "scores" / "claims.jsonl").open("rb"))
        documents = sum(1 for _ in (runs[0] / "extractions").rglob("*.json"))
        load = _time("load", packets, folder, runs[0])
        report = _time("report", packets, folder / "report", *runs)
        compare = _time("compare", packets, folder, *runs)
        print(
            f"{documents} documents, {claims:,} claims per run "
            f"({args.packets} packets per tier of {args.tiers})"
        )
        print(f"load_run (results.duckdb): {load:.2f} s, {claims / load:,.0f} claims/s")
        print(f"report of two runs:        {report:.2f} s")
        print(f"compare of two runs:       {compare:.2f} s")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
