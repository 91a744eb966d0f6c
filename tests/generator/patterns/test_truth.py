"""Every pattern's truth delta is right (docs/patterns.md rules 1-4), checked against the same
packet rendered with every pattern off.

A pattern that only changes the look ("none") leaves document_truth and every field's value and
rendered_as as they were; one that writes values differently ("shown") changes rendered_as at
exactly its delta's paths and keeps every value; one whose page shows something else ("value")
changes the truth at exactly its delta's paths; one that hides ("hidden") takes exactly its
paths out of the truth.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from packetbench.generator.patterns.base import PATTERNS, catalogue
from packetbench.generator.render.scan_levels import HARDER_LEVELS
from tests.support.leaves import leaves
from tests.support.rendering import Render, first_applied

DOCS = (
    "loss_run_pdf",
    "sov_pdf",
    "driver_schedule_pdf",
    "acord_125",
    "acord_140",
    "financial_statement_pdf",
    "sov_excel",
    "loss_run_excel",
    "loss_run_csv",
)
# Where each pattern has something to act on (default: an N3 loss run), in the first seed
# where it acts.
CASES: dict[str, tuple[str, str]] = {
    "table.interrupted": ("N3", "sov_pdf"),
    "data.thousands": ("N3", "sov_pdf"),
    "data.percent_as_fraction": ("N3", "sov_pdf"),
    "sheet.split_sheets": ("N3", "loss_run_excel"),
    "hand.signature": ("N3", "acord_125"),
    "hand.signature_conflict": ("N3", "acord_125"),
    "hand.filled_fields": ("N3", "acord_125"),
    "hand.correction": ("N3", "acord_125"),
}
# Workbook and CSV patterns act on those formats.
BY_FAMILY = {"sheet": ("N3", "sov_excel"), "csv": ("N3", "loss_run_csv")}


def _under(path: str, target: str) -> bool:
    return path == target or path.startswith((f"{target}.", f"{target}["))


# packet.* patterns act on the packet (which document, or a document added): their deltas
# are checked against the plain packet in test_packet.py, document by document.
# The harsher scan levels are checked in test_scan_damage.py, on a shorter document;
# overlay.blot acts only on a scanned page (alone it never applies): test_blot.py.
@pytest.mark.parametrize(
    "pattern",
    [
        p.id
        for p in catalogue()
        if p.family != "packet"
        and p.id.removeprefix("scan.") not in HARDER_LEVELS
        and p.id != "overlay.blot"
    ],
)
def test_truth_delta(render: Render, pattern: str) -> None:
    spec = PATTERNS[pattern]
    tier, doc_id = CASES.get(pattern, BY_FAMILY.get(spec.family, ("N3", "loss_run_pdf")))
    seed = first_applied(render, pattern, doc_id, tier, DOCS)
    on, off = render(tier, seed, DOCS, pattern), render(tier, seed, DOCS)
    record = on.applied(doc_id, pattern)
    assert record is not None, f"{pattern} not applied to {doc_id}"
    assert record["truth"] == spec.truth and record["pages_affected"]
    delta = record["ground_truth_delta"]
    truth_on, truth_off = leaves(on.truth(doc_id)), leaves(off.truth(doc_id))
    fields_on, fields_off = on.fields(doc_id), off.fields(doc_id)
    if spec.truth == "none":
        assert truth_on == truth_off
        assert {p: (f["value"], f["rendered_as"]) for p, f in fields_on.items()} == {
            p: (f["value"], f["rendered_as"]) for p, f in fields_off.items()
        }
    elif spec.truth == "shown":
        assert truth_on == truth_off and delta
        changed = {
            p for p in fields_on if fields_on[p]["rendered_as"] != fields_off[p]["rendered_as"]
        }
        assert changed == set(delta), changed ^ set(delta)
        for path, entry in delta.items():
            assert fields_on[path]["value"] == entry["canonical"] == fields_off[path]["value"]
            assert fields_on[path]["rendered_as"] == entry["shown"]
    elif spec.truth == "value":
        reordered = [p for p, e in delta.items() if "reordered_by" in e]
        changed = {p for p in truth_on if truth_on[p] != truth_off.get(p)}
        if reordered:  # rows regrouped: the same records, in the order the page lists them
            for items in reordered:
                key = delta[items]["reordered_by"]
                rows_on = _node(on.truth(doc_id), items)
                rows_off = _node(off.truth(doc_id), items)
                assert sorted(map(repr, rows_on)) == sorted(map(repr, rows_off))
                keys = [(r[key] is None, r[key] or 0) for r in rows_on]
                assert keys == sorted(keys)
            changed = {p for p in changed if not any(_under(p, i) for i in reordered)}
        values = {p for p in delta if p not in reordered}
        assert changed == values, changed ^ values
        assert delta or truth_on == truth_off  # an empty delta changed nothing
        for path in values:
            assert truth_on[path] == delta[path]["shown"] == fields_on[path]["value"]
            assert truth_off[path] == delta[path]["canonical"]
    else:  # hidden
        assert delta
        for path in delta:
            assert truth_on[path] is None and truth_off[path] == delta[path]["canonical"]
            assert path not in fields_on
        others = {p for p in truth_on if p not in delta}
        assert all(truth_on[p] == truth_off[p] for p in others)


def _node(data: Any, path: str) -> Any:
    for part in re.findall(r"[A-Za-z_]\w*|\d+", path):
        data = data[int(part)] if part.isdigit() else data[part]
    return data
