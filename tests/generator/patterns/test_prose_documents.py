"""Value patterns on prose: a fact written differently inside a sentence (another date or
money format, cut short, blacked out) keeps the truth rules, and still reads back from its box.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.readback import check_document
from tests.support.rendering import Render, first_applied, write

DOCS = ("broker_narrative", "engineering_report")


@pytest.mark.parametrize("doc_id", DOCS)
@pytest.mark.parametrize(
    "pattern", ["data.date_formats", "data.currency_formats", "data.truncation"]
)
def test_shown_patterns_rewrite_prose_facts_only_at_their_paths(
    render: Render, pattern: str, doc_id: str, tmp_path: Path
) -> None:
    seed = first_applied(render, pattern, doc_id, "N3", DOCS)
    on, off = render("N3", seed, DOCS, pattern), render("N3", seed, DOCS)
    record = on.applied(doc_id, pattern)
    assert record is not None
    delta = record["ground_truth_delta"]
    fields_on, fields_off = on.fields(doc_id), off.fields(doc_id)
    assert delta
    changed = {p for p in fields_on if fields_on[p]["rendered_as"] != fields_off[p]["rendered_as"]}
    assert changed == set(delta)
    for path, entry in delta.items():
        assert fields_on[path]["rendered_as"] == entry["shown"]
        # A format keeps the value; a cut-short value is what the page shows (rule 1).
        expected = entry["shown"] if record["truth"] == "value" else entry["canonical"]
        assert fields_on[path]["value"] == expected
    assert {p: f["value"] for p, f in fields_on.items() if p not in delta} == {
        p: f["value"] for p, f in fields_off.items() if p not in delta
    }
    # Some rewritten fact sits inside a sentence, and every fact still reads back.
    inside = [
        p
        for p in delta
        if not p.startswith(("program.lines[", "buildings[", "recommendations[", "report."))
    ]
    assert inside or doc_id == "engineering_report"
    checked, bad = check_document(write(on, tmp_path), doc_id)
    assert bad == [] and checked >= len(fields_on)


def test_a_redacted_prose_fact_leaves_the_truth(render: Render, tmp_path: Path) -> None:
    doc_id = "broker_narrative"  # its telephone and e-mail are what redaction looks for
    pattern = "overlay.redaction"
    seed = first_applied(render, pattern, doc_id, "N3", DOCS)
    on = render("N3", seed, DOCS, pattern)
    record = on.applied(doc_id, pattern)
    assert record is not None and record["truth"] == "hidden"
    for path in record["ground_truth_delta"]:
        assert path not in on.fields(doc_id)
    assert check_document(write(on, tmp_path), doc_id)[1] == []
