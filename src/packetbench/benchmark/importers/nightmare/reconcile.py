"""The corpus's published rates beside ours, and every claim judged differently, explained.

For each cohort: its published numeric and string hallucination rates and field breakdown,
read from its own ``results_aggregate/`` files; ours from the scored run (packet and document
universe, micro and macro, with bootstrap intervals over documents); and every claim the two
methods judge differently, grouped into named causes (`attribution`) with a count and an
example each. The unexplained remainder counts what the two ends of the attribution fail to
reproduce: its per-document counts as published, our per-document counts as scored. Then the
cohorts ranked both ways, and our paired sign tests (Holm-corrected) within each effort.

Writes OUT/reconciliation.json and OUT/reconciliation.md (template
``templates/importers/reconciliation.md.j2``); the same import always gives the same bytes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from packetbench.benchmark.importers.nightmare import attribution as A
from packetbench.benchmark.importers.nightmare import their_rules as T
from packetbench.benchmark.importers.nightmare.corpus import Corpus, read_corpus
from packetbench.benchmark.importers.nightmare.scoring import runs_of
from packetbench.benchmark.records import read_record, record_path
from packetbench.benchmark.report.render import interval, md_cell, pct
from packetbench.benchmark.runs import read_run
from packetbench.benchmark.score.field_view import compare
from packetbench.benchmark.score.outputs import read_documents
from packetbench.benchmark.score.rates import rate
from packetbench.benchmark.score.scorer import (
    EXCLUDE,
    INVALID_POLICIES,
    SALVAGE,
    PacketTask,
    score_packet,
)
from packetbench.benchmark.score.totals import RunTotals
from packetbench.benchmark.stats import bootstrap
from packetbench.benchmark.stats.paired import holm, sign_test
from packetbench.core.packet_files import read_json
from packetbench.core.templates import environment
from packetbench.core.writing import write_atomic, write_json
from packetbench.truth import namespaces, validate
from packetbench.truth import universe as universes
from packetbench.truth.namespaces.nightmare import raw_path
from packetbench.truth.packets import Packet, find_packets

CLASSES = ("numbers", "strings")
ALPHA = 0.05


@dataclass
class CohortReconciliation:
    cohort: str
    published: dict[str, Any]
    ours: dict[str, Any]
    differing: int = 0
    causes: Counter[str] = field(default_factory=Counter)
    examples: dict[str, dict[str, Any]] = field(default_factory=dict)
    effects: dict[str, dict[str, int]] = field(default_factory=dict)
    unexplained: int = 0
    unexplained_detail: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "cohort": self.cohort,
            "published": self.published,
            "ours": self.ours,
            "claims_judged_differently": self.differing,
            "causes": [
                {
                    "cause": c,
                    "claims": n,
                    "by_verdicts": self.effects[c],
                    "example": self.examples[c],
                }
                for c, n in sorted(self.causes.items(), key=lambda i: (-i[1], i[0]))
            ],
            "unexplained": self.unexplained,
            "unexplained_detail": self.unexplained_detail,
        }


@dataclass
class Reconciliation:
    cohorts: list[CohortReconciliation]
    ranking: list[dict[str, Any]]
    paired: list[dict[str, Any]]

    @property
    def unexplained(self) -> int:
        return sum(c.unexplained for c in self.cohorts)

    def as_dict(self) -> dict[str, Any]:
        return {
            "cohorts": [c.as_dict() for c in self.cohorts],
            "ranking": self.ranking,
            "paired": self.paired,
            "unexplained": self.unexplained,
        }

    def table(self) -> str:
        """The console summary: one line per cohort."""
        lines = [
            f"{'cohort':18} {'docs':>5} {'theirs num':>10} {'ours num':>9} {'theirs str':>10} "
            f"{'ours str':>9} {'differ':>7} {'unexpl':>6}  top cause"
        ]
        for c in self.cohorts:
            top = max(c.causes.items(), key=lambda i: (i[1], i[0]))[0] if c.causes else "-"
            lines.append(
                f"{c.cohort:18} {c.ours['documents']:>5} {pct(c.published['numbers']['rate']):>10} "
                f"{pct(c.ours['packet']['numbers']['rate_micro']):>9} "
                f"{pct(c.published['strings']['rate']):>10} "
                f"{pct(c.ours['packet']['strings']['rate_micro']):>9} {c.differing:>7,} "
                f"{c.unexplained:>6,}  {top}"
            )
        return "\n".join(lines)


def _published(corpus: Corpus, cohort: str) -> dict[str, Any]:
    report = corpus.aggregate("hallucination_report.json").get(cohort) or {}
    overall = (report.get("aggregate") or {}).get("overall") or {}
    breakdown = (corpus.aggregate("field_breakdown.json").get(cohort) or {}).get("overall") or {}
    return {
        "documents": overall.get("docs"),
        "numbers": {
            "checked": overall.get("numbers_checked"),
            "hallucinated": overall.get("numbers_hallucinated"),
            "rate": overall.get("number_hallucination_rate"),
        },
        "strings": {
            "checked": overall.get("strings_checked"),
            "hallucinated": overall.get("strings_hallucinated"),
            "rate": overall.get("string_hallucination_rate"),
        },
        "fields": {
            "scored": breakdown.get("fields_scored"),
            "correct": breakdown.get("correctness_rate_micro"),
            "wrong": breakdown.get("wrong_value_rate_micro"),
            "omitted": breakdown.get("omission_rate_micro"),
        },
    }


def _grounding(run: Path) -> dict[str, dict[str, Any]]:
    """Each scored document's grounding counts and rates (scores/documents.parquet)."""
    return {key: doc["grounding"] for key, doc in read_documents(run / "scores").items()}


def _ours(run: Path) -> dict[str, Any]:
    scores = read_json(run / "scores" / "hallucination.json")
    fields = read_json(run / "scores" / "field_breakdown.json")
    docs = _grounding(run)
    keys = sorted(docs)
    out: dict[str, Any] = {
        "documents": len(keys),
        "policy": fields.get("invalid_policy", EXCLUDE),
        "salvaged": len(fields.get("salvaged") or []),
        "invalid_excluded": len((fields.get("excluded") or {}).get("invalid") or []),
        "keys": fields.get("keys"),
    }
    for universe in ("packet", "document"):
        num = np.array(
            [[docs[k][universe][c]["hallucinated"] for c in CLASSES] for k in keys],
            dtype=np.float64,
        ).reshape(len(keys), len(CLASSES))
        den = np.array(
            [[docs[k][universe][c]["checked"] for c in CLASSES] for k in keys], dtype=np.float64
        ).reshape(len(keys), len(CLASSES))
        found = bootstrap.intervals(num, den)
        out[universe] = {
            c: {
                **scores["overall"][universe][c],
                "interval_micro": [found.micro[i].low, found.micro[i].high],
                "interval_macro": [found.macro[i].low, found.macro[i].high],
            }
            for i, c in enumerate(CLASSES)
        }
    overall = fields["overall"]
    gt = overall["gt_fields"]
    out["fields"] = {
        "scored": gt,
        **{k: (overall[k] / gt if gt else None) for k in ("correct", "wrong", "omitted")},
    }
    return out


def _under_policy(run: Path, packets: dict[str, Packet], policy: str) -> dict[str, Any]:
    """Our packet-universe micro rates of `run` with its invalid outputs excluded or
    salvaged (`score --invalid`): the figures of the policy the run was not scored with,
    beside those of the one it was. A valid output scores the same under both, so only what
    differs is done: a salvaged run's rates without its salvaged documents
    (documents.parquet), or an excluded run's rates with its invalid outputs scored, salvaged,
    in memory, and the keys of its valid outputs counted (`validate.fit`)."""
    fields = read_json(run / "scores" / "field_breakdown.json")
    salvaged = {entry["document"] for entry in fields.get("salvaged") or []}
    docs = {k: g for k, g in _grounding(run).items() if k not in salvaged}
    sums = {
        c: [sum(d["packet"][c][n] for d in docs.values()) for n in ("checked", "hallucinated")]
        for c in CLASSES
    }
    keys: Counter[str] = Counter()
    documents = len(docs)
    if policy == SALVAGE:
        invalid = {entry["document"] for entry in fields["excluded"]["invalid"]}
        scored = RunTotals()
        for packet in packets.values():
            wanted = tuple(
                d.doc_id for d in packet.documents if f"{packet.packet_id}/{d.doc_id}" in invalid
            )
            if wanted:
                for doc in score_packet(PacketTask(run, packet, wanted, SALVAGE)).documents:
                    scored.add(doc)
            for d in packet.documents:
                if f"{packet.packet_id}/{d.doc_id}" in docs:
                    schema = namespaces.resolve(d.schema, packet.path)
                    output = read_record(record_path(run, packet.packet_id, d.doc_id)).output
                    keys["emitted"] += validate.fit(schema.model, schema.project(output)).keys
        documents += scored.documents
        keys.update(scored.keys)
        extra = scored.overall.grounding.as_dict()["packet"]
        for c in CLASSES:
            sums[c][0] += extra[c]["checked"]
            sums[c][1] += extra[c]["hallucinated"]
    grounding = {
        c: {"checked": n, "hallucinated": h, "rate_micro": rate(h, n)} for c, (n, h) in sums.items()
    }
    return _policy_rates(documents, grounding, keys)


def _policy_rates(documents: int, grounding: dict[str, Any], keys: Any) -> dict[str, Any]:
    return {
        "documents": documents,
        **{
            c: {
                "checked": grounding[c]["checked"],
                "hallucinated": grounding[c]["hallucinated"],
                "rate": grounding[c]["rate_micro"],
            }
            for c in CLASSES
        },
        "salvaged": keys["salvaged"],
        "invented_keys": keys["invented"],
        "keys_written": keys["emitted"],
    }


def _both_policies(run: Path, ours: dict[str, Any], packets: dict[str, Packet]) -> None:
    """ours["policies"]: the rates under both `--invalid` policies (see `_under_policy`)."""
    own = ours["policy"]
    keys = ours.get("keys") or {}
    ours["policies"] = {
        own: _policy_rates(
            ours["documents"],
            ours["packet"],
            {
                "salvaged": ours["salvaged"],
                "invented": keys.get("invented", 0),
                "emitted": keys.get("emitted", 0),
            },
        ),
        **{other: _under_policy(run, packets, other) for other in INVALID_POLICIES if other != own},
    }
    ours["policies"] = {p: ours["policies"][p] for p in INVALID_POLICIES}


def _our_values(packet: Packet) -> set[Any]:
    """The values our packet universe is built from (universe.document_universe reads the
    same keys)."""
    values: set[Any] = set()
    files = packet.files()
    for doc in packet.documents:
        values.update(universes.field_values(files.field_truth(doc.doc_id)["fields"]))
        values.update(s["text"] for s in files.rendered_universe(doc.doc_id)["strings"])
    return values


def _contexts(corpus: Corpus, packets: dict[str, Packet]) -> dict[str, A.Context]:
    contexts = {}
    for source in corpus.packets:
        packet = packets[source.packet_id]
        groups = T.universe_groups(
            read_json(corpus.root / "ground_truth" / f"{source.name}.json"),
            source.folder / "ground_truth",
        )
        ours_as_theirs = T.TheirUniverse()
        for value in _our_values(packet):
            ours_as_theirs.add_scalar(value)
        contexts[source.packet_id] = A.Context(
            T.union(groups), ours_as_theirs.finish(), universes.build(packet.path).packet, groups
        )
    return contexts


def _tally(verdicts: list[str]) -> tuple[int, int, int, int]:
    """(strings checked, strings hallucinated, numbers checked, numbers hallucinated)."""
    count = Counter(verdicts)
    return (
        count["string:ok"] + count["string:hallucinated"],
        count["string:hallucinated"],
        count["number:ok"] + count["number:hallucinated"],
        count["number:hallucinated"],
    )


def _document(
    rec: CohortReconciliation,
    packet: Packet,
    doc_id: str,
    run: Path,
    ctx: A.Context,
    published: dict[str, Any] | None,
    scored: dict[str, Any] | None,
    policy: str = EXCLUDE,
) -> None:
    key = f"{packet.packet_id}/{doc_id}"
    path = record_path(run, packet.packet_id, doc_id)
    record = read_record(path) if path.exists() else None
    if record is None or record.status != "ok" or record.output is None:
        if published is not None or scored is not None:
            rec.unexplained += 1
            rec.unexplained_detail.append(f"{key}: scored without an ok record")
        return
    doc = next(d for d in packet.documents if d.doc_id == doc_id)
    schema = namespaces.resolve(doc.schema, packet.path)
    output = schema.project(record.output)
    problem = validate.problem(schema.model, output)
    claims = {}
    salvaged = problem is not None and policy == SALVAGE
    dropped: list[tuple[str, str]] = []  # (path, why) of what salvage left out
    if salvaged:
        fitted = validate.fit(schema.model, output)
        output = fitted.output
        dropped = [(p, "invented") for p in fitted.invented] + [(p, "unfit") for p in fitted.unfit]
    if problem is None or salvaged:
        comparison = compare(schema.model, schema.project(packet.truth(doc_id)), output)
        claims = {raw_path(c.source): c for c in comparison.claims}
    chains = []
    for leaf_path, value in T.leaves(record.output):
        where = T.dotted(leaf_path)
        leaf = A.Leaf(
            leaf_path,
            value,
            claims.get(where),
            problem is None or salvaged,
            _dropped(where, dropped) if salvaged else None,
        )
        chain = A.verdicts(leaf, ctx)
        chains.append(chain)
        rung = A.first_change(chain)
        if rung is None:
            continue
        cause = A.diagnose(rung, leaf, chain, ctx, problem)
        rec.differing += 1
        rec.causes[cause] += 1
        effect = rec.effects.setdefault(cause, {})
        move = f"{chain[0]} -> {chain[-1]}"
        effect[move] = effect.get(move, 0) + 1
        rec.examples.setdefault(
            cause,
            {
                "document": key,
                "path": T.dotted(leaf_path),
                "value": value,
                "theirs": chain[0],
                "ours": chain[-1],
            },
        )
    theirs_end = _tally([c[0] for c in chains])
    ours_end = _tally([c[-1] for c in chains])
    expected_theirs = (
        (
            published["strings_checked"],
            published["strings_hallucinated"],
            published["numbers_checked"],
            published["numbers_hallucinated"],
        )
        if published
        else (0, 0, 0, 0)
    )
    ours_doc = (scored or {}).get("packet")
    expected_ours = (
        (
            ours_doc["strings"]["checked"],
            ours_doc["strings"]["hallucinated"],
            ours_doc["numbers"]["checked"],
            ours_doc["numbers"]["hallucinated"],
        )
        if ours_doc
        else (0, 0, 0, 0)
    )
    for name, got, want in (
        ("theirs", theirs_end, expected_theirs),
        ("ours", ours_end, expected_ours),
    ):
        off = sum(abs(g - w) for g, w in zip(got, want, strict=True))
        if off:
            rec.unexplained += off
            rec.unexplained_detail.append(f"{key}: {name} {got} != {want}")


def _dropped(path: str, dropped: list[tuple[str, str]]) -> str | None:
    """Why salvage left the raw leaf at `path` out ("invented", "unfit"), or None: it is at or
    under a path salvage dropped (a list of strings' items are projected to `[i].item`)."""
    for where, why in dropped:
        where = raw_path(where)
        if path == where or path.startswith((f"{where}.", f"{where}[")):
            return why
    return None


def _reconcile_cohort(
    corpus: Corpus, run: Path, packets: dict[str, Packet], contexts: dict[str, A.Context]
) -> CohortReconciliation:
    cohort = run.name
    report = corpus.aggregate("hallucination_report.json").get(cohort) or {}
    published_docs = report.get("docs") or {}
    scored_docs = _grounding(run)
    rec = CohortReconciliation(cohort, _published(corpus, cohort), _ours(run))
    _both_policies(run, rec.ours, packets)
    for source in corpus.packets:
        packet = packets[source.packet_id]
        for doc in packet.documents:
            _document(
                rec,
                packet,
                doc.doc_id,
                run,
                contexts[packet.packet_id],
                published_docs.get(f"{source.name}/{doc.doc_id}"),
                scored_docs.get(f"{packet.packet_id}/{doc.doc_id}"),
                rec.ours["policy"],
            )
    return rec


def _ranking(cohorts: list[CohortReconciliation]) -> list[dict[str, Any]]:
    def order(rate: Any) -> list[str]:
        """Lowest rate first; a cohort with no rate (nothing scored) last."""
        return [
            c.cohort
            for c in sorted(cohorts, key=lambda c: (rate(c) is None, rate(c) or 0.0, c.cohort))
        ]

    theirs = order(lambda c: c.published["numbers"]["rate"])
    ours = order(lambda c: c.ours["packet"]["numbers"]["rate_micro"])
    return [
        {
            "cohort": c.cohort,
            "theirs_rank": theirs.index(c.cohort) + 1,
            "ours_rank": ours.index(c.cohort) + 1,
            "theirs_rate": c.published["numbers"]["rate"],
            "ours_rate": c.ours["packet"]["numbers"]["rate_micro"],
        }
        for c in sorted(cohorts, key=lambda c: ours.index(c.cohort))
    ]


def _doc_rates(run: Path, cls: str) -> dict[str, float]:
    docs = _grounding(run)
    return {
        k: (v["packet"][cls]["rate"] if v["packet"][cls]["rate"] is not None else np.nan)
        for k, v in docs.items()
    }


def _paired(runs: list[Path], cohorts: list[CohortReconciliation]) -> list[dict[str, Any]]:
    """Sign tests on per-document numeric rates of every pair of cohorts of one effort,
    Holm-corrected within the effort."""
    effort = {c.cohort: c.ours.get("effort", "default") for c in cohorts}
    by_name = {r.name: r for r in runs}
    rows: list[dict[str, Any]] = []
    for level in sorted(set(effort.values())):
        names = sorted(n for n, e in effort.items() if e == level)
        tests = []
        for a, b in combinations(names, 2):
            rate_a, rate_b = _doc_rates(by_name[a], "numbers"), _doc_rates(by_name[b], "numbers")
            shared = sorted(set(rate_a) & set(rate_b))
            test = sign_test(
                np.array([rate_a[k] for k in shared], dtype=np.float64),
                np.array([rate_b[k] for k in shared], dtype=np.float64),
            )
            tests.append((a, b, test))
        adjusted = holm([t.p_value for _, _, t in tests])
        for (a, b, test), p in zip(tests, adjusted, strict=True):
            rows.append(
                {
                    "effort": level,
                    "a": a,
                    "b": b,
                    "documents": test.documents,
                    "a_higher": test.a_higher,
                    "b_higher": test.b_higher,
                    "ties": test.ties,
                    "p_holm": p,
                    "separated": p is not None and p < ALPHA,
                }
            )
    return rows


def _effort(run: Path) -> str:
    return read_run(run).reasoning or "default"


def reconcile(corpus_root: Path, out: Path) -> Reconciliation:
    """Reconcile every scored run of the import in `out` with the corpus at `corpus_root`."""
    corpus = read_corpus(corpus_root, partial=True)  # the import refused what --partial skips
    packets = {p.packet_id: p for p in find_packets(out / "packets")}
    contexts = _contexts(corpus, packets)
    runs = runs_of(out)
    cohorts = []
    for run in runs:
        rec = _reconcile_cohort(corpus, run, packets, contexts)
        rec.ours["effort"] = _effort(run)
        cohorts.append(rec)
    result = Reconciliation(cohorts, _ranking(cohorts), _paired(runs, cohorts))
    write_json(out / "reconciliation.json", result.as_dict())
    write_atomic(out / "reconciliation.md", render(result).encode("utf-8"))
    return result


def render(result: Reconciliation) -> str:
    env = environment("importers", keep_trailing_newline=True)
    env.filters.update(pct=pct, md=md_cell, span=lambda pair: interval(bootstrap.Interval(*pair)))
    return env.get_template("reconciliation.md.j2").render(result=result.as_dict())
