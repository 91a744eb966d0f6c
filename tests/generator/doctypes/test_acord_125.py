"""The PB-125 application: model invariants over many worlds, and rendered read-back."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from packetbench.core import codes
from packetbench.core.leaves import DocModel, iter_leaves
from packetbench.generator.doctypes.acord_125.build import build
from packetbench.generator.doctypes.acord_125.model import (
    CommercialApplication,
    GeneralInformation,
    LegalEntity,
    LinesOfBusiness,
    NatureOfBusiness,
    TransactionStatus,
    code_field,
)
from packetbench.generator.fakers.insurance import QUESTIONS
from packetbench.generator.json_schema import document_schema
from packetbench.generator.packet import build_packet, sub_seed
from packetbench.generator.tiers import PRESETS
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.readback import check_document
from tests.support.sweep import seeds
from tests.support.values import cents, day

TIERS = tuple(PRESETS)
# N4 and N5 worlds are the slowest to build, and the form caps its tables, so fewer seeds.
SEEDS = {"N4": seeds(20), "N5": seeds(10)}
DEFAULT_SEEDS = seeds(40)
SCHEMA = Draft202012Validator(document_schema("acord_125", CommercialApplication))

Case = tuple[World, CommercialApplication, dict[str, Any]]

# Written out here, independently of the code lists, so the test is an oracle.
CLOSED = frozenset({"Closed", "Closed Without Payment", "Denied"})


@cache
def cases(tier: str) -> tuple[Case, ...]:
    """(world, document, knobs) for every test seed of `tier`, built once per session."""
    knobs = plain(tier)
    out = []
    for seed in SEEDS.get(tier, DEFAULT_SEEDS):
        world = build_world(seed, knobs)
        out.append((world, build(world, random.Random(seed), knobs), knobs))
    return tuple(out)


def ticked(group: DocModel, exclude: tuple[str, ...] = ()) -> list[str]:
    return [
        name
        for name in type(group).model_fields
        if name not in exclude and getattr(group, name) == "Yes"
    ]


def problems(world: World, doc: CommercialApplication, knobs: dict[str, Any]) -> list[str]:
    """Every broken invariant of `doc` against itself and its world (empty when sound)."""
    found: list[str] = []

    def expect(ok: bool, what: str) -> None:
        if not ok:
            found.append(what)

    policy, insured = world.policy, world.insured
    # Checkbox groups: exactly one box ticked, the one the world says.
    expect(ticked(doc.transaction_status) == [code_field(policy.status)], "transaction status")
    expect(ticked(doc.applicant.legal_entity) == [code_field(insured.entity_type)], "entity")
    expect(
        ticked(doc.nature_of_business) == [code_field(insured.nature_of_business)],
        "nature of business",
    )
    billing = [
        b
        for b, box in (
            ("Direct Bill", doc.policy.direct_bill),
            ("Agency Bill", doc.policy.agency_bill),
        )
        if box == "Yes"
    ]
    expect(billing == [policy.billing_method], "billing")
    # Lines: premium shown exactly when selected; total = sum of line premiums, in cents.
    world_lines = {line.line: cents(line.premium) for line in policy.lines}
    shown: dict[str, int] = {}
    for value in codes.LOSS_LINE.values:
        entry = getattr(doc.lines_of_business, code_field(value))
        expect((entry.selected == "Yes") == (entry.premium is not None), f"{value} premium")
        if entry.selected == "Yes":
            shown[value] = cents(entry.premium)
    expect(shown == world_lines, "line premiums differ from the world")
    expect(sum(shown.values()) == cents(doc.policy.estimated_premium), "total premium != sum")
    expect(cents(doc.policy.estimated_premium) == cents(policy.total_premium), "total premium")
    expect(cents(doc.policy.deposit) <= cents(doc.policy.estimated_premium), "deposit > total")
    expect(doc.policy.payment_plan == policy.payment_plan, "payment plan")
    expect(doc.policy.audit_frequency == policy.audit_frequency, "audit frequency")
    # Dates in order.
    expect(
        day(doc.applicant.business_start_date)
        < day(doc.carrier.completion_date)
        < day(doc.policy.effective_date)
        < day(doc.policy.expiration_date),
        "date order",
    )
    expect(doc.signature.signature_date == doc.carrier.completion_date, "signature date")
    # Parties equal the world.
    expect(
        doc.applicant.name == insured.name
        and doc.applicant.fein == insured.fein
        and doc.applicant.dba == insured.dba
        and doc.applicant.naics == insured.naics,
        "applicant",
    )
    expect(
        doc.agency.name == world.producer.agency_name
        and doc.agency.address.zip == world.producer.address.zip,
        "agency",
    )
    expect(
        doc.carrier.name == world.carrier.name
        and doc.carrier.naic_code == world.carrier.naic
        and doc.carrier.policy_number == policy.number,
        "carrier",
    )
    expect(
        [(c.role, c.name, c.email) for c in doc.contacts]
        == [(c.role, c.name, c.email) for c in insured.contacts],
        "contacts",
    )
    expect(doc.signature.applicant_signer in {c.name for c in insured.contacts}, "signer")
    expect(doc.signature.producer_npn == world.producer.npn, "npn")
    documents = knobs["documents"]
    expect(
        (doc.attachments.statement_of_values == "Yes")
        == any(d.startswith("sov_") for d in documents),
        "sov attachment",
    )
    expect(
        (doc.attachments.loss_runs == "Yes") == any(d.startswith("loss_run_") for d in documents),
        "loss-run attachment",
    )
    # Premises: the first four locations, area summed over their buildings.
    expect(doc.premises_count == len(world.locations), "premises count")
    expect(len(doc.premises) == min(4, len(world.locations)), "premises rows")
    for row, loc in zip(doc.premises, world.locations, strict=False):
        expect(
            row.location_number == loc.number and row.address.street == loc.address.street,
            f"premises {loc.number} address",
        )
        expect(
            row.occupied_area == sum(b.square_feet for b in loc.buildings),
            f"premises {loc.number} area",
        )
        expect(cents(row.annual_revenue) == cents(loc.annual_revenue), "premises revenue")
        expect(row.full_time_employees == loc.full_time_employees, "premises employees")
        expect(
            ticked(row, ("operations",)) == [loc.buildings[0].interest.lower()],
            f"premises {loc.number} interest",
        )
    # General information: answers in question order; explanation only with a Yes.
    answers = {a.question: a for a in world.underwriting}
    for question in QUESTIONS:
        row_answer = getattr(doc.general_information, question.id)
        expect(
            row_answer.answer == ("Yes" if answers[question.id].answer else "No"),
            f"answer {question.id}",
        )
        expect(
            (row_answer.explanation is None) == (row_answer.answer == "No"),
            f"explanation {question.id}",
        )
    # Prior carriers: the three most recent years, each term found in the world history.
    recent = sorted({day(t.effective_date).year for t in world.loss_history.terms}, reverse=True)
    expect([y.year for y in doc.prior_carriers] == recent[:3], "prior years")
    terms = {(t.line, t.effective_date): t for t in world.loss_history.terms}
    for prior in doc.prior_carriers:
        for line in ("Commercial Property", "General Liability", "Commercial Auto"):
            entry = getattr(prior, code_field(line))
            if entry.effective_date is None:
                expect(
                    all(not (k[0] == line and day(k[1]).year == prior.year) for k in terms),
                    f"prior {prior.year} {line} missing",
                )
                continue
            term = terms.get((line, entry.effective_date))
            expect(
                term is not None
                and term.policy_number == entry.policy_number
                and cents(term.premium) == cents(entry.premium)
                and day(entry.effective_date).year == prior.year
                and day(entry.effective_date) < day(entry.expiration_date),
                f"prior {prior.year} {line}",
            )
    # Loss history: the largest claims, most recent first, totals summed in cents.
    claims = [c for t in world.loss_history.terms for c in t.claims]
    losses = doc.loss_history.losses
    expect(len(losses) == min(6, len(claims)), "loss rows")
    expect((doc.loss_history.no_prior_losses == "Yes") == (not claims), "no prior losses")
    dates = [day(loss.loss_date) for loss in losses]
    expect(dates == sorted(dates, reverse=True), "loss order")
    listed = sorted(cents(loss.paid) + cents(loss.reserved) for loss in losses)
    all_incurred = sorted((cents(c.incurred) for c in claims), reverse=True)
    expect(listed == sorted(all_incurred[:6]), "losses are not the largest")
    if losses:
        expect(sum(listed) == cents(doc.loss_history.total_incurred), "total incurred != sum")
    else:
        expect(doc.loss_history.total_incurred is None, "total without losses")
    by_key = {(c.loss_date, c.description, cents(c.paid)): c for c in claims}
    for loss in losses:
        claim = by_key.get((loss.loss_date or "", loss.description or "", cents(loss.paid)))
        expect(
            claim is not None
            and cents(claim.reserve) == cents(loss.reserved)
            and (loss.open == "Yes") == (claim.status not in CLOSED),
            f"loss {loss.loss_date}",
        )
        expect(day(loss.loss_date) < day(doc.carrier.completion_date), "loss after completion")
    return found


@pytest.mark.parametrize("tier", TIERS)
def test_model_is_sound_and_equals_the_world(tier: str) -> None:
    for world, doc, knobs in cases(tier):
        assert problems(world, doc, knobs) == [], world.insured.name


@pytest.mark.parametrize("tier", TIERS)
def test_model_validates(tier: str) -> None:
    for _, doc, _ in cases(tier):
        data = doc.model_dump(mode="json")
        CommercialApplication.model_validate(data)  # leaf checks: code lists, ISO dates
        assert not list(SCHEMA.iter_errors(data))


def test_invariants_catch_broken_documents() -> None:
    """The checks can fail: each corruption below is reported."""
    world, doc, knobs = cases("N3")[0]
    corruptions = [
        ("policy", "estimated_premium", (doc.policy.estimated_premium or 0) + 0.01),
        ("transaction_status", "cancel", "Yes"),
        ("loss_history", "total_incurred", (doc.loss_history.total_incurred or 0) + 1),
        ("nature_of_business", "institutional", "Yes"),
    ]
    for section, name, value in corruptions:
        broken = doc.model_copy(deep=True)
        setattr(getattr(broken, section), name, value)
        assert problems(world, broken, knobs), f"{section}.{name} corruption went unnoticed"
    broken = doc.model_copy(deep=True)
    broken.premises[0].occupied_area = (broken.premises[0].occupied_area or 0) + 100
    assert problems(world, broken, knobs)


def test_no_losses_ticks_the_box() -> None:
    knobs = plain("N1", {"loss_run.min_claims": 0, "loss_run.max_claims": 0})
    world = build_world(3, knobs)
    doc = build(world, random.Random(3), knobs)
    assert doc.loss_history.no_prior_losses == "Yes"
    assert doc.loss_history.losses == [] and doc.loss_history.total_incurred is None
    assert problems(world, doc, knobs) == []


def test_checkbox_groups_follow_their_code_lists() -> None:
    for model, code_list in (
        (TransactionStatus, codes.TRANSACTION_STATUS),
        (LegalEntity, codes.ENTITY_TYPE),
        (LinesOfBusiness, codes.LOSS_LINE),
    ):
        assert set(model.model_fields) == {code_field(v) for v in code_list.values}
    boxes = set(NatureOfBusiness.model_fields) - {"operations_description"}
    assert boxes == {code_field(v) for v in codes.NATURE_OF_BUSINESS.values}
    assert list(GeneralInformation.model_fields) == [q.id for q in QUESTIONS]


@pytest.mark.parametrize("tier", TIERS)
def test_rendered_form_reads_back(tier: str, tmp_path: Path) -> None:
    seed = 5
    knobs = plain(tier, {"documents": ("acord_125",)})
    built = build_packet(tier, seed, knobs)
    for name, data in built.files.items():
        (tmp_path / name).write_bytes(data)
    checked, bad = check_document(tmp_path, "acord_125")
    assert not bad, f"{len(bad)} of {checked} differ, first {bad[0]}"
    truth = json.loads((tmp_path / "document_truth_acord_125.json").read_text())["truth"]
    assert not list(SCHEMA.iter_errors(truth))
    # Nothing is omitted: the truth is the whole model, and every value of it is on the page.
    world = build_world(seed, knobs)
    doc = build(world, random.Random(sub_seed(seed, "acord_125")), knobs)
    assert truth == doc.model_dump(mode="json")
    drawn = sum(1 for _, value, _ in iter_leaves(doc) if value is not None)
    fields = json.loads((tmp_path / "field_truth_acord_125.json").read_text())["fields"]
    assert len(fields) == drawn > 150
    assert checked >= drawn
    assert 3 <= built.pages["acord_125"] <= 4


def test_rendering_is_deterministic() -> None:
    knobs = plain("N2", {"documents": ("acord_125",)})
    first = build_packet("N2", 9, knobs).files
    assert first == build_packet("N2", 9, knobs).files
