"""The document truth, audited: a valid instance of its schema, and the same values as the
field truth (one entry per non-null leaf, equal value).

The document truth is what a perfect extractor returns and what the scorer compares with;
the field truth is what the readers confirm on the page. If the two drifted apart (a file
emptied, truncated, edited or left over from another run), every located value could read
back perfectly while the scores were computed against something else.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from packetbench.audit.result import INTEGRITY, Finding
from packetbench.core.errors import BadInput
from packetbench.truth import namespaces
from packetbench.truth.documents import Document
from packetbench.truth.validate import problem


def _leaves(data: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(path, value) of every non-null scalar, paths written as field_truth writes them."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, f"{prefix}.{key}" if prefix else key)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _leaves(value, f"{prefix}[{index}]")
    elif data is not None:
        yield prefix, data


def check_truth(doc: Document) -> list[Finding]:
    """Findings on `doc`'s document truth: schema problems, then disagreements with its
    field truth, path by path."""
    file = doc.truth_file("document_truth").name

    def finding(path: str, detail: str, expected: Any = "", got: Any = "") -> Finding:
        return Finding(
            INTEGRITY, doc.doc_id, file, path, expected=str(expected), got=str(got), detail=detail
        )

    try:
        scored = namespaces.resolve(doc.schema, doc.folder)
    except BadInput:
        return [finding("", f"unknown schema {doc.schema!r}")]
    found: list[Finding] = []
    reason = problem(scored.model, scored.project(doc.truth))
    if reason is not None:
        where, _, why = reason.partition(": ")
        found.append(finding(where, f"not a valid {doc.schema} instance: {why}"))
    fields = {entry["path"]: entry.get("value") for entry in doc.fields}
    leaves = dict(_leaves(doc.truth))
    # A value damaged past reading at every location (docs/patterns.md rule 3b) expects abstention:
    # null in the document truth, listed in the universe's `illegible`, no location legible.
    illegible = {entry["path"] for entry in doc.fields if entry.get("illegible") is True}
    listed = {str(entry.get("path")) for entry in doc.illegible}
    for path in sorted(illegible ^ listed):
        found.append(
            finding(
                path,
                "an illegible field_truth entry not in rendered_universe.illegible"
                if path in illegible
                else "in rendered_universe.illegible but not an illegible field_truth entry",
            )
        )
    for entry in doc.fields:
        if entry["path"] in illegible and any(
            isinstance(loc, dict) and loc.get("legible") is not False
            for loc in entry.get("locations") or []
        ):
            found.append(finding(entry["path"], "illegible, but a location says legible"))
    for path in sorted(illegible):
        if path in leaves:
            found.append(
                finding(
                    path,
                    "illegible (no legible location), but the document truth has a value",
                    None,
                    leaves[path],
                )
            )
    for path, value in fields.items():
        if path in illegible:
            continue
        if path not in leaves:
            found.append(
                finding(
                    path,
                    "null or absent in the document truth, but field_truth has a value",
                    value,
                    None,
                )
            )
        elif leaves[path] != value or isinstance(leaves[path], bool) != isinstance(value, bool):
            found.append(finding(path, "differs from its field_truth value", value, leaves[path]))
    for path in leaves.keys() - fields.keys():
        found.append(
            finding(path, "has a value but no field_truth entry (drawn nowhere)", "", leaves[path])
        )
    return sorted(found, key=lambda f: f.path) if reason is None else found
