"""Re-scoring the reference corpus: importing, scoring and reconciling its 15 cohorts, timed.

    python measure/nightmare.py [--corpus ../shared/reference/nightmare] [--theirs COPY]

Imports the corpus into a temporary folder, scores every cohort (as `packetbench score`:
score files and results.duckdb) and reconciles them with its published rates, each stage
timed by the wall clock and by this process's CPU time. With --theirs, also times the
corpus's own score-only pipeline (`./run_benchmark.sh --score-only`, run in COPY, a copy of
the corpus you made: it writes into the folder it runs in) for comparison.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from packetbench.benchmark.importers.nightmare.importer import import_corpus
from packetbench.benchmark.importers.nightmare.reconcile import reconcile
from packetbench.benchmark.importers.nightmare.scoring import score_all

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "reference" / "nightmare"


def timed(label: str, work: Callable[[], Any]) -> Any:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    print(
        f"{label:<34} {time.perf_counter() - wall:7.1f} s wall "
        f"{time.process_time() - cpu:7.1f} s CPU"
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT)
    parser.add_argument("--theirs", type=Path, help="a copy of the corpus to run its pipeline in")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "nightmare"
        started = time.perf_counter()
        result = timed("import (5 packets, 15 cohorts)", lambda: import_corpus(args.corpus, out))
        timed(f"score {len(result.cohorts)} cohorts", lambda: score_all(out))
        print(f"{'import + score':<34} {time.perf_counter() - started:7.1f} s wall")
        outcome = timed("reconcile", lambda: reconcile(args.corpus, out))
        print(f"unexplained claims: {outcome.unexplained}")
    if args.theirs is not None:
        wall = time.perf_counter()
        subprocess.run(
            ["./run_benchmark.sh", "--score-only"], cwd=args.theirs, check=True, capture_output=True
        )
        print(
            f"{'theirs: run_benchmark.sh --score-only':<34} "
            f"{time.perf_counter() - wall:7.1f} s wall"
        )


if __name__ == "__main__":
    main()
