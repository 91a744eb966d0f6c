"""One document of one run as the viewer shows it: every truth field where it is drawn, the
run's outcome for it, the model's value beside the truth, the claims, and what was done to
the page (presentation patterns with the boxes of the values they touched, hidden text with
the boxes where the text layer still holds it).

A field's outcome is the field view's (correct, wrong, omitted; abstained or answered for a
leaf the page leaves empty), refined by the claim at its path: a wrong value that equals
only a superseded document's is `stale`, one found nowhere in the packet is `hallucinated`,
and an answer where the page shows nothing is `guessed` (or `hallucinated` when nothing in
the packet supports it). A claim at no truth leaf (a record the model invented) is
`hallucinated` or `guessed` the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import orjson

from packetbench.benchmark.records import read_record, record_path
from packetbench.benchmark.viewer.pages import Pages
from packetbench.benchmark.viewer.source import RunSource
from packetbench.core.packet_files import (
    read_field_truth,
    read_manifest,
    read_rendered_universe,
)
from packetbench.truth import normalize
from packetbench.truth.packets import DocInfo, Packet, ancestors

# Worst first: the order of the side table, and of the legend.
SEVERITY = (
    "hallucinated",
    "wrong",
    "stale",
    "guessed",
    "omitted",
    "abstained",
    "correct",
    "unscored",
)
MAX_PATTERN_BOXES = 400  # boxes listed per pattern (a scan touches every value of a page)
MAX_FOUND_AT = 3  # other places a claimed value is drawn, listed per claim


def outcome_of(outcome: str | None, verdict: str | None, hallucinated: bool | None) -> str:
    """The viewer's outcome of a field from the field view's outcome and its claim."""
    if outcome in (None, "answered") and verdict is not None:
        return "hallucinated" if hallucinated else "guessed"
    if outcome == "wrong":
        if verdict == "stale":
            return "stale"
        return "hallucinated" if hallucinated else "wrong"
    return outcome or "unscored"


def _json(value: Any) -> Any:
    """A JSON column as its value (DuckDB returns JSON as text)."""
    if not isinstance(value, str):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:  # what orjson refuses and json reads (NaN, Infinity)
        return json.loads(value)


def _scored_rows(
    source: RunSource, packet: Packet, doc: DocInfo
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """(document row, field-view rows, claim rows) of a document of a scored run."""
    keys = [packet.packet_id, doc.doc_id]
    found = source.query(
        "SELECT status, reason, record_status, finish_reason, latency_s, attempts, "
        "input_tokens, output_tokens, reasoning_tokens, cost_usd "
        "FROM documents WHERE packet_id = ? AND doc_id = ?",
        keys,
    )
    row = found[0] if found else {"status": "missing", "reason": "not in the results"}
    fields = source.query(
        "SELECT path, kind, populated, outcome, below_resolution FROM fields "
        "WHERE packet_id = ? AND doc_id = ?",
        keys,
    )
    claims = source.query(
        "SELECT path, kind, value, truth, grounded_in, hallucinated, hallucinated_document, "
        "verdict FROM claims WHERE packet_id = ? AND doc_id = ?",
        keys,
    )
    for claim in claims:
        claim["value"] = _json(claim["value"])
        claim["truth"] = _json(claim["truth"])
    return row, fields, claims


def _lines(data: bytes) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in data.splitlines() if line.strip()]


def _unscored_rows(
    source: RunSource, packet: Packet, doc: DocInfo
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The same rows for a run not scored yet: the document scored now, as `score` would."""
    from packetbench.benchmark.delivery import of_run
    from packetbench.benchmark.score.scorer import PacketTask, score_packet

    path = record_path(source.path, packet.packet_id, doc.doc_id)
    if not path.is_file():
        return {"status": "pending", "reason": "no extraction record yet"}, [], []
    record = read_record(path)
    row: dict[str, Any] = {
        "record_status": record.status,
        "finish_reason": record.finish_reason,
        "latency_s": record.latency_s,
        "attempts": record.attempts,
        **record.usage.model_dump(),
    }
    # At the run's delivered resolution, as `score` scores it.
    delivery = of_run(source.info)
    part = score_packet(PacketTask(source.path, packet, (doc.doc_id,), delivery=delivery))
    if part.errors:
        error = part.errors[0]
        return {**row, "status": "error", "reason": f"{error['status']}: {error['error']}"}, [], []
    if part.invalid:
        return {**row, "status": "invalid", "reason": part.invalid[0]["reason"]}, [], []
    return {**row, "status": "scored"}, _lines(part.rows.fields), _lines(part.rows.claims)


def _key(value: Any, kind: str) -> tuple[str, Any] | None:
    """What a value is compared by when looking for where a claimed value is drawn."""
    if value is None or kind in ("checkbox", "text"):
        return None
    found = normalize.canonical(value, kind)
    if kind in normalize.NUMERIC_KINDS:
        return ("number", found) if found is not None else None
    text = found if isinstance(found, str) else normalize.string(str(value))
    return ("string", text) if len(text) >= normalize.MIN_STRING else None


def _boxes(locations: Iterable[dict[str, Any]], path: str) -> list[dict[str, Any]]:
    return [{"path": path, **location} for location in locations]


def _patterns(manifest: dict[str, Any], truth: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each applied pattern with its pages and the boxes of the truth values it touched."""
    out: list[dict[str, Any]] = []
    for applied in manifest.get("patterns_applied") or []:
        if not isinstance(applied, dict):
            continue
        targets = {t for t in applied.get("targets") or [] if isinstance(t, str)}
        boxes: list[dict[str, Any]] = []
        for entry in truth:
            if len(boxes) >= MAX_PATTERN_BOXES:
                break
            path = entry["path"]
            if targets.intersection(ancestors(path)):  # the path or a record or list above it
                boxes += _boxes(entry.get("locations") or [], path)
        details = applied.get("details")
        out.append(
            {
                "id": str(applied.get("id")),
                "name": str(applied.get("name") or ""),
                "family": str(applied.get("family") or ""),
                "truth": str(applied.get("truth") or ""),
                "pages": [p for p in applied.get("pages_affected") or [] if isinstance(p, int)],
                "targets": len(targets),
                "boxes": boxes[:MAX_PATTERN_BOXES],
                "details": json.dumps(details, ensure_ascii=False, sort_keys=True)[:400]
                if details
                else "",
            }
        )
    return out


def _hidden(
    universe: dict[str, Any], pages: Pages, packet: Packet, doc: DocInfo, sha: str
) -> list[dict[str, Any]]:
    """Text drawn invisibly, each with the boxes where the page's text layer holds it."""
    out: list[dict[str, Any]] = []
    for entry in universe.get("hidden") or []:
        if not isinstance(entry, dict):
            continue
        text, page = str(entry.get("text") or ""), entry.get("page")
        boxes: list[list[float]] = []
        if doc.format == "pdf" and isinstance(page, int):
            boxes = pages.find_text(packet.path / doc.file, page, text)
        out.append({"text": text, "page": page, "boxes": boxes, **_cell(entry)})
    return out


def _cell(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: entry[k] for k in ("sheet", "cell", "row", "column") if k in entry}


def build(source: RunSource, pages: Pages, packet_id: str, doc_id: str) -> dict[str, Any]:
    """Everything the document view shows of `packet_id`/`doc_id` in the run `source`."""
    packet, doc = source.document(packet_id, doc_id)
    sha = source.hashes[f"{packet.packet_id}/{doc.doc_id}"]["file"]
    truth: list[dict[str, Any]] = [
        dict(f) for f in read_field_truth(packet.path, doc.doc_id)["fields"]
    ]
    if source.scored:
        row, field_rows, claim_rows = _scored_rows(source, packet, doc)
    else:
        row, field_rows, claim_rows = _unscored_rows(source, packet, doc)
    claims_at = {c["path"]: c for c in claim_rows}
    view_at = {f["path"]: f for f in field_rows}
    where_drawn: dict[tuple[str, Any], list[dict[str, Any]]] = {}
    for entry in truth:
        key = _key(entry.get("value"), str(entry.get("kind")))
        if key is not None and entry.get("locations"):
            where_drawn.setdefault(key, []).append(entry)

    fields: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(path: str, kind: str, entry: dict[str, Any] | None) -> None:
        seen.add(path)
        claim = claims_at.get(path)
        view = view_at.get(path)
        scored = row.get("status") == "scored"
        fields.append(
            {
                "path": path,
                "kind": kind,
                "truth": entry.get("value") if entry else None,
                "rendered_as": entry.get("rendered_as") if entry else None,
                "locations": (entry.get("locations") or []) if entry else [],
                "value": claim["value"] if claim else None,
                "verdict": claim["verdict"] if claim else None,
                "grounded_in": claim["grounded_in"] if claim else None,
                "hallucinated": claim["hallucinated"] if claim else None,
                # legible in the file, not on the page as the run delivered it
                "below_resolution": bool(view and view.get("below_resolution")),
                "outcome": outcome_of(
                    view["outcome"] if view else None,
                    claim["verdict"] if claim else None,
                    claim["hallucinated"] if claim else None,
                )
                if scored
                else "unscored",
            }
        )

    for entry in truth:
        if entry["path"] not in seen:
            add(entry["path"], str(entry.get("kind") or ""), entry)
    for view in field_rows:
        if view["path"] not in seen:
            add(view["path"], str(view["kind"]), None)
    for claim in claim_rows:
        if claim["path"] not in seen:
            add(claim["path"], str(claim["kind"]), None)

    located = {e["path"]: e.get("locations") or [] for e in truth}
    claims: list[dict[str, Any]] = []
    for claim in claim_rows:
        found_at: list[dict[str, Any]] = []
        if claim["verdict"] != "supported":
            key = _key(claim["value"], str(claim["kind"]))
            for entry in where_drawn.get(key, []) if key else []:
                if len(found_at) >= MAX_FOUND_AT:
                    break
                if entry["path"] != claim["path"]:
                    found_at += _boxes(entry["locations"][:1], entry["path"])
        claims.append(
            {
                **{k: claim[k] for k in ("path", "kind", "value", "truth", "verdict")},
                "grounded_in": claim["grounded_in"],
                "hallucinated": claim["hallucinated"],
                "located": bool(located.get(claim["path"])),
                "truth_at": (located.get(claim["path"]) or [None])[0],
                "found_at": found_at,
            }
        )

    manifest: dict[str, Any] = dict(read_manifest(packet.path, doc.doc_id))
    universe: dict[str, Any] = dict(read_rendered_universe(packet.path, doc.doc_id))
    geometry = (
        [
            {
                "width": g.width,
                "height": g.height,
                "left": g.left,
                "bottom": g.bottom,
                "rotation": g.rotation,
            }
            for g in pages.geometry(packet.path / doc.file, sha)
        ]
        if doc.format == "pdf"
        else []
    )
    rank = {name: i for i, name in enumerate(SEVERITY)}
    fields.sort(key=lambda f: rank.get(f["outcome"], len(rank)))  # stable: document order
    return {
        "run": source.name,
        "packet_id": packet.packet_id,
        "doc_id": doc.doc_id,
        "doc_type": doc.doc_type,
        "format": doc.format,
        "tier": packet.tier,
        "file": doc.file,
        "file_sha256": sha,
        "superseded_by": doc.superseded_by,
        "document": {k: v for k, v in row.items() if v is not None},
        "pages": geometry,
        "fields": fields,
        "claims": claims,
        "patterns": _patterns(manifest if isinstance(manifest, dict) else {}, truth),
        "hidden": _hidden(universe if isinstance(universe, dict) else {}, pages, packet, doc, sha),
    }
