"""A sampled audit: a seeded random sample of a corpus's packets, and what it bounds.

The unit is the packet. The audit's universe, leak and hidden-text checks are packet-wide (a
value of one document leaks through another), so a document audited alone would skip them;
a packet is also what a corpus counts, generates and extracts. The sample is drawn per tier
(stratified, proportional allocation, at least one packet from every tier), so every tier's
presentation and document mix is in it; the document types follow, as every packet of a tier
carries its tier's mix of the packet's lines of business.

For each finding kind the audit reports the upper end of a one-sided 95 % interval on the
share of the corpus's packets that have at least one finding of that kind: 3/n when none of
the n sampled packets has one (the rule of three), otherwise the exact Clopper-Pearson bound.
The bound treats the sample as a simple random sample of packets drawn with replacement;
drawing without replacement and stratifying proportionally only narrow the true interval, so
the bound stays conservative. Packets forced into the sample (`--include`) are audited and
their findings reported, but they are not random and take no part in the bound.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packetbench.core.errors import UsageError
from packetbench.truth.packets import Packet, find_packets

CONFIDENCE = 0.95
DEFAULT_SEED = 0
# `packetbench run` audits every packet of a corpus of up to RUN_SAMPLE_ABOVE packets, and a
# seeded sample of RUN_SAMPLE of a larger one (no finding in 200 packets: under 1.5 % of the
# corpus's packets have any one kind of finding, at 95 %).
RUN_SAMPLE_ABOVE = 200
RUN_SAMPLE = 200


@dataclass(frozen=True)
class SampleSize:
    """How many packets to audit: a count, a percentage of the corpus, or all of them."""

    count: int | None = None
    percent: float | None = None

    @property
    def everything(self) -> bool:
        return self.count is None and self.percent is None

    def of(self, population: int) -> int:
        """Packets to draw from a corpus of `population` (never more than it holds)."""
        if self.count is not None:
            return min(self.count, population)
        if self.percent is not None:
            return min(population, max(1, math.ceil(population * self.percent / 100)))
        return population

    def describe(self) -> str:
        if self.count is not None:
            return str(self.count)
        if self.percent is not None:
            return f"{self.percent:g}%"
        return "all"


ALL = SampleSize()


def run_default(population: int) -> SampleSize:
    """What `packetbench run` audits of a corpus of `population` packets by default."""
    return SampleSize(count=RUN_SAMPLE) if population > RUN_SAMPLE_ABOVE else ALL


# `--ocr-sample auto`: OCR reads every audited packet of up to OCR_SAMPLE of them, and a seeded
# sample of OCR_SAMPLE of more (no finding in 100: under 3 % of the audited packets have any
# one kind, at 95 %). OCR is what costs at scale (see
# docs/measurements.md#the-audits-ocr-workers-memory-per-packet-and-cpu-per-hard-packet).
OCR_SAMPLE = 100


def ocr_default(population: int) -> SampleSize:
    """What `--ocr-sample auto` OCR-reads of `population` audited packets."""
    return SampleSize(count=OCR_SAMPLE) if population > OCR_SAMPLE else ALL


def parse_sample(text: str, option: str = "--sample") -> SampleSize:
    """`N` (packets, N >= 1), `P%` (0 < P <= 100) or `all`; UsageError otherwise."""
    raw = text.strip()
    if raw.lower() == "all":
        return ALL
    if raw.endswith("%"):
        try:
            percent = float(raw[:-1])
        except ValueError:
            percent = math.nan
        if not math.isfinite(percent) or not 0 < percent <= 100:
            raise UsageError(
                f"{option} {text!r}: a percentage must be a number above 0 and at most 100"
            )
        return SampleSize(percent=percent)
    if not raw.isdigit() or int(raw) < 1:
        raise UsageError(
            f"{option} {text!r}: give a number of packets (at least 1), a percentage "
            "such as 2%, or all"
        )
    return SampleSize(count=int(raw))


@dataclass
class Sample:
    """The packets a sampled audit reads: `drawn` at random, `forced` by the user."""

    size: SampleSize
    seed: int
    population: int  # packets in the corpus
    by_tier: dict[str, tuple[int, int]]  # tier -> (drawn, packets in the corpus)
    drawn: list[Path] = field(default_factory=list)
    forced: list[Path] = field(default_factory=list)

    @property
    def folders(self) -> list[Path]:
        """Every packet to audit, in packet-id order (folder names are packet ids)."""
        return sorted({*self.drawn, *self.forced}, key=lambda p: (p.name, str(p)))

    @property
    def complete(self) -> bool:
        """Whether every packet of the corpus is audited (nothing is left to bound)."""
        return len(self.folders) == self.population

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": "packet",
            "size": self.size.describe(),
            "seed": self.seed,
            "population": self.population,
            "drawn": len(self.drawn),
            "forced": sorted(p.name for p in self.forced if p not in self.drawn),
            "by_tier": {
                tier: {"drawn": drawn, "packets": total}
                for tier, (drawn, total) in sorted(self.by_tier.items())
            },
        }


def corpus(paths: Iterable[Path]) -> list[Packet]:
    """The packets named by `paths` (packet folders, or folders of packets), each once."""
    seen: dict[Path, Packet] = {}
    for path in paths:
        for packet in find_packets(path):
            seen.setdefault(packet.path, packet)
    return list(seen.values())


def _allocate(sizes: dict[str, int], wanted: int) -> dict[str, int]:
    """Packets per tier: proportional to the tier's size (largest remainders), at least one
    from every tier while `wanted` allows, never more than a tier holds."""
    total = sum(sizes.values())
    tiers = sorted(sizes)
    if wanted >= total:
        return dict(sizes)
    share = {t: wanted * sizes[t] / total for t in tiers}
    out = {t: min(sizes[t], math.floor(share[t])) for t in tiers}
    if wanted >= len(tiers):
        for tier in tiers:
            out[tier] = max(out[tier], 1)
    # Hand out what rounding left over, largest remainder first, then take back any excess
    # the at-least-one rule made, from the tiers furthest above their share.
    order = sorted(tiers, key=lambda t: (-(share[t] - math.floor(share[t])), t))
    while sum(out.values()) < wanted:
        for tier in order:
            if sum(out.values()) < wanted and out[tier] < sizes[tier]:
                out[tier] += 1
    while sum(out.values()) > wanted:
        tier = max(
            (t for t in tiers if out[t] > (1 if wanted >= len(tiers) else 0)),
            key=lambda t: (out[t] - share[t], t),
        )
        out[tier] -= 1
    return out


def draw(
    packets: Sequence[Packet], size: SampleSize, seed: int, include: Sequence[str] = ()
) -> Sample:
    """A seeded stratified sample of `packets`, plus those named by id in `include`.

    The same packets, size and seed always give the same sample. UsageError when an
    included packet id is not in the corpus.
    """
    ids = {packet.packet_id: packet for packet in packets}
    unknown = [name for name in include if name not in ids]
    if unknown:
        raise UsageError(f"--include {unknown[0]!r}: no packet with that id in the corpus")
    tiers: dict[str, list[Packet]] = {}
    for packet in sorted(packets, key=lambda p: (p.packet_id, str(p.path))):
        tiers.setdefault(packet.tier, []).append(packet)
    wanted = size.of(len(packets))
    quota = _allocate({tier: len(members) for tier, members in tiers.items()}, wanted)
    rng = random.Random(seed)
    drawn: list[Path] = []
    for tier in sorted(tiers):
        members = tiers[tier]
        chosen = rng.sample(range(len(members)), quota[tier])
        drawn.extend(members[i].path for i in sorted(chosen))
    return Sample(
        size,
        seed,
        len(packets),
        {tier: (quota[tier], len(members)) for tier, members in tiers.items()},
        drawn,
        [ids[name].path for name in dict.fromkeys(include)],
    )


def upper_bound(hits: int, n: int, confidence: float = CONFIDENCE) -> float:
    """The upper end of a one-sided `confidence` interval on a rate seen `hits` times in `n`
    items: the rule of three (3/n) for none, the exact Clopper-Pearson bound otherwise."""
    if n < 1:
        raise ValueError("a bound needs at least one item")
    if hits == 0:
        return min(1.0, 3 / n)
    if hits >= n:
        return 1.0
    from scipy.stats import beta

    return float(beta.ppf(confidence, hits + 1, n - hits))


@dataclass(frozen=True)
class Bound:
    """For one finding kind: sampled packets with it, of how many, and the corpus bound."""

    problem: str
    packets: int
    sampled: int
    upper: float

    def to_json(self) -> dict[str, Any]:
        return {
            "problem": self.problem,
            "packets_with_finding": self.packets,
            "packets_sampled": self.sampled,
            "rate_upper_95": round(self.upper, 6),
            "rule": "rule of three" if self.packets == 0 else "Clopper-Pearson",
        }


def bounds(
    sample: Sample, problems_by_packet: dict[Path, set[str]], problems: Sequence[str]
) -> list[Bound]:
    """Per finding kind, the bound on the corpus's share of packets with that finding, from
    the randomly drawn packets only (forced ones are not a random sample)."""
    n = len(sample.drawn)
    out = []
    for problem in problems:
        hits = sum(problem in problems_by_packet.get(folder, set()) for folder in sample.drawn)
        out.append(Bound(problem, hits, n, upper_bound(hits, n)))
    return out
