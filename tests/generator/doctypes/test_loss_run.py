"""Loss run: model invariants over many seeds per tier, and rendered read-back per tier."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from packetbench.generator.doctypes.loss_run.build import build
from packetbench.generator.doctypes.loss_run.csvexport import OMITS, with_claims_only
from packetbench.generator.doctypes.loss_run.model import LossRun, LossTotals
from packetbench.generator.packet import build_packet, sub_seed
from packetbench.generator.schema_files import all_schemas
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from packetbench.generator.world.tables import drawn_from
from tests.support.paths import plain
from tests.support.readback import check_document
from tests.support.sweep import seeds
from tests.support.values import cents, day

# Written out here, independently of the code lists, so the test is an oracle.
OPEN_STATUSES = frozenset({"Open", "Re-opened", "Subrogation", "In Suit"})

TIERS = ("N1", "N2", "N3", "N4", "N5")
# World building dominates the run time and grows with the tier's table sizes.
SEEDS = {
    "N1": seeds(40),
    "N2": seeds(40),
    "N3": seeds(40),
    "N4": seeds(12),
    "N5": seeds(8),
}
DOC_IDS = ("loss_run_pdf", "loss_run_excel", "loss_run_csv")
CLOSED = {"Closed", "Closed Without Payment", "Denied"}


@cache
def built(tier: str, seed: int) -> tuple[World, LossRun]:
    knobs = plain(tier)
    world = build_world(seed, knobs)
    return world, build(world, random.Random(sub_seed(seed, "loss_run")), knobs)


@cache
def validator() -> Draft202012Validator:
    return Draft202012Validator(all_schemas()["loss_run"])


def check_totals(totals: LossTotals, claims: list[Any]) -> None:
    assert totals.claim_count == len(claims)
    assert totals.open_claims == sum(1 for c in claims if c.status in OPEN_STATUSES)
    for key in ("paid", "reserve", "incurred"):
        assert cents(getattr(totals, key)) == sum(cents(getattr(c, key)) for c in claims), key


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.slow
def test_model_invariants(tier: str) -> None:
    knobs = plain(tier)
    for seed in SEEDS[tier]:
        world, doc = built(tier, seed)
        LossRun.model_validate(doc.model_dump(mode="json"))  # code lists, ISO dates, keys
        history = world.loss_history
        assert doc.insured_name == world.insured.name
        assert doc.agency_name == world.producer.agency_name
        assert (doc.valuation_date, doc.run_date) == (history.valuation_date, history.run_date)
        valuation = day(doc.valuation_date)
        assert valuation <= day(doc.run_date)
        assert [p.policy_number for p in doc.policies] == [t.policy_number for t in history.terms]
        effective = [day(p.effective_date) for p in doc.policies]
        assert effective == sorted(effective, reverse=True)  # most recent term first
        all_claims = []
        for policy, term in zip(doc.policies, history.terms, strict=True):
            assert (policy.carrier, policy.line_of_business) == (term.carrier, term.line)
            assert (policy.effective_date, policy.expiration_date) == (
                term.effective_date,
                term.expiration_date,
            )
            start, end = day(policy.effective_date), day(policy.expiration_date)
            assert start < end
            assert [c.model_dump() for c in policy.claims] == [c.model_dump() for c in term.claims]
            for claim in policy.claims:
                loss, report = day(claim.loss_date), day(claim.report_date)
                assert start <= loss < end
                assert loss <= report <= valuation
                if claim.status in OPEN_STATUSES:
                    assert claim.closed_date is None
                else:
                    assert claim.status in CLOSED
                    assert report <= day(claim.closed_date) <= valuation
                    assert cents(claim.reserve) == 0
                assert cents(claim.incurred) == cents(claim.paid) + cents(claim.reserve)
                assert min(cents(claim.paid), cents(claim.reserve)) >= 0
                property_claim = policy.line_of_business == "Commercial Property"
                assert (claim.location_number is not None) == property_claim
            check_totals(policy.totals, policy.claims)
            all_claims += policy.claims
        check_totals(doc.grand_totals, all_claims)
        drawn = drawn_from(seed, knobs)  # N5: one long table, the others shorter
        assert drawn["loss_run.min_claims"] <= len(all_claims) <= drawn["loss_run.max_claims"]


def test_n5_reaches_hundreds_of_claims() -> None:
    counts = [built("N5", seed)[1].grand_totals.claim_count or 0 for seed in SEEDS["N5"]]
    assert max(counts) >= 300  # the knob allows 120-500; several hundred must occur


def test_csv_view_keeps_every_claim() -> None:
    for seed in SEEDS["N1"]:
        _, doc = built("N1", seed)
        view = with_claims_only(doc)
        assert all(p.claims for p in view.policies)
        assert [c for p in view.policies for c in p.claims] == [
            c for p in doc.policies for c in p.claims
        ]
        assert len(doc.policies) == len(view.policies) + sum(
            1 for p in doc.policies if not p.claims
        )


# --- rendered --------------------------------------------------------------------------------


def write(tier: str, seed: int, folder: Path) -> Path:
    packet = build_packet(tier, seed, plain(tier, {"documents": DOC_IDS}))
    folder.mkdir()
    for name, data in packet.files.items():
        (folder / name).write_bytes(data)
    return folder


def load(folder: Path, kind: str, doc_id: str) -> Any:
    return json.loads((folder / f"{kind}_{doc_id}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("tier", TIERS)
def test_rendered_readback(tier: str, tmp_path: Path) -> None:
    seed = 3
    folder = write(tier, seed, tmp_path / tier)
    _, doc = built(tier, seed)
    claims = doc.grand_totals.claim_count or 0
    for doc_id in DOC_IDS:
        checked, bad = check_document(folder, doc_id)
        assert not bad, bad[:3]
        # Eleven claim values at most, at least eight, per claim in every format.
        assert checked >= 8 * claims, (doc_id, checked)
        truth = load(folder, "document_truth", doc_id)["truth"]
        LossRun.model_validate(truth)
        validator().validate(truth)
    assert load(folder, "document_truth", "loss_run_pdf")["truth"] == doc.model_dump(mode="json")
    assert load(folder, "document_truth", "loss_run_excel")["truth"] == doc.model_dump(mode="json")


def test_csv_rows_and_omissions(tmp_path: Path) -> None:
    folder = write("N2", 5, tmp_path / "p")
    _, doc = built("N2", 5)
    truth = load(folder, "document_truth", "loss_run_csv")["truth"]
    assert truth["agency_name"] is None and truth["run_date"] is None
    assert set(truth["grand_totals"].values()) == {None}
    assert [p["policy_number"] for p in truth["policies"]] == [
        p.policy_number for p in doc.policies if p.claims
    ]
    fields = {f["path"]: f for f in load(folder, "field_truth", "loss_run_csv")["fields"]}
    assert not any(".totals." in path or path.startswith("grand_totals") for path in fields)
    assert {"agency_name", "run_date"}.isdisjoint(fields)
    assert "policies[].totals.incurred" in OMITS
    row = 1
    for index, policy in enumerate(truth["policies"]):
        rows = list(range(row, row + len(policy["claims"])))
        # A policy value repeated on each of its claim rows is located once per row.
        assert [loc["row"] for loc in fields[f"policies[{index}].carrier"]["locations"]] == rows
        row += len(policy["claims"])
    assert len(fields["valuation_date"]["locations"]) == row - 1
    amount = fields["policies[0].claims[0].paid"]["rendered_as"]
    assert "$" not in amount and "," not in amount and amount.split(".")[1].isdigit()


def test_pdf_shows_clean_years_and_cents(tmp_path: Path) -> None:
    seed = next(s for s in SEEDS["N1"] if any(not p.claims for p in built("N1", s)[1].policies))
    folder = write("N1", seed, tmp_path / "p")
    _, doc = built("N1", seed)
    strings = [s["text"] for s in load(folder, "rendered_universe", "loss_run_pdf")["strings"]]
    assert "NO LOSSES REPORTED" in strings
    fields = {f["path"]: f for f in load(folder, "field_truth", "loss_run_pdf")["fields"]}
    empty = next(i for i, p in enumerate(doc.policies) if not p.claims)
    assert fields[f"policies[{empty}].totals.claim_count"]["rendered_as"] == "0"
    assert fields[f"policies[{empty}].totals.incurred"]["rendered_as"] == "$0.00"
    assert fields["grand_totals.incurred"]["rendered_as"].endswith(
        f".{cents(doc.grand_totals.incurred) % 100:02d}"
    )
    pages = load(folder, "manifest", "loss_run_pdf")["pages"]
    # The report header (insured name) is on every page.
    assert len(fields["insured_name"]["locations"]) == pages


def test_deterministic(tmp_path: Path) -> None:
    knobs = plain("N2", {"documents": DOC_IDS})
    first, second = build_packet("N2", 11, knobs), build_packet("N2", 11, knobs)
    assert first.files == second.files


def test_claim_free_history(tmp_path: Path) -> None:
    knobs = plain("N1", {"documents": DOC_IDS, "loss_run.min_claims": 0, "loss_run.max_claims": 0})
    packet = build_packet("N1", 2, knobs)
    folder = tmp_path / "p"
    folder.mkdir()
    for name, data in packet.files.items():
        (folder / name).write_bytes(data)
    for doc_id in DOC_IDS:
        assert not check_document(folder, doc_id)[1]
    pdf = load(folder, "document_truth", "loss_run_pdf")["truth"]
    assert pdf["policies"] and pdf["grand_totals"]["claim_count"] == 0
    # An export with no claim rows shows only its header: nothing is left to extract.
    assert load(folder, "field_truth", "loss_run_csv")["fields"] == []
    assert packet.files["loss_run_csv.csv"].count(b"\r\n") == 1
