"""The stubs' answers to questions that are not extractions: a judge's labels, a type.

A judge's request (`packetbench verify`) carries the label schema (one `labels` array) and
lists its claims as ``<n>. <path> = <JSON value>`` lines; the stub labels each from the
document's truth, as a careful reader of the page would: `supported` when the truth at the
claim's path is the value (after the scorer's normalization for the field's kind),
`contradicted` when the truth there is another value, `unlinked` when the truth there is
empty; the span is the truth's first location on a page and its rendered text. A
classifier's request (`extract --documents`) carries a schema whose one field is
`doc_type`: the stub answers the document's type.
"""

from __future__ import annotations

import json
import re
from typing import Any

CLAIM = re.compile(r"^(\d+)\. (\S+) = (.*)$", re.MULTILINE)
_PART = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[\d+\])*)")


def asks_labels(schema: Any) -> bool:
    properties = schema.get("properties") if isinstance(schema, dict) else None
    return isinstance(properties, dict) and set(properties) == {"labels"}


def asks_type(schema: Any) -> bool:
    properties = schema.get("properties") if isinstance(schema, dict) else None
    return isinstance(properties, dict) and set(properties) == {"doc_type"}


def listed_claims(body: Any) -> list[tuple[int, str, str]]:
    """(number, path, JSON value text) of every claim a judge's request lists."""
    stack = [body]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and "\nClaims:\n" in item:
            # A document's own text may hold "Claims:" too: the listing is what follows it.
            listing = item.rsplit("\nClaims:\n", 1)[1]
            found = [(int(n), path, value) for n, path, value in CLAIM.findall(listing)]
            if found:
                return found
    return []


def value_at(data: Any, path: str) -> Any:
    """The value at dotted `path` (with list indices) of `data`; None where there is none."""
    node = data
    for part in path.split("."):
        match = _PART.fullmatch(part)
        if match is None or not isinstance(node, dict):
            return None
        node = node.get(match.group(1))
        for index in re.findall(r"\d+", match.group(2)):
            if not isinstance(node, list) or int(index) >= len(node):
                return None
            node = node[int(index)]
    return node


def _same(claimed: Any, truth: Any, kind: str) -> bool:
    from packetbench.truth.normalize import equal

    try:
        return bool(equal(claimed, truth, kind))
    except (TypeError, ValueError):
        return bool(claimed == truth)


def labels(
    truth: dict[str, Any], fields: list[dict[str, Any]], claims: list[tuple[int, str, str]]
) -> dict[str, Any]:
    """The stub judge's answer to `claims` about a document of truth `truth` (its
    field_truth entries `fields`)."""
    located = {f["path"]: f for f in fields}
    out = []
    for number, path, text in claims:
        try:
            claimed = json.loads(text)
        except json.JSONDecodeError:
            claimed = text
        field = located.get(path)
        truth_value = value_at(truth, path)
        kind = str(field["kind"]) if field else "string"
        if truth_value is None:
            out.append({"claim": number, "verdict": "unlinked", "page": None, "quote": None})
            continue
        verdict = "supported" if _same(claimed, truth_value, kind) else "contradicted"
        page: int | None = None
        quote = str(truth_value)
        if field:
            quote = str(field.get("rendered_as") or truth_value)
            where = (field.get("locations") or [{}])[0]
            page = where.get("page") if isinstance(where.get("page"), int) else None
        out.append({"claim": number, "verdict": verdict, "page": page, "quote": quote})
    return {"labels": out}
