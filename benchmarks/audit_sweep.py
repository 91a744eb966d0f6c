"""The audit on packets nobody has looked at: K fresh packets per tier, each audited with OCR.

    python benchmarks/audit_sweep.py --tiers N3,N4,N5 --count 30 --seed 800001 --jobs 2 \
        --out audit-sweep

Generates `--count` packets per tier from seeds `--seed` .. `--seed` + count - 1 (the tests use
seeds below 100,000: pick a range above it that no one has tuned on), audits each one as
`packetbench audit --ocr` does (pixel mode: scanned pages judged against their clean selves,
a calibration sample of them read whole by OCR), and prints per tier:

- packets audited, and packets with any finding, by finding kind;
- the audit's status per packet (passed, failed, not verified) and the calibration's: pages
  drawn, boxes compared, how many OCR read the rule's way, packets whose calibration refutes
  the rule or drew nothing;
- boxes the generator judged illegible, and how many the audit's OCR read (`illegible
  readable`: each one a wrong answer key);
- the upper end of a one-sided 95 % interval on the share of a tier's packets with a finding
  (3/n when none of n has one);
- CPU seconds (this process's workers and their tesseract processes) to generate and to audit.

The same table is written as JSON (`OUT/sweep.json`). A packet with a finding, or whose audit
is not verified, is kept under OUT/TIER/ with its audit's JSON beside it; the others are
deleted once audited (`--keep` keeps them all). A packet that does not generate, or whose audit
stops, is a `crash` finding with its error, and the sweep goes on. Exit 0 when no packet has a
finding and every audit passed, 1 otherwise.

`--text-layer` audits without OCR, as `packetbench audit` does without `--ocr`: every document's
text layer, workbook and CSV against the truth, every text-layer attack against its claims, in
about a second a packet, so a sweep can be hundreds of packets wide. What only OCR can settle is
left "not checked" (not a finding); a packet passes when it has no other finding.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from packetbench.audit import audit_packet
from packetbench.audit.result import PROBLEMS, AuditResult
from packetbench.audit.sample import upper_bound
from packetbench.generator.packet import packet_id, write_packet
from packetbench.generator.tiers import PRESETS, resolve
from packetbench.reading.tesseract import Tesseract

TESTS_BELOW = 100_000  # the tests' seeds are all below this


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _one(task: tuple[Path, str, int, bool, bool]) -> dict[str, Any]:
    """`_packet`, or a row saying why the packet did not generate or audit (a finding too:
    a corpus must generate at every seed)."""
    try:
        return _packet(task)
    except Exception as error:  # the row says what it was
        _, tier, seed, _, _ = task
        what = f"{type(error).__name__}: {error}"
        return {
            "packet": packet_id(tier, seed),
            "tier": tier,
            "seed": seed,
            "status": "crashed",
            "findings": {"crash": 1},
            "first_findings": [{"problem": "crash", "detail": what}],
            "illegible_boxes_unread": 0,
            "illegible_boxes_read": 0,
            "calibration": {
                "pages_judged": 0,
                "pages_sampled": 0,
                "boxes": 0,
                "agreed": 0,
                "problem": None,
            },
            "levels": {},
            "recall": {},
            "cpu_generate": 0.0,
            "cpu_audit": 0.0,
        }


def _packet(task: tuple[Path, str, int, bool, bool]) -> dict[str, Any]:
    """Generate one packet, audit it (with OCR unless `text_layer`), and summarize the audit."""
    out, tier, seed, keep, text_layer = task
    folder = out / tier
    folder.mkdir(parents=True, exist_ok=True)
    started = _cpu()
    write_packet(folder, tier, seed, resolve(tier), True)
    generated = _cpu()
    engine = None if text_layer else Tesseract()
    packet = audit_packet(folder / packet_id(tier, seed), engine=engine, ocr_mode="pixel")
    audited = _cpu()
    result = AuditResult([packet], not text_layer)
    pixels = packet.pixels()
    totals = result.totals()
    kinds = Counter(
        f.problem for f in packet.all_findings() if not (text_layer and f.problem == "not_checked")
    )
    status = result.status
    if text_layer and status == "not_verified" and not kinds:
        status = "passed"  # all the text layer can prove holds; the rest is OCR's
    summary = {
        "packet": packet.packet_id,
        "tier": tier,
        "seed": seed,
        "status": status,
        "findings": dict(sorted(kinds.items())),
        "first_findings": [f.to_json() for f in packet.all_findings() if f.problem in kinds][:10],
        "illegible_boxes_unread": totals["illegible_boxes_confirmed"],
        "illegible_boxes_read": kinds.get("illegible_readable", 0),
        "calibration": {
            "pages_judged": pixels.pages if pixels else 0,
            "pages_sampled": pixels.pages_sampled if pixels else 0,
            "boxes": pixels.agreement.boxes if pixels else 0,
            "agreed": pixels.agreement.agreed if pixels else 0,
            "problem": packet.calibration_problem(),
        },
        # The calibration per scan level: OCR's reading of boxes the rule called intact.
        "levels": {
            level: [a.intact_read, a.intact_read + a.intact_unread]
            for level, a in sorted((pixels.levels if pixels else {}).items())
        },
        # What each scan level's readers found of its located values (pixels and OCR; the
        # handwriting on native pages: OCR alone).
        "recall": {
            level: [kinds["fields"]["found"], kinds["fields"]["checked"]]
            for level, kinds in sorted(totals["scans"].items())
            if "fields" in kinds
        },
        "cpu_generate": round(generated - started, 2),
        "cpu_audit": round(audited - generated, 2),
    }
    target = folder / packet.packet_id
    if summary["status"] != "passed" or keep:
        (folder / f"{packet.packet_id}.audit.json").write_text(
            json.dumps(result.to_json(), indent=1, ensure_ascii=False)
        )
    else:
        shutil.rmtree(target)
    return summary


def _tier_table(rows: list[dict[str, Any]]) -> dict[str, Any]:
    with_finding = [r for r in rows if r["findings"]]
    kinds: Counter[str] = Counter()
    packets_by_kind: Counter[str] = Counter()
    for row in rows:
        kinds.update(row["findings"])
        packets_by_kind.update(row["findings"].keys())
    calibration = [r["calibration"] for r in rows]
    boxes = sum(c["boxes"] for c in calibration)
    agreed = sum(c["agreed"] for c in calibration)
    recall: dict[str, list[int]] = {}
    for row in rows:
        for level, (found, checked) in row["recall"].items():
            total = recall.setdefault(level, [0, 0])
            total[0] += found
            total[1] += checked
    levels: dict[str, list[int]] = {}
    for row in rows:
        for level, (read, intact) in row["levels"].items():
            found = levels.setdefault(level, [0, 0])
            found[0] += read
            found[1] += intact
    return {
        "packets": len(rows),
        "calibration_levels": {k: levels[k] for k in sorted(levels)},
        "recall_levels": {k: recall[k] for k in sorted(recall)},
        "packets_with_finding": len(with_finding),
        "packets_with_finding_upper_95": round(upper_bound(len(with_finding), len(rows)), 4),
        "status": dict(Counter(r["status"] for r in rows)),
        "findings": {k: {"packets": packets_by_kind[k], "count": kinds[k]} for k in sorted(kinds)},
        "illegible_boxes": sum(
            r["illegible_boxes_unread"] + r["illegible_boxes_read"] for r in rows
        ),
        "illegible_boxes_read": sum(r["illegible_boxes_read"] for r in rows),
        "calibration_pages": sum(c["pages_sampled"] for c in calibration),
        "calibration_boxes": boxes,
        "calibration_agreed": agreed,
        "calibration_rate": round(agreed / boxes, 4) if boxes else None,
        "packets_calibration_problem": sum(1 for c in calibration if c["problem"]),
        "packets_no_calibration": sum(
            1 for c in calibration if c["pages_judged"] and not c["boxes"]
        ),
        "cpu_generate": round(sum(r["cpu_generate"] for r in rows), 1),
        "cpu_audit": round(sum(r["cpu_audit"] for r in rows), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiers", default="N3,N4,N5")
    parser.add_argument("--count", type=int, default=30, help="packets per tier")
    parser.add_argument("--seed", type=int, default=800_001, help="first seed of every tier")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, default=Path("audit-sweep"))
    parser.add_argument("--keep", action="store_true", help="keep every packet, not only failures")
    parser.add_argument(
        "--text-layer", action="store_true", help="audit without OCR (the text layer only)"
    )
    args = parser.parse_args()
    tiers = [t.strip() for t in args.tiers.split(",") if t.strip()]
    unknown = [t for t in tiers if t not in PRESETS]
    if unknown:
        parser.error(f"--tiers: unknown tier(s) {', '.join(unknown)} (one of {', '.join(PRESETS)})")
    if args.count < 1 or args.jobs < 1:
        parser.error("--count and --jobs must be at least 1")
    if args.seed < TESTS_BELOW:
        print(
            f"note: seeds below {TESTS_BELOW:,} are the tests' range; a sweep there is not fresh",
            file=sys.stderr,
        )
    if args.out.exists() and any(args.out.iterdir()):
        parser.error(f"{args.out}: folder exists and is not empty (choose another --out)")
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.text_layer:
        Tesseract()  # no tesseract: stop before any work
    tasks = [
        (args.out, tier, seed, args.keep, args.text_layer)
        for tier in tiers
        for seed in range(args.seed, args.seed + args.count)
    ]
    wall = time.perf_counter()
    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(_one, task) for task in tasks]
        for future in as_completed(futures):
            row = future.result()
            rows.append(row)
            mark = "ok" if row["status"] == "passed" else row["status"].upper()
            found = ", ".join(f"{k} {v}" for k, v in row["findings"].items())
            print(
                f"{row['packet']}: {mark} {found} (calibration {row['calibration']['agreed']}/"
                f"{row['calibration']['boxes']} boxes on {row['calibration']['pages_sampled']} "
                f"pages; CPU {row['cpu_generate']:.0f} + {row['cpu_audit']:.0f} s) "
                f"[{len(rows)}/{len(tasks)}]",
                flush=True,
            )
    wall = time.perf_counter() - wall
    rows.sort(key=lambda r: (r["tier"], r["seed"]))
    table = {tier: _tier_table([r for r in rows if r["tier"] == tier]) for tier in tiers}
    report = {
        "command": " ".join(sys.argv),
        "seeds": [args.seed, args.seed + args.count - 1],
        "wall_s": round(wall, 1),
        "cpu_s": round(sum(r["cpu_generate"] + r["cpu_audit"] for r in rows), 1),
        "tiers": table,
        "packets": rows,
    }
    (args.out / "sweep.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print()
    head = (
        f"{'tier':<5}{'packets':>8}{'w/ finding':>11}{'upper 95%':>10}{'passed':>8}"
        f"{'illegible':>10}{'read':>6}{'cal. pages':>11}{'cal. boxes':>11}{'agreed':>8}"
        f"{'refuted':>8}{'CPU gen':>9}{'CPU audit':>10}"
    )
    print(head)
    for tier, t in table.items():
        print(
            f"{tier:<5}{t['packets']:>8}{t['packets_with_finding']:>11}"
            f"{t['packets_with_finding_upper_95']:>10.1%}{t['status'].get('passed', 0):>8}"
            f"{t['illegible_boxes']:>10}{t['illegible_boxes_read']:>6}"
            f"{t['calibration_pages']:>11}{t['calibration_boxes']:>11}"
            f"{t['calibration_agreed']:>8}{t['packets_calibration_problem']:>8}"
            f"{t['cpu_generate']:>9.0f}{t['cpu_audit']:>10.0f}"
        )
        read = ", ".join(
            f"{level} {r}/{n} ({r / n:.1%})"
            for level, (r, n) in t["calibration_levels"].items()
            if n
        )
        print(f"      calibration by level (intact boxes OCR read): {read}")
        found = ", ".join(
            f"{level} {f}/{n} ({f / n:.1%})" for level, (f, n) in t["recall_levels"].items() if n
        )
        print(f"      located values found by level: {found}")
        for kind in (*PROBLEMS, "crash"):
            if kind in t["findings"]:
                f = t["findings"][kind]
                print(f"      {kind}: {f['count']} in {f['packets']} packet(s)")
    print(f"wall {wall:.0f} s, CPU {report['cpu_s']:.0f} s; table in {args.out / 'sweep.json'}")
    clean = all(r["status"] == "passed" and not r["findings"] for r in rows)
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
