"""The WC experience-rating worksheet: its arithmetic and its agreement with the world over
200 worlds per tier, mutations the checks must catch, and a rendered read-back of both
formats per tier."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest

from packetbench.core.codes import INJURY_TYPE
from packetbench.core.leaves import iter_leaves
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.doctypes.experience_mod.build import build
from packetbench.generator.doctypes.experience_mod.model import ExperienceMod
from packetbench.generator.json_schema import document_schema
from packetbench.generator.packet import build_packet, sub_seed
from packetbench.generator.tiers import PRESETS
from packetbench.generator.world.build import build_world
from packetbench.generator.world.experience import SPLIT_POINT
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.readback import check_document
from tests.support.sweep import seeds
from tests.support.values import day, half_up

TIERS = tuple(PRESETS)
WC: dict[str, object] = {"lines": ("property", "gl", "wc")}
# Shrinks what the worksheet never reads, so 200 worlds per tier stay fast; the full-size
# seeds keep the tier's own loss history (the worksheet borrows its WC policy numbers).
LIGHT: dict[str, object] = {
    "sov.min_rows": 1,
    "sov.max_rows": 2,
    "loss_run.min_claims": 0,
    "loss_run.max_claims": 0,
    "financials.years": 1,
}
SEEDS = seeds(200)
FULL_SEEDS = seeds(5)
DOCS = ("experience_mod_pdf", "experience_mod_excel")
SCHEMA = document_schema("experience_mod", ExperienceMod)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def money(value: float | None) -> int:
    """Whole dollars of a worksheet amount (every amount on it is whole dollars)."""
    assert value is not None and float(value).is_integer(), value
    return int(value)


def internal_problems(doc: ExperienceMod) -> list[str]:
    """Every arithmetic rule of the worksheet the document breaks, as readable messages."""
    problems: list[str] = []
    try:
        ExperienceMod.model_validate(doc.model_dump(mode="json"))
    except ValueError as error:
        problems.append(f"invalid: {str(error).splitlines()[0]}")
    sums = dict.fromkeys(("payroll", "expected", "primary", "incurred", "actual_primary"), 0)
    numbers: list[str | None] = []
    effective = day(doc.rating_effective_date)
    for index, policy in enumerate(doc.policies):
        tag = f"policy {index + 1}"
        start, end = day(policy.effective_date), day(policy.expiration_date)
        if (start.year, end.year) != (effective.year - 4 + index, effective.year - 3 + index):
            problems.append(f"{tag}: period {start} to {end} for a rating at {effective}")
        own = dict.fromkeys(sums, 0)
        for row in policy.classes:
            payroll, elr = money(row.payroll), Fraction(str(row.elr))
            expected = money(row.expected_losses)
            if expected != half_up(payroll * elr / 100):
                problems.append(
                    f"{tag} class {row.class_code}: expected {expected} != "
                    f"payroll {payroll} x ELR {row.elr} / 100"
                )
            if money(row.expected_primary) != half_up(expected * Fraction(str(row.d_ratio))):
                problems.append(
                    f"{tag} class {row.class_code}: expected primary "
                    f"{row.expected_primary} != expected x D-ratio"
                )
            own["payroll"] += payroll
            own["expected"] += expected
            own["primary"] += money(row.expected_primary)
        for claim in policy.claims:
            incurred, primary = money(claim.actual_incurred), money(claim.actual_primary)
            if primary != min(incurred, money(doc.split_point)):
                problems.append(f"claim {claim.claim_number}: primary {primary} of {incurred}")
            if claim.injury_type == "Medical Only" and incurred > money(doc.split_point):
                problems.append(f"claim {claim.claim_number}: medical only of {incurred}")
            own["incurred"] += incurred
            own["actual_primary"] += primary
            numbers.append(claim.claim_number)
        totals = policy.totals
        stated = {
            "payroll": totals.payroll,
            "expected": totals.expected_losses,
            "primary": totals.expected_primary,
            "incurred": totals.actual_incurred,
            "actual_primary": totals.actual_primary,
        }
        for key, value in own.items():
            if money(stated[key]) != value:
                problems.append(f"{tag}: total {key} {stated[key]} != sum {value}")
            sums[key] += value
    if len(set(numbers)) != len(numbers):
        problems.append("a claim number appears twice")
    r = doc.rating
    e, ep, ee = money(r.expected_losses), money(r.expected_primary), money(r.expected_excess)
    ai, ap, ae = money(r.actual_incurred), money(r.actual_primary), money(r.actual_excess)
    b = money(r.ballast_value)
    for name, value, expected in (
        ("E", e, sums["expected"]),
        ("Ep", ep, sums["primary"]),
        ("actual incurred", ai, sums["incurred"]),
        ("Ap", ap, sums["actual_primary"]),
        ("Ee", ee, e - ep),
        ("Ae", ae, ai - ap),
    ):
        if value != expected:
            problems.append(f"{name} {value} != {expected}")
    w = Fraction(str(r.weighting_value))
    if not 0 < w < 1:
        problems.append(f"weighting {w}")
    adjusted = half_up(ap + w * ae + (1 - w) * ee + b)
    if money(r.adjusted_actual) != adjusted:
        problems.append(f"adjusted actual {r.adjusted_actual} != {adjusted}")
    if money(r.adjusted_expected) != e + b:
        problems.append(f"adjusted expected {r.adjusted_expected} != E + B {e + b}")
    mod = half_up(Fraction(money(r.adjusted_actual), money(r.adjusted_expected)), 2)
    if Fraction(str(r.experience_mod)) != mod:
        problems.append(f"experience mod {r.experience_mod} != {float(mod)}")
    return problems


def problems_of(doc: ExperienceMod, world: World) -> list[str]:
    """The worksheet's own rules and its agreement with the world's WC line."""
    problems = internal_problems(doc)
    wc = world.workers_comp
    assert wc is not None
    if doc.rating.experience_mod != wc.experience_mod:
        problems.append(f"mod {doc.rating.experience_mod} != the WC line's {wc.experience_mod}")
    if (doc.risk_name, doc.risk_id, doc.rating_effective_date) != (
        world.insured.name,
        wc.risk_id,
        wc.mod_effective_date,
    ):
        problems.append("risk name, id or rating date disagree with the world")
    if not day(doc.production_date) < day(world.policy.completion_date):
        problems.append(f"produced {doc.production_date} after the application")
    rated = {(c.state, c.class_code) for c in wc.classes}
    states = {state for state, _ in rated}
    if doc.rating_state != (next(iter(states)) if len(states) == 1 else "Interstate"):
        problems.append(f"rating state {doc.rating_state} for {sorted(states)}")
    terms = {
        t.effective_date: t for t in world.loss_history.terms if t.line == "Workers Compensation"
    }
    for policy in doc.policies:
        if {(c.state, c.class_code) for c in policy.classes} != rated:
            problems.append(f"policy {policy.policy_number}: classes differ from the rated ones")
        term = terms.get(policy.effective_date or "")
        if term and (term.carrier, term.policy_number) != (policy.carrier, policy.policy_number):
            problems.append(
                f"policy {policy.policy_number} is not the loss run's {term.policy_number}"
            )
    return problems


def worksheet(tier: str, seed: int, light: bool) -> tuple[World, ExperienceMod | None]:
    knobs = plain(tier, {**WC, **(LIGHT if light else {})})
    world = build_world(seed, knobs)
    if not DOC_TYPES["experience_mod"].carried_by(world):
        return world, None
    return world, build(world, random.Random(sub_seed(seed, "experience_mod")), knobs)


@pytest.mark.sweep
@pytest.mark.parametrize("tier", TIERS)
def test_worksheet_invariants_hold_over_many_worlds(tier: str) -> None:
    seen = {"rated": 0, "unrated": 0, "credit": 0, "debit": 0, "excess": 0, "borrowed": 0}
    cases = [(seed, True) for seed in SEEDS] + [(seed, False) for seed in FULL_SEEDS]
    for seed, light in cases:
        world, doc = worksheet(tier, seed, light)
        wc = world.workers_comp
        if wc is None:
            continue
        manual = sum(round(c.manual_premium * 100) for c in wc.classes)
        # Rated exactly when the risk is large enough; an unrated risk's mod is 1.00.
        assert (doc is None) == (manual < 500_000), (tier, seed)
        if doc is None:
            assert wc.experience_mod == 1.0
            seen["unrated"] += 1
            continue
        problems = problems_of(doc, world)
        assert not problems, f"{tier} seed {seed} (light {light}): {problems[:5]}"
        seen["rated"] += 1
        seen["credit" if wc.experience_mod < 1 else "debit"] += 1
        seen["excess"] += (doc.rating.actual_excess or 0) > 0
        seen["borrowed"] += any(
            t.line == "Workers Compensation" and t.policy_number == p.policy_number
            for p in doc.policies
            for t in world.loss_history.terms
        )
        if seed <= 3:
            VALIDATOR.validate(doc.model_dump(mode="json"))
    # The seeds reach both kinds of mod, large claims and the loss run's policy numbers.
    assert seen["rated"] >= 100 and seen["credit"] and seen["debit"] and seen["excess"]
    if tier in ("N3", "N4", "N5"):
        assert seen["borrowed"], seen


Mutation = Callable[[ExperienceMod], object]


def _first_claim(doc: ExperienceMod) -> object:
    return next(c for p in doc.policies for c in p.claims)


# Each breaks one rule of a sound worksheet; (mutation, message fragment).
MUTATIONS: dict[str, tuple[Mutation, str]] = {
    "expected": (
        lambda doc: setattr(
            doc.policies[0].classes[0],
            "expected_losses",
            (doc.policies[0].classes[0].expected_losses or 0) + 1,
        ),
        "payroll",
    ),
    "primary split": (
        lambda doc: setattr(_first_claim(doc), "actual_primary", SPLIT_POINT + 1.0),
        "primary",
    ),
    "policy total": (lambda doc: setattr(doc.policies[1].totals, "payroll", 1.0), "total"),
    "ballast": (
        lambda doc: setattr(doc.rating, "ballast_value", (doc.rating.ballast_value or 0) + 1000),
        "adjusted",
    ),
    "weighting": (lambda doc: setattr(doc.rating, "weighting_value", 0.99), "adjusted actual"),
    "mod": (
        lambda doc: setattr(doc.rating, "experience_mod", (doc.rating.experience_mod or 0) + 0.01),
        "experience mod",
    ),
    "excess": (
        lambda doc: setattr(doc.rating, "actual_excess", (doc.rating.actual_excess or 0) + 1),
        "Ae",
    ),
    "period": (lambda doc: setattr(doc.policies[0], "effective_date", "2001-01-01"), "period"),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_invariant_checks_catch_a_broken_worksheet(name: str) -> None:
    mutate, fragment = MUTATIONS[name]
    world, doc = next(
        (w, d)
        for w, d in (worksheet("N3", s, False) for s in range(1, 50))
        if d is not None and any(p.claims for p in d.policies)
    )
    assert doc is not None and not problems_of(doc, world)
    mutate(doc)
    assert any(fragment in problem for problem in problems_of(doc, world)), problems_of(doc, world)


@pytest.mark.parametrize("tier", TIERS)
def test_rendered_documents_read_back(tier: str, tmp_path: Path) -> None:
    knobs = plain(tier, {**WC, "documents": DOCS})
    seed = next(s for s in range(1, 50) if worksheet(tier, s, False)[1] is not None)
    built = build_packet(tier, seed, knobs)
    for name, data in built.files.items():
        (tmp_path / name).write_bytes(data)
    world = World.model_validate(json.loads(built.files["packet_truth.json"])["world"])
    expected = build(world, random.Random(sub_seed(seed, "experience_mod")), knobs)
    non_null = [path for path, value, _ in iter_leaves(expected) if value is not None]
    assert set(built.pages) == set(DOCS)
    for doc_id in DOCS:
        truth = json.loads((tmp_path / f"document_truth_{doc_id}.json").read_text())["truth"]
        VALIDATOR.validate(truth)
        assert truth == expected.model_dump(mode="json")  # nothing omitted
        fields = json.loads((tmp_path / f"field_truth_{doc_id}.json").read_text())["fields"]
        assert [f["path"] for f in fields] == non_null
        checked, bad = check_document(tmp_path, doc_id)
        assert bad == [], f"{doc_id}: {bad[:3]}"
        assert checked >= len(non_null)
        strings = {
            s["text"]
            for s in json.loads((tmp_path / f"rendered_universe_{doc_id}.json").read_text())[
                "strings"
            ]
        }
        assert any("EXPERIENCE RATING" in s for s in strings)
        by_path = {f["path"]: f["rendered_as"] for f in fields}
        if doc_id.endswith("_pdf"):
            # The PDF prints injury types and claim status as codes, the workbook in full.
            codes = {v for p, v in by_path.items() if p.endswith("injury_type")}
            assert codes and codes <= set("123456")
        else:
            names = {v for p, v in by_path.items() if p.endswith("injury_type")}
            assert names and names <= set(INJURY_TYPE.values)


def test_packet_bytes_are_reproducible() -> None:
    knobs = plain("N3", {**WC, "documents": DOCS})
    assert build_packet("N3", 2, knobs).files == build_packet("N3", 2, knobs).files
