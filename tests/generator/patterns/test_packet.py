"""packet.*: each packet pattern changes what it says across the packet's documents, every
document's truth is what it shows, and a simulated model that copies superseded values gets
them scored `stale`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import duckdb
import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.report.render import write_report
from packetbench.benchmark.results.load import load_run
from packetbench.benchmark.score.outputs import read_documents
from packetbench.benchmark.score.scorer import score_run
from packetbench.core.packet_files import read_json
from tests.support.leaves import leaves
from tests.support.rendering import Rendered, write
from tests.support.scoring import ledger_mismatches

DOCS = (
    "acord_125",
    "acord_140",
    "sov_pdf",
    "sov_excel",
    "loss_run_pdf",
    "loss_run_excel",
    "loss_run_csv",
)


def packet(only: str | None, seed: int = 1, tier: str = "N5", **knobs: Any) -> Rendered:
    from packetbench.generator.packet import build_packet
    from packetbench.generator.tiers import resolve

    overrides: dict[str, Any] = {"documents": DOCS, "lines": ("property", "gl"), **knobs}
    overrides["patterns.only" if only else "patterns.off"] = (only,) if only else ("*",)
    return Rendered(build_packet(tier, seed, resolve(tier, overrides)).files)


def listed(rendered: Rendered) -> list[dict[str, Any]]:
    return list(rendered.json("packet_truth.json")["documents"])


def applications(rendered: Rendered, pattern: str) -> dict[str, dict[str, Any]]:
    """doc_id -> the manifest record of `pattern` in it."""
    found = {}
    for document in listed(rendered):
        record = rendered.applied(document["doc_id"], pattern)
        if record is not None:
            found[document["doc_id"]] = record
    return found


def first(
    pattern: str, seeds: range = range(1, 9), knobs: dict[str, Any] | None = None
) -> tuple[Rendered, Rendered, int]:
    for seed in seeds:
        on = packet(pattern, seed, **(knobs or {}))
        if applications(on, pattern):
            return on, packet(None, seed, **(knobs or {})), seed
    raise AssertionError(f"{pattern} acted on no packet of seeds {seeds}")


@pytest.mark.parametrize(
    ("pattern", "suffix"),
    [("packet.superseded", "_prior"), ("packet.duplicate_document", "_earlier")],
)
@pytest.mark.slow
def test_an_earlier_version_is_listed_superseded_and_its_differences_in_its_delta(
    pattern: str, suffix: str
) -> None:
    on, off, _ = first(pattern)
    documents = listed(on)
    ids = [d["doc_id"] for d in documents]
    assert len(ids) == len(set(ids))
    (older,) = [d for d in documents if d["superseded_by"]]
    current = older["superseded_by"]
    assert older["doc_id"] == current + suffix and current in ids
    assert older["doc_type"] == next(d["doc_type"] for d in documents if d["doc_id"] == current)
    assert older["file"] in on.files and older["file"] != current
    # Nothing else changes: the current documents are the plain packet's.
    for doc_id in (i for i in ids if i != older["doc_id"]):
        assert on.truth(doc_id) == off.truth(doc_id)
    record = on.applied(older["doc_id"], pattern)
    assert record is not None and record["details"]["superseded_by"] == current
    old, new = leaves(on.truth(older["doc_id"])), leaves(on.truth(current))
    differing = {p for p in old if old[p] is not None and old[p] != new.get(p)}
    assert differing and set(record["ground_truth_delta"]) == differing
    for path, entry in record["ground_truth_delta"].items():
        assert entry["shown"] == old[path] and entry["canonical"] == new[path]


@pytest.mark.slow
def test_name_variant_is_what_its_documents_show_and_the_others_keep_the_name() -> None:
    """At N5 (variants.percent 80) most documents that name the insured write the variant;
    at least one keeps the canonical name; each variant document's truth is what it shows."""
    on, off, _ = first("packet.name_variants")
    found = applications(on, "packet.name_variants")
    naming = [d["doc_id"] for d in listed(on) if "insured" in json.dumps(on.truth(d["doc_id"]))]
    assert len(found) >= 2 and len(found) < len(naming)
    for doc_id, record in found.items():
        name, variant = record["details"]["canonical"], record["details"]["variant"]
        assert name != variant
        fields = on.fields(doc_id)
        assert record["ground_truth_delta"]
        for path, entry in record["ground_truth_delta"].items():
            assert entry == {"canonical": name, "shown": variant}
            assert fields[path]["value"] == fields[path]["rendered_as"] == variant
            assert off.fields(doc_id)[path]["value"] == name
    others = [d["doc_id"] for d in listed(on) if d["doc_id"] not in found]
    assert others and all(on.truth(d) == off.truth(d) for d in others)


@pytest.mark.slow
def test_variants_percent_sets_how_many_documents_carry_a_variant(run_cli: Any) -> None:
    """variants.percent=0 keeps a variant to one document (N4-N5 presets: 50 and 80); the
    knob refuses what is not a percentage."""
    on, _, _ = first("packet.name_variants", knobs={"variants.percent": 0})
    assert len(applications(on, "packet.name_variants")) == 1
    result = run_cli("generate", "--tiers", "N5", "--out", "x", "--set", "variants.percent=101")
    assert result.returncode == 2
    assert result.stderr == "packetbench: error: --set variants.percent=101: must be at most 100\n"


@pytest.mark.parametrize(
    "pattern",
    ["packet.address_variants", "packet.policy_number_formats", "packet.conflicting_values"],
)
@pytest.mark.slow
def test_a_variant_changes_one_document_truth_at_its_delta_only(pattern: str) -> None:
    on, off, _ = first(pattern, knobs={"variants.percent": 0})
    ((doc_id, record),) = applications(on, pattern).items()
    delta = record["ground_truth_delta"]
    assert delta and record["truth"] == "value" and record["pages_affected"]
    truth_on, truth_off = leaves(on.truth(doc_id)), leaves(off.truth(doc_id))
    changed = {p for p in truth_on if truth_on[p] != truth_off.get(p)}
    assert changed == set(delta)
    for path, entry in delta.items():
        assert truth_on[path] == entry["shown"] and truth_off[path] == entry["canonical"]
    if pattern == "packet.policy_number_formats":
        for entry in delta.values():
            squeeze = re.compile(r"[^A-Za-z0-9]")
            assert squeeze.sub("", entry["shown"]) == squeeze.sub("", entry["canonical"])


@pytest.mark.slow
def test_copied_superseded_values_are_scored_stale_as_the_ledger_says(tmp_path: Path) -> None:
    """A sim profile copying superseded values (`sloppy`: 60 % of the leaves where an older
    version differs) gets them `stale`, exactly as many as it injected, on the current
    documents of the superseded one's type, and never on any other."""
    on, _, seed = first("packet.superseded")
    packets = tmp_path / "packets"
    write(on, packets / f"N5-{seed:06d}")
    run = tmp_path / "run"
    extract(SimProvider("sloppy", 3), packets, run, force=True)
    score_run(run, packets)
    assert ledger_mismatches(run) == []
    verdicts = {key: doc["verdicts"] for key, doc in read_documents(run / "scores").items()}
    ledger = read_json(run / "sim_injections.json")["documents"]
    (older,) = [d for d in listed(on) if d["superseded_by"]]
    same_type = {
        d["doc_id"]
        for d in listed(on)
        if d["doc_type"] == older["doc_type"] and not d["superseded_by"]
    }
    stale = {key.split("/")[1]: counts.get("stale", 0) for key, counts in verdicts.items()}
    assert sum(stale.values()) > 0
    assert {d for d, n in stale.items() if n} <= same_type
    for key, entry in ledger.items():
        if entry["status"] == "ok":
            assert entry["verdicts"].get("stale", 0) == stale[key.split("/")[1]]
    # The stale claims carry the superseded document's values.
    claims = [
        {"verdict": verdict, "value": json.loads(value)}
        for verdict, value in duckdb.execute(
            f"SELECT verdict, value FROM '{run / 'scores' / 'claims.parquet'}'"
        ).fetchall()
    ]
    old = leaves(on.truth(older["doc_id"]))
    stale_claims = [c for c in claims if c["verdict"] == "stale"]
    assert stale_claims and all(c["value"] in old.values() for c in stale_claims)
    # The report counts them per tier.
    load_run(run, packets)
    files = write_report([run], tmp_path / "report")
    section = files.markdown.read_text().split("Stale verdicts by tier")[1].split("## 7.")[0]
    rows = [
        line.strip("|").split("|")
        for line in section.splitlines()
        if line.startswith("|") and "| N5 |" in line
    ]
    assert len(rows) == 1 and rows[0][-1].strip() == f"{sum(stale.values()):,}"


def test_a_phantom_reference_ticks_an_attachment_the_packet_lacks() -> None:
    on, off, _ = first("packet.phantom_reference")
    ((doc_id, record),) = applications(on, "packet.phantom_reference").items()
    assert doc_id == "acord_125" and record["truth"] == "value"
    refers_to, box = record["details"]["refers_to"], record["details"]["reference"]
    # The document it names is not in the packet...
    assert not any(d["doc_id"].startswith(refers_to) for d in listed(on))
    # ...and the application shows it ticked, in truth and on the page, where the plain
    # packet leaves it empty.
    assert record["ground_truth_delta"] == {box: {"canonical": "No", "shown": "Yes"}}
    ticked, plain = on.fields(doc_id)[box], off.fields(doc_id)[box]
    assert (ticked["value"], ticked["rendered_as"]) == ("Yes", "X")
    assert (plain["value"], plain["rendered_as"]) == ("No", "")
    assert leaves(on.truth(doc_id))[box] == "Yes"
    # Nothing else in the packet changes.
    assert all(
        on.truth(d["doc_id"]) == off.truth(d["doc_id"]) for d in listed(on) if d["doc_id"] != doc_id
    )


LOSS_RUNS = ("loss_run_pdf", "loss_run_excel", "loss_run_csv")


@pytest.mark.parametrize("pattern", ["packet.superseded", "packet.duplicate_document"])
@pytest.mark.slow
def test_an_older_loss_run_lists_only_what_was_reported_by_its_valuation_date(pattern: str) -> None:
    """The loss run as run earlier: the terms begun and the claims reported on or before its
    own valuation date, each as it stood then (closed since: still open, paid no more than
    now), and totals over what it lists. The claims reported since are in the current copy."""
    from packetbench.generator.packet import build_packet
    from packetbench.generator.tiers import resolve

    older_copies = reported_since = 0
    for seed in range(1, 7):
        on = Rendered(
            build_packet(
                "N5", seed, resolve("N5", {"documents": LOSS_RUNS, "patterns.only": (pattern,)})
            ).files
        )
        for older in (d for d in listed(on) if d["superseded_by"]):
            old, new = on.truth(older["doc_id"]), on.truth(older["superseded_by"])
            valued = old["valuation_date"]
            if valued is None:  # a CSV export shows the date on claim rows only
                assert older["doc_id"].startswith("loss_run_csv") and not old["policies"]
                continue
            assert valued < new["valuation_date"]
            assert old["run_date"] is None or old["run_date"] < new["run_date"]
            now = {c["claim_number"]: c for p in new["policies"] for c in p["claims"]}
            then = [c for p in old["policies"] for c in p["claims"]]
            assert {c["claim_number"] for c in then} == {
                n for n, c in now.items() if c["report_date"] <= valued
            }
            reported_since += len(now) - len(then)
            # (a CSV export has no totals: null in its truth)
            for policy in old["policies"]:
                assert policy["effective_date"] <= valued
                assert policy["totals"]["claim_count"] in (None, len(policy["claims"]))
            assert old["grand_totals"]["claim_count"] in (None, len(then))
            for claim in then:
                current = now[claim["claim_number"]]
                assert claim["paid"] <= current["paid"]
                if current["closed_date"] is not None and current["closed_date"] > valued:
                    assert claim["closed_date"] is None and claim["status"] == "Open"
                else:
                    assert claim["closed_date"] == current["closed_date"]
            older_copies += 1
    assert older_copies and reported_since  # claims came in between the two valuation dates
