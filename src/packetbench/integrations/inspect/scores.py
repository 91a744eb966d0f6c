"""packetbench's scorer on one document, and its rates over many, as plain data: what the
inspect_ai scorer puts in a sample's score (value and metadata) and what its metric reads back.

A document is scored as `packetbench score` scores it (default `--invalid exclude`): a record
that is not ok, or whose output is not a valid instance of its schema, is left out of every
rate and says why. Rates pool the documents' counts (micro) and average their own rates
(macro), as `score` and the results database do; a rate over nothing is absent.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from packetbench.benchmark.records import ExtractionRecord
from packetbench.benchmark.score.rates import CLASSES, UNIVERSES, mean, rate
from packetbench.benchmark.score.scorer import schema_problem, score_document
from packetbench.benchmark.score.verdicts import VERDICTS
from packetbench.truth import universe as universes
from packetbench.truth.packets import DocInfo, Packet


@lru_cache(maxsize=8)
def _universes(packet: Path) -> universes.PacketUniverses:
    return universes.build(packet)


def score(
    packet: Packet, doc: DocInfo, record: ExtractionRecord
) -> tuple[dict[str, int], dict[str, Any]]:
    """The counts of one document (`scored` 0 when it is left out) and what its sample's
    metadata holds: the record's status, every field outcome, every claim with its verdict
    and hallucination flags, the failed consistency checks."""
    about: dict[str, Any] = {"status": record.status, "error": record.error}
    if record.status != "ok":
        return {"scored": 0}, {**about, "excluded": f"record {record.status}"}
    problem = schema_problem(doc.schema, record.output, packet.path)
    if problem is not None:
        return {"scored": 0}, {**about, "excluded": f"schema-invalid: {problem}"}
    claims: list[bytes] = []
    fields: list[bytes] = []
    scored = score_document(packet, doc, record, _universes(packet.path), claims, fields)
    value: dict[str, int] = {"scored": 1, **scored.counts.as_dict()}
    for kind in CLASSES:
        value[f"{kind}_checked"] = scored.grounding.checked[kind]
        for where in UNIVERSES:
            value[f"{kind}_hallucinated_{where}"] = scored.grounding.hallucinated[(where, kind)]
    value["claims"] = sum(scored.verdicts.values())
    value.update({v: scored.verdicts[v] for v in VERDICTS})
    flags = scored.consistency["flags"]
    return value, {
        **about,
        "fields": [_row(f) for f in fields],
        "claims": [_row(c) for c in claims],
        "consistency": {k: v for k, v in scored.consistency.items() if k != "flags"},
        "consistency_flags": flags,
    }


def _row(line: bytes) -> dict[str, Any]:
    """A claims or fields row without the keys every row of the sample repeats."""
    row: dict[str, Any] = orjson.loads(line)
    for key in ("packet_id", "doc_id", "doc_type", "tier"):
        row.pop(key, None)
    return row


def rates(values: Sequence[dict[str, Any]]) -> dict[str, float | None]:
    """The headline rates over scored documents' counts: hallucination of numbers and of
    strings against the packet and the document universe (micro, and macro beside), and
    faithfulness, recall and over-refusal (micro)."""
    scored = [v for v in values if v.get("scored")]
    out: dict[str, float | None] = {"documents_scored": float(len(scored))}
    for kind in CLASSES:
        for where in UNIVERSES:
            name = f"halluc_{kind}" + ("" if where == "packet" else "_document")
            key = f"{kind}_hallucinated_{where}"
            own = [rate(v[key], v[f"{kind}_checked"]) for v in scored]
            out[name] = rate(sum(v[key] for v in scored), sum(v[f"{kind}_checked"] for v in scored))
            out[f"{name}_macro"] = mean(own)
    total = sum(v["claims"] for v in scored)
    populated = sum(v["gt_fields"] for v in scored)
    out["faithfulness"] = rate(sum(v["supported"] for v in scored), total)
    out["recall"] = rate(sum(v["correct"] for v in scored), populated)
    out["over_refusal"] = rate(sum(v["omitted"] for v in scored), populated)
    return out
