"""The two offline baselines (examples/) scored on a small release, beside the simulator.

    nice -n 5 python benchmarks/baselines.py --out WORK [--seed 8800101] [--packets 2]

Builds a dev-only release of tiers N1 and N5 (`--packets` per tier from `--seed`) in
WORK/release, runs `examples/textlayer_baseline.py` and `examples/ppocr_baseline.py` through
`extract --provider command` over the PDFs of their three document types (ACORD 125,
statement of values, loss run; WORK/runs/NAME-pdfs), writes the PP-OCR run's answers (each
record's raw standard output, as the program printed it) as a predictions folder, imports it
with `import predictions --doc-types ... --formats pdf` (WORK/runs/ppocr-imported), scores
every run and compares the two PP-OCR score folders byte for byte. A leaderboard run covers
its whole split, so each baseline runs again over every document (WORK/runs/NAME: the types
it has no rules for are exit-2 error records, its answers come from the response cache);
those two and the simulator's `typical` and `sloppy` profiles are ranked by `packetbench
leaderboard` (WORK/board). Then, per baseline and tier: documents, populated truth fields,
value accuracy (correct / populated truth fields, pooled) with a 95 % percentile bootstrap
interval over the tier's documents (2,000 resamples, numpy seeded with --seed), and the
wrong and omitted shares. Each step's wall time is printed.

The baselines run two at a time (`--concurrency 2`) with the response cache on, so a second
run over the same WORK (or the same packets) answers from the cache. Figures:
docs/measurements.md, "Offline baselines".
"""

from __future__ import annotations

import argparse
import filecmp
import json
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TYPES = ("--doc-types", "acord_125,sov,loss_run", "--formats", "pdf")
BASELINES = {"textlayer": "textlayer_baseline.py", "ppocr": "ppocr_baseline.py"}
RESAMPLES = 2000


def cli(*args: str) -> str:
    """`packetbench ARGS` in this interpreter; its output, or the script stops on a failure."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "packetbench", *args], capture_output=True, text=True, check=False
    )
    took = time.monotonic() - started
    if done.returncode != 0:
        sys.exit(f"packetbench {' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    print(f"[{took:6.1f} s] packetbench {' '.join(args[:2])}: {done.stdout.strip()}")
    return done.stdout


def predictions_of(run: Path, out: Path) -> int:
    """The run's answers as a predictions folder: each ok record's standard output as is."""
    written = 0
    for record in sorted((run / "extractions").glob("*/*.json")):
        found = json.loads(record.read_text(encoding="utf-8"))
        if found["status"] != "ok":
            continue
        target = out / found["packet_id"] / f"{found['doc_id']}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(found["raw_text"], encoding="utf-8")
        written += 1
    return written


def by_tier(run: Path, seed: int) -> dict[str, dict[str, object]]:
    """Per tier: documents, truth fields, value accuracy with its document-bootstrap interval,
    wrong and omitted shares, and the values it wrote that the packet shows nowhere."""
    relation = duckdb.sql(
        "SELECT split_part(packet_id, '-', 1) AS tier, packet_id, doc_id, "
        "count(*) AS fields, count(*) FILTER (outcome = 'correct') AS correct, "
        "count(*) FILTER (outcome = 'wrong') AS wrong, "
        "count(*) FILTER (outcome = 'omitted') AS omitted "
        f"FROM read_parquet('{run / 'scores' / 'fields.parquet'}') WHERE populated "
        "GROUP BY ALL ORDER BY ALL"
    )
    assert relation is not None  # a SELECT always has a relation
    rows = relation.fetchall()
    found: dict[str, dict[str, object]] = {}
    rng = np.random.default_rng(seed)
    for tier in sorted({row[0] for row in rows}):
        docs = np.array([row[3:] for row in rows if row[0] == tier], dtype=float)
        fields, correct, wrong, omitted = docs.sum(axis=0)
        picks = rng.integers(0, len(docs), size=(RESAMPLES, len(docs)))
        rates = docs[picks, 1].sum(axis=1) / docs[picks, 0].sum(axis=1)
        low, high = np.percentile(rates, [2.5, 97.5])
        found[tier] = {
            "documents": len(docs),
            "fields": int(fields),
            "accuracy": round(100 * correct / fields, 1),
            "interval": [round(100 * low, 1), round(100 * high, 1)],
            "wrong": round(100 * wrong / fields, 1),
            "omitted": round(100 * omitted / fields, 1),
        }
    # Values shown nowhere in the packet, numbers and strings apart, as the score counts them.
    checked = json.loads((run / "scores" / "hallucination.json").read_text(encoding="utf-8"))
    for tier, counts in checked["by_tier"].items():
        for kind in ("numbers", "strings"):
            seen = counts["packet"][kind]
            found[tier][f"{kind} hallucinated"] = f"{seen['hallucinated']} of {seen['checked']}"
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=8800101)
    parser.add_argument("--packets", type=int, default=2)
    args = parser.parse_args()
    work: Path = args.out
    work.mkdir(parents=True, exist_ok=True)
    release = work / "release"
    split = release / "dev"
    if not release.exists():
        spec = work / "spec.toml"
        spec.write_text(
            'name = "baselines-mini"\nversion = "1.0"\ngenerator_version = "0.1.0"\n'
            'description = "The offline baselines beside the simulator, tiers N1 and N5."\n'
            f'[split.dev]\ntiers = ["N1", "N5"]\npackets_per_tier = {args.packets}\n'
            f"seed = {args.seed}\n",
            encoding="utf-8",
        )
        cli("release", "build", str(spec), "--out", str(release), "--jobs", "1")
    runs = work / "runs"
    for name, program in BASELINES.items():
        command = f"{sys.executable} {ROOT / 'examples' / program} {{file}} {{schema}}"
        cli("extract", "--provider", "command", "--command", command, "--packets", str(split),
            "--out", str(runs / f"{name}-pdfs"), "--model", name, "--concurrency", "2", *TYPES,
            *(["--resume"] if (runs / f"{name}-pdfs").exists() else []))  # fmt: skip
        cli("score", str(runs / f"{name}-pdfs"), "--packets", str(split))
        # A leaderboard run covers its whole split: the same program over every document (it
        # exits 2 on the types it has no rules for: error records); its twelve answers come
        # from the response cache.
        cli("extract", "--provider", "command", "--command", command, "--packets", str(split),
            "--out", str(runs / name), "--model", name, "--concurrency", "2",
            *(["--resume"] if (runs / name).exists() else []))  # fmt: skip
        cli("score", str(runs / name), "--packets", str(split))
    predicted = work / "ppocr-predictions"
    if not predicted.exists():
        print(f"{predictions_of(runs / 'ppocr-pdfs', predicted)} answers written to {predicted}")
    imported = runs / "ppocr-imported"
    if not imported.exists():
        cli("import", "predictions", str(predicted), "--packets", str(split), "--out",
            str(imported), "--name", "ppocr-imported", *TYPES)  # fmt: skip
    cli("score", str(imported), "--packets", str(split))
    names = sorted(p.name for p in (runs / "ppocr-pdfs" / "scores").iterdir() if p.is_file())
    differ = [
        n for n in names if not filecmp.cmp(runs / "ppocr-pdfs" / "scores" / n,
                                            imported / "scores" / n, shallow=False)
    ]  # fmt: skip
    same = f"{len(names) - len(differ)} of {len(names)} byte-identical"
    print(f"score files of ppocr-pdfs and ppocr-imported: {same}; differ: {differ or 'none'}")
    for profile in ("typical", "sloppy"):
        run = runs / f"sim-{profile}"
        if not run.exists():
            cli("extract", "--provider", "sim", "--profile", profile, "--sim-seed",
                str(args.seed), "--packets", str(split), "--out", str(run))  # fmt: skip
        cli("score", str(run), "--packets", str(split))
    board = work / "board"
    ranked = ("sim-typical", "sim-sloppy", "textlayer", "ppocr")
    cli("leaderboard", *(str(runs / n) for n in ranked), "--release", str(release),
        "--out", str(board), "--force")  # fmt: skip
    print((board / "leaderboard.md").read_text(encoding="utf-8"))
    for name in ("textlayer", "ppocr"):
        print(name, json.dumps(by_tier(runs / f"{name}-pdfs", args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
