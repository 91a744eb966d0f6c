"""The general supplemental application every packet carries: its agreement with the world
over 100 worlds per tier (applicant, premises, answers, prior insurance, signature), mutations
the checks must catch, and a rendered read-back of both formats at every tier."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import openpyxl
import pytest

from packetbench.core.leaves import iter_leaves
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.doctypes.common import signature_of
from packetbench.generator.doctypes.supplemental_general.model import (
    PREMISES_ROWS,
    GeneralAnswers,
    GeneralSupplement,
)
from packetbench.generator.fakers.supplements import GENERAL_QUESTIONS
from packetbench.generator.json_schema import document_schema
from packetbench.generator.packet import build_packet, sub_seed
from packetbench.generator.tiers import PRESETS, resolve
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.readback import check_document
from tests.support.sweep import seeds

NAME = "supplemental_general"
DOCS = ("supplemental_general_pdf", "supplemental_general_excel")
CSV = "supplemental_general_csv"
TIERS = tuple(PRESETS)
SEEDS = seeds(100)
# The parts of the world the supplement never reads, shrunk so 100 worlds per tier stay fast;
# buildings and the loss history keep the tier's sizes.
LIGHT: dict[str, object] = {
    "drivers.min_rows": 1,
    "drivers.max_rows": 2,
    "financials.years": 1,
    "loss_run.min_claims": 0,
    "loss_run.max_claims": 20,
}
VALIDATOR = jsonschema.Draft202012Validator(document_schema(NAME, GeneralSupplement))
FROM_APPLICATION = {
    "declined_cancelled": "declined_cancelled",
    "safety_program": "safety_program",
    "code_violations": "fire_code_violations",
}


def built(world: World, seed: int) -> GeneralSupplement:
    doc = DOC_TYPES[NAME].build(world, random.Random(sub_seed(seed, NAME)), {})
    assert isinstance(doc, GeneralSupplement)
    return doc


def whole_years(start: str, end: str) -> int:
    a, b = dt.date.fromisoformat(start), dt.date.fromisoformat(end)
    return b.year - a.year - ((b.month, b.day) < (a.month, a.day))


def expected_non_renewed(world: World) -> set[str]:
    """Independently: with a Yes to the application's declined/cancelled question, the terms
    of the last three years whose line the next year was written by another carrier."""
    declined = next(a.answer for a in world.underwriting if a.question == "declined_cancelled")
    if not declined:
        return set()
    effective = dt.date.fromisoformat(world.policy.effective_date)
    since = (
        effective.replace(year=effective.year - 3)
        if not (effective.month == 2 and effective.day == 29)
        else effective.replace(year=effective.year - 3, day=28)
    )
    by_start = {(t.line, t.effective_date): t for t in world.loss_history.terms}
    out = set()
    for term in world.loss_history.terms:
        following = by_start.get((term.line, term.expiration_date))
        if (
            following
            and following.carrier != term.carrier
            and (dt.date.fromisoformat(term.expiration_date) > since)
        ):
            out.add(term.policy_number)
    return out


def problems_of(doc: GeneralSupplement, world: World) -> list[str]:
    problems: list[str] = []
    insured, h, a, e = world.insured, doc.header, doc.applicant, doc.exposures
    if (h.policy_number, h.named_insured, h.carrier_name, h.effective_date) != (
        world.policy.number,
        insured.name,
        world.carrier.name,
        world.policy.effective_date,
    ):
        problems.append(f"header {h.policy_number} / {h.named_insured}")
    if (a.fein, a.entity_type, a.dba, a.phone, a.website, a.sic, a.naics) != (
        insured.fein,
        insured.entity_type,
        insured.dba,
        insured.phone,
        insured.website,
        insured.sic,
        insured.naics,
    ):
        problems.append("applicant identity disagrees with the insured")
    if a.mailing_address.street != insured.mailing_address.street:
        problems.append("mailing address disagrees")
    if a.nature_of_business != insured.nature_of_business or (
        (a.industry or "").lower() != insured.industry.lower()
    ):
        problems.append(f"class {a.nature_of_business} / {a.industry}")
    if a.business_start_date != insured.business_start_date or a.years_in_business != (
        whole_years(insured.business_start_date, world.policy.completion_date)
    ):
        problems.append(f"years in business {a.years_in_business}")
    if a.operations_description != insured.operations_description:
        problems.append("operations description disagrees")
    buildings = world.buildings()
    if (
        e.full_time_employees,
        e.part_time_employees,
        e.annual_revenue,
        e.location_count,
        e.building_count,
    ) != (
        insured.full_time_employees,
        insured.part_time_employees,
        insured.annual_revenue,
        len(world.locations),
        len(buildings),
    ):
        problems.append(f"exposures {e}")
    if len(doc.premises) != min(PREMISES_ROWS, len(buildings)):
        problems.append(f"{len(doc.premises)} premises rows for {len(buildings)} buildings")
    for row, b in zip(doc.premises, buildings, strict=False):
        found = (
            row.location_number,
            row.building_number,
            row.street,
            row.city,
            row.state,
            row.interest,
            row.occupancy,
            row.construction,
            row.year_built,
            row.stories,
            row.square_feet,
            row.sprinklered_percent,
        )
        wanted = (
            b.location_number,
            b.building_number,
            b.address.street,
            b.address.city,
            b.address.state,
            b.interest,
            b.occupancy,
            b.construction,
            b.year_built,
            b.stories,
            b.square_feet,
            b.sprinklered_percent,
        )
        if found != wanted:
            problems.append(f"premises row {found[:2]} is not building {wanted[:2]}")
    stated = {x.question: x for x in world.underwriting}
    for field, source in FROM_APPLICATION.items():
        answer = getattr(doc.answers, field)
        given = stated[source]
        if (answer.answer == "Yes", answer.explanation) != (given.answer, given.explanation):
            problems.append(f"question {field} disagrees with the application")
    sprinklered = all(b.sprinklered_percent == 100 for b in buildings)
    if (doc.answers.fully_sprinklered.answer == "Yes") != sprinklered:
        problems.append("question fully_sprinklered disagrees with the buildings")
    alarmed = all(b.fire_alarm == "Central Station" for b in buildings)
    if (doc.answers.central_alarm.answer == "Yes") != alarmed:
        problems.append("question central_alarm disagrees with the buildings")
    for field in GeneralAnswers.model_fields:
        answer = getattr(doc.answers, field)
        if answer.answer not in ("Yes", "No") or (answer.answer == "Yes") != (
            answer.explanation is not None
        ):
            problems.append(f"question {field}: {answer.answer} with {answer.explanation!r}")
    terms = world.loss_history.terms
    if [t.policy_number for t in doc.prior_insurance] != [t.policy_number for t in terms]:
        problems.append("prior terms are not the loss history's, in its order")
    non_renewed = expected_non_renewed(world)
    for prior, term in zip(doc.prior_insurance, terms, strict=False):
        incurred = sum(round(c.incurred * 100) for c in term.claims)
        if (
            prior.carrier,
            prior.line,
            prior.effective_date,
            prior.expiration_date,
            prior.premium,
            prior.claim_count,
            round((prior.incurred or 0) * 100),
        ) != (
            term.carrier,
            term.line,
            term.effective_date,
            term.expiration_date,
            term.premium,
            len(term.claims),
            incurred,
        ):
            problems.append(f"prior term {prior.policy_number} disagrees with the loss history")
        if prior.policy_year != int(term.effective_date[:4]):
            problems.append(f"prior term {prior.policy_number} year {prior.policy_year}")
        if (prior.non_renewed == "Yes") != (term.policy_number in non_renewed):
            problems.append(f"prior term {prior.policy_number} non-renewed {prior.non_renewed}")
    if any(row.non_renewed == "Yes" for row in doc.prior_insurance) and (
        doc.answers.declined_cancelled.answer != "Yes"
    ):
        problems.append("a non-renewed term with a No to the declined/cancelled question")
    if doc.signature != signature_of(world) or doc.signature.signer_name not in {
        p.name for p in world.principals
    }:
        problems.append("signature block is not an officer of the world")
    return problems


def test_answers_model_follows_its_question_bank() -> None:
    assert list(GeneralAnswers.model_fields) == [q.id for q in GENERAL_QUESTIONS]


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.sweep
def test_every_packet_carries_it_and_it_agrees_with_its_world(tier: str) -> None:
    knobs = resolve(tier, LIGHT)
    seen = {"non_renewed": 0, "truncated": 0, "sprinklered": 0}
    for seed in SEEDS:
        world = build_world(seed, knobs)
        assert DOC_TYPES[NAME].carried_by(world), (tier, seed)
        doc = built(world, seed)
        problems = problems_of(doc, world)
        assert not problems, f"{tier} seed {seed}: {problems[:5]}"
        if seed <= 3:
            VALIDATOR.validate(doc.model_dump(mode="json"))
        seen["non_renewed"] += any(r.non_renewed == "Yes" for r in doc.prior_insurance)
        seen["truncated"] += len(world.buildings()) > PREMISES_ROWS
        seen["sprinklered"] += doc.answers.fully_sprinklered.answer == "Yes"
    # The cases the checks exist for do occur: small schedules all sprinklered at N1 and N2,
    # more than a form's rows and more than one carrier from N3.
    if tier in ("N1", "N2"):
        assert seen["sprinklered"] > 0, seen
    else:
        assert seen["non_renewed"] > 0 and seen["truncated"] > 0, seen


def _found(
    seed_filter: Callable[[World], bool] = lambda w: True,
) -> tuple[GeneralSupplement, World]:
    knobs = resolve("N3", LIGHT)
    for seed in range(1, 300):
        world = build_world(seed, knobs)
        if seed_filter(world):
            return built(world, seed), world
    raise AssertionError("no world fits")


def _flip(answer: Any) -> None:
    yes = answer.answer == "Yes"
    answer.__dict__.update(answer="No" if yes else "Yes", explanation=None if yes else "Made up.")


MUTATIONS: dict[str, tuple[Callable[[GeneralSupplement], object], str]] = {
    "header": (lambda d: setattr(d.header, "policy_number", "X-1"), "header"),
    "fein": (lambda d: setattr(d.applicant, "fein", "00-0000000"), "applicant identity"),
    "years": (
        lambda d: setattr(
            d.applicant, "years_in_business", (d.applicant.years_in_business or 0) + 1
        ),
        "years in business",
    ),
    "buildings": (lambda d: setattr(d.exposures, "building_count", 999), "exposures"),
    "premises": (lambda d: setattr(d.premises[0], "year_built", 1800), "premises row"),
    "dropped row": (lambda d: d.premises.pop(), "premises rows"),
    "safety": (lambda d: _flip(d.answers.safety_program), "safety_program"),
    "sprinklers": (lambda d: _flip(d.answers.fully_sprinklered), "fully_sprinklered"),
    "explanation": (lambda d: setattr(d.answers.osha, "explanation", "Nothing."), "osha"),
    "premium": (
        lambda d: setattr(d.prior_insurance[0], "premium", (d.prior_insurance[0].premium or 0) + 1),
        "prior term",
    ),
    "claims": (lambda d: setattr(d.prior_insurance[-1], "claim_count", 99), "prior term"),
    "non-renewed": (lambda d: setattr(d.prior_insurance[0], "non_renewed", "Yes"), "non-renewed"),
    "order": (lambda d: d.prior_insurance.reverse(), "order"),
    "signature": (lambda d: setattr(d.signature, "signer_name", "Nobody"), "officer"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_invariant_checks_catch_a_broken_supplement(name: str) -> None:
    mutate, fragment = MUTATIONS[name]
    doc, world = _found(
        lambda w: (
            len(w.loss_history.terms) > 1
            and not any(a.answer for a in w.underwriting if a.question == "declined_cancelled")
        )
    )
    assert not problems_of(doc, world)
    mutate(doc)
    problems = problems_of(doc, world)
    assert any(fragment in problem for problem in problems), problems


def test_validation_rejects_a_value_outside_its_code_list() -> None:
    doc, _ = _found()
    data = doc.model_dump(mode="json")
    data["premises"][0]["interest"] = "Landlord"
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(data)


@pytest.mark.parametrize("tier", TIERS)
def test_rendered_supplement_reads_back(tier: str, tmp_path: Path) -> None:
    seed = 2
    packet = build_packet(tier, seed, plain(tier, {"documents": (*DOCS, CSV)}))
    for file, data in packet.files.items():
        (tmp_path / file).write_bytes(data)
    world = World.model_validate(json.loads(packet.files["packet_truth.json"])["world"])
    expected = built(world, seed)
    non_null = [path for path, value, _ in iter_leaves(expected) if value is not None]
    for doc_id in DOCS:
        truth = json.loads((tmp_path / f"document_truth_{doc_id}.json").read_text())["truth"]
        VALIDATOR.validate(truth)
        assert truth == expected.model_dump(mode="json")
        fields = json.loads((tmp_path / f"field_truth_{doc_id}.json").read_text())["fields"]
        assert [f["path"] for f in fields] == non_null
        checked, bad = check_document(tmp_path, doc_id)
        assert bad == [], bad[:3]
        assert checked >= len(fields)
    # The CSV export: the history and the insured's name, every other leaf null.
    truth = json.loads((tmp_path / f"document_truth_{CSV}.json").read_text())["truth"]
    VALIDATOR.validate(truth)
    shown = [p for p in non_null if p.startswith("prior_insurance[") or p == "header.named_insured"]
    fields = json.loads((tmp_path / f"field_truth_{CSV}.json").read_text())["fields"]
    assert sorted(f["path"] for f in fields) == sorted(shown)
    assert truth["prior_insurance"] == expected.model_dump(mode="json")["prior_insurance"]
    assert truth["applicant"]["fein"] is None and truth["premises"] == []
    checked, bad = check_document(tmp_path, CSV)
    assert bad == [] and checked >= len(fields)
    rows = (tmp_path / f"{CSV}.csv").read_text().splitlines()
    assert len(rows) == 1 + len(expected.prior_insurance)
    # The PDF: two or three pages, the policy identification on every one.
    pages = packet.pages["supplemental_general_pdf"]
    assert 2 <= pages <= 3, pages
    fields = json.loads((tmp_path / "field_truth_supplemental_general_pdf.json").read_text())
    number = next(f for f in fields["fields"] if f["path"] == "header.policy_number")
    assert sorted({loc["page"] for loc in number["locations"]}) == list(range(1, pages + 1))
    # The workbook: four sheets, each table where its sheet says.
    book = openpyxl.load_workbook(tmp_path / "supplemental_general_excel.xlsx")
    assert book.sheetnames == ["Applicant", "Premises", "Questions", "Prior Insurance"]
    sheets = {
        f["path"]: f["locations"][0]["sheet"]
        for f in json.loads((tmp_path / "field_truth_supplemental_general_excel.json").read_text())[
            "fields"
        ]
    }
    assert sheets["premises[0].street"] == "Premises"
    assert sheets["prior_insurance[0].carrier"] == "Prior Insurance"
    assert sheets["answers.vacancy.answer"] == "Questions"
    assert sheets["signature.signer_name"] == "Applicant"


def test_packet_bytes_are_reproducible() -> None:
    knobs = plain("N4", {"documents": (*DOCS, CSV)})
    assert build_packet("N4", 5, knobs).files == build_packet("N4", 5, knobs).files
