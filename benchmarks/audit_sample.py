"""A sampled audit of a large corpus with one packet deliberately corrupted.

    python benchmarks/audit_sample.py CORPUS_DIR [--count 1000] [--sample 2%] [--jobs 2]

Generates `--count` N1 packets into CORPUS_DIR unless it already holds them, corrupts one of
them (a statement of values' TIV that its page does not show; a corpus this script made only),
then audits a seeded sample: prints the sample, the bound on each finding kind's rate in the
corpus, and the time, beside the same audit with the corrupted packet forced in (its finding
must be reported) and the whole-corpus audit time the sample saves, estimated from the
sample's seconds per packet.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from packetbench.audit import audit_packets
from packetbench.audit.sample import corpus, draw, parse_sample
from packetbench.core.executors import make_executor
from packetbench.generator.generation import generate
from packetbench.generator.packet import packet_id

MARK = ".corrupted-by-audit-sample-benchmark"


def corrupt(folder: Path) -> None:
    path = folder / "field_truth_sov_pdf.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    entry = next(e for e in data["fields"] if e["path"] == "buildings[0].tiv")
    entry["value"] = float(entry["value"]) + 1
    path.write_text(json.dumps(data), encoding="utf-8")
    (folder.parent / MARK).write_text(folder.name, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--sample", default="2%")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    runner = make_executor("local", args.jobs, None)
    if not (args.corpus / MARK).exists():
        if any(args.corpus.glob("*/packet_truth.json")):
            raise SystemExit(f"{args.corpus}: holds packets this script did not make")
        started = time.perf_counter()
        generate("N1", 1, args.count, args.corpus, executor=runner)
        print(f"generated {args.count} N1 packets in {time.perf_counter() - started:.0f} s")
        size = parse_sample(args.sample)
        drawn = {p.name for p in draw(corpus([args.corpus]), size, args.seed).drawn}
        # The corrupted packet: the first one the sample leaves out, so that the sampled
        # audit passes (and bounds) while the forced-in audit must report it.
        victim = next(
            packet_id("N1", s) for s in range(1, args.count + 1) if packet_id("N1", s) not in drawn
        )
        corrupt(args.corpus / victim)
    victim = (args.corpus / MARK).read_text(encoding="utf-8").strip()
    size = parse_sample(args.sample)
    for include in ((), (victim,)):
        started = time.perf_counter()
        result = audit_packets(
            [args.corpus], sample=size, sample_seed=args.seed, include=include, executor=runner
        )
        seconds = time.perf_counter() - started
        sample = result.sample
        assert sample is not None
        print(
            f"\n--sample {args.sample} --sample-seed {args.seed}"
            + (f" --include {victim}" if include else "")
            + f": {len(result.packets)} of {sample.population} packets audited in "
            f"{seconds:.0f} s ({seconds / len(result.packets):.2f} s a packet, about "
            f"{seconds / len(result.packets) * sample.population / 60:.0f} min for all of "
            f"them); {'passed' if result.ok else 'FAILED'}"
        )
        for bound in result.bounds:
            print(
                f"  {bound.problem:<15} {bound.packets} of {bound.sampled} sampled packets, "
                f"upper 95 % bound {bound.upper:.2%}"
            )
        for packet in result.packets:
            for finding in packet.all_findings():
                print(
                    f"  finding: {finding.problem} {packet.packet_id}/{finding.file} "
                    f"{finding.path} ({finding.detail})"
                )


if __name__ == "__main__":
    main()
