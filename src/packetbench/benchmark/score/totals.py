"""Run-level totals of scored documents, kept as they stream past.

A run's score files hold its totals (overall, by tier, by document type) beside
documents.parquet, which holds every document's own counts. The totals are summed here one
document at a time, in the order documents are scored, so a run holds a few counters per
group however many documents it has. Macro rates add the documents' own (rounded) rates in
that order, exactly as `benchmark.score.rates.summarize` would over the list of them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from packetbench.benchmark.score.field_view import FieldCounts
from packetbench.benchmark.score.rates import CLASSES, UNIVERSES, rate
from packetbench.benchmark.score.verdicts import VERDICTS

if TYPE_CHECKING:
    from packetbench.benchmark.score.scorer import DocumentSummary

CONSISTENCY_TALLIES = ("checks", "passed", "failed", "skipped")
# Keys the outputs wrote, keys their schema lacks (invented), leaves made null for not
# fitting it, and documents scored on what fit (--invalid salvage).
KEY_TALLIES = ("emitted", "invented", "unfit", "salvaged")


@dataclass
class GroundingTotals:
    """Checked and hallucinated values of some documents, and the running sum of their own
    rates (macro)."""

    checked: Counter[str] = field(default_factory=Counter)
    hallucinated: Counter[tuple[str, str]] = field(default_factory=Counter)
    rate_sum: dict[tuple[str, str], float] = field(default_factory=dict)
    with_checks: Counter[str] = field(default_factory=Counter)

    def add(self, checked: dict[str, int], hallucinated: dict[tuple[str, str], int]) -> None:
        for kind in CLASSES:
            self.checked[kind] += checked[kind]
            if checked[kind]:
                self.with_checks[kind] += 1
            for universe in UNIVERSES:
                key = (universe, kind)
                self.hallucinated[key] += hallucinated[key]
                own = rate(hallucinated[key], checked[kind])
                if own is not None:
                    # summing from 0 in document order: the float sum() gives over the list
                    self.rate_sum[key] = self.rate_sum.get(key, 0) + own

    def as_dict(self) -> dict[str, Any]:
        """The shape of `benchmark.score.rates.summarize`."""
        out: dict[str, Any] = {}
        for universe in UNIVERSES:
            out[universe] = {}
            for kind in CLASSES:
                key = (universe, kind)
                count = self.with_checks[kind]
                out[universe][kind] = {
                    "checked": self.checked[kind],
                    "hallucinated": self.hallucinated[key],
                    "rate_micro": rate(self.hallucinated[key], self.checked[kind]),
                    "rate_macro": round(self.rate_sum[key] / count, 6) if count else None,
                    "documents_with_checks": count,
                }
        return out


@dataclass
class Group:
    """The totals of one group of documents (all of them, a tier, a document type)."""

    fields: FieldCounts = field(default_factory=FieldCounts)
    grounding: GroundingTotals = field(default_factory=GroundingTotals)

    def add(self, doc: DocumentSummary) -> None:
        self.fields.add(doc.field_counts())
        tally = doc.grounding()
        self.grounding.add(tally.checked, tally.hallucinated)


@dataclass
class RunTotals:
    """Totals of every document scored so far: overall, by tier, by document type, the
    verdicts and the consistency checks."""

    documents: int = 0
    overall: Group = field(default_factory=Group)
    by_tier: dict[str, Group] = field(default_factory=dict)
    by_doc_type: dict[str, Group] = field(default_factory=dict)
    verdicts: Counter[str] = field(default_factory=Counter)
    consistency: Counter[str] = field(default_factory=Counter)
    keys: Counter[str] = field(default_factory=Counter)  # emitted, invented, unfit, salvaged

    def add(self, doc: DocumentSummary) -> None:
        self.documents += 1
        self.keys.update(dict(zip(KEY_TALLIES, (*doc.keys, int(doc.salvaged)), strict=True)))
        for group in (
            self.overall,
            self.by_tier.setdefault(doc.tier, Group()),
            self.by_doc_type.setdefault(doc.doc_type, Group()),
        ):
            group.add(doc)
        self.verdicts.update(doc.verdict_counts())
        self.consistency.update(dict(zip(CONSISTENCY_TALLIES, doc.consistency, strict=True)))

    def field_breakdown(self, keys: bool = False) -> dict[str, Any]:
        """field_breakdown.json's counts; with `keys` (--invalid salvage) the keys too."""
        counted = {
            "keys": {
                **{name: self.keys[name] for name in KEY_TALLIES},
                "invented_rate": rate(self.keys["invented"], self.keys["emitted"]),
            }
        }
        return {
            **(counted if keys else {}),
            "overall": self.overall.fields.as_dict(),
            "by_tier": {k: g.fields.as_dict() for k, g in sorted(self.by_tier.items())},
            "by_doc_type": {k: g.fields.as_dict() for k, g in sorted(self.by_doc_type.items())},
        }

    def hallucination(self) -> dict[str, Any]:
        return {
            "overall": self.overall.grounding.as_dict(),
            "by_tier": {k: g.grounding.as_dict() for k, g in sorted(self.by_tier.items())},
            "by_doc_type": {k: g.grounding.as_dict() for k, g in sorted(self.by_doc_type.items())},
            "verdicts": {"overall": {v: self.verdicts[v] for v in VERDICTS}},
        }

    def consistency_overall(self) -> dict[str, int]:
        return {name: self.consistency[name] for name in CONSISTENCY_TALLIES}
