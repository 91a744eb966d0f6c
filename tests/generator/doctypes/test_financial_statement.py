"""Financial statements: arithmetic, agreement with the world, schema validity and read-back."""

from __future__ import annotations

import datetime as dt
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel

from packetbench.core.leaves import LeafShape, ObjectShape, fields_of, iter_leaves
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.doctypes.financial_statement import FINANCIAL_STATEMENT
from packetbench.generator.doctypes.financial_statement.model import (
    FinancialStatement,
    FiscalPeriod,
)
from packetbench.generator.json_schema import document_schema
from packetbench.generator.packet import build_packet, sub_seed
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.readback import check_document
from tests.support.sweep import seeds
from tests.support.values import cents as _cents

TIERS = ("N1", "N2", "N3", "N4", "N5")
SEEDS = seeds(50)
# N4/N5 worlds take 0.15-0.4 s each to build; their last 40 seeds run with the slow tests.
FAST_SEEDS = {"N1": SEEDS, "N2": SEEDS, "N3": SEEDS, "N4": seeds(10), "N5": seeds(10)}
DOC_IDS = ("financial_statement_pdf", "financial_statement_excel")
TOTALS_PER_PERIOD = 8


@cache
def _built(tier: str, seed: int) -> tuple[World, FinancialStatement]:
    knobs = plain(tier)
    world = build_world(seed, knobs)
    rng = random.Random(sub_seed(seed, FINANCIAL_STATEMENT.name))
    doc = FINANCIAL_STATEMENT.build(world, rng, knobs)
    assert isinstance(doc, FinancialStatement)
    return world, doc


def total_problems(node: BaseModel, path: str = "") -> tuple[int, list[str]]:
    """(totals checked, violations) of the rule: total_* = numeric siblings + child totals."""
    checked, problems = 0, []
    leaves: dict[str, Any] = {}
    child_totals: list[Any] = []
    for name, shape in fields_of(type(node)):
        value = getattr(node, name)
        if isinstance(shape, LeafShape) and shape.leaf.kind == "money":
            leaves[name] = value
        elif isinstance(shape, ObjectShape):
            child: BaseModel = value
            sub_checked, sub_problems = total_problems(child, f"{path}.{name}" if path else name)
            checked += sub_checked
            problems += sub_problems
            child_totals += [
                getattr(child, n)
                for n, s in fields_of(shape.model)
                if isinstance(s, LeafShape) and n.startswith("total_")
            ]
    totals = [name for name in leaves if name.startswith("total_")]
    for name in totals:
        parts = [v for n, v in leaves.items() if not n.startswith("total_")] + child_totals
        expected = sum(_cents(v) for v in parts)
        checked += 1
        if _cents(leaves[name]) != expected:
            problems.append(
                f"{path}.{name}: {leaves[name]} != {expected / 100}"
                if path
                else f"{name}: {leaves[name]} != {expected / 100}"
            )
    return checked, problems


def arithmetic_problems(period: FiscalPeriod) -> list[str]:
    """The subtotals that are differences, and the balance of the balance sheet."""
    inc = period.income_statement
    opex = inc.operating_expenses
    bal = period.balance_sheet
    checks = {
        "gross_profit": (inc.gross_profit, _cents(inc.revenue) - _cents(inc.cost_of_revenue)),
        "operating_income": (
            inc.operating_income,
            _cents(inc.gross_profit) - _cents(opex.total_operating_expenses),
        ),
        "pre_tax_income": (
            inc.pre_tax_income,
            _cents(inc.operating_income) - _cents(inc.interest_expense) + _cents(inc.other_income),
        ),
        "net_income": (inc.net_income, _cents(inc.pre_tax_income) - _cents(inc.income_tax)),
        "balance": (
            bal.assets.total_assets,
            _cents(bal.liabilities_and_equity.total_liabilities_and_equity),
        ),
    }
    return [
        f"{name}: {got} != {want / 100}"
        for name, (got, want) in checks.items()
        if _cents(got) != want
    ]


def world_problems(world: World, doc: FinancialStatement) -> list[str]:
    """Every value of the statements against the world it was projected from."""
    fin = world.financials
    problems = []
    header = {
        "company_name": world.insured.name,
        "statement_basis": fin.basis,
        "preparer_firm": fin.preparer_firm,
        "report_date": fin.report_date,
    }
    for name, want in header.items():
        if getattr(doc, name) != want:
            problems.append(f"{name}: {getattr(doc, name)!r} != {want!r}")
    if len(doc.periods) != len(fin.years):
        return [*problems, f"{len(doc.periods)} periods for {len(fin.years)} years"]
    for index, (period, year) in enumerate(zip(doc.periods, fin.years, strict=True)):
        if period.fiscal_year_end != year.year_end:
            problems.append(f"periods[{index}].fiscal_year_end")
        for part, source in (("income_statement", year.income), ("balance_sheet", year.balance)):
            for path, value, _ in iter_leaves(getattr(period, part)):
                want = getattr(source, path.rsplit(".", 1)[-1])
                if value is None or _cents(value) != round(want * 100):
                    problems.append(f"periods[{index}].{part}.{path}: {value} != {want}")
    return problems


def _check_invariants(tier: str, seeds: range) -> None:
    validator = jsonschema.Draft202012Validator(
        document_schema(FINANCIAL_STATEMENT.name, FinancialStatement)
    )
    for seed in seeds:
        world, doc = _built(tier, seed)
        where = f"{tier} seed {seed}"
        assert len(doc.periods) == plain(tier)["financials.years"], where
        ends = [dt.date.fromisoformat(p.fiscal_year_end or "") for p in doc.periods]
        assert ends == sorted(ends, reverse=True) and len(set(ends)) == len(ends), where
        assert dt.date.fromisoformat(doc.report_date or "") > ends[0], where
        # The statements were issued before the submission they travel with was completed.
        assert (doc.report_date or "") < world.policy.completion_date, where
        for index, period in enumerate(doc.periods):
            checked, problems = total_problems(period, f"periods[{index}]")
            assert checked == TOTALS_PER_PERIOD, where
            assert not problems, f"{where}: {problems}"
            assert not arithmetic_problems(period), f"{where}: {arithmetic_problems(period)}"
            depreciation = period.balance_sheet.assets.noncurrent_assets.accumulated_depreciation
            assert depreciation is not None and depreciation <= 0, where
        assert not world_problems(world, doc), f"{where}: {world_problems(world, doc)}"
        assert all(value is not None for _, value, _ in iter_leaves(doc)), where
        data = doc.model_dump(mode="json")
        FinancialStatement.model_validate(data)
        validator.validate(data)


@pytest.mark.parametrize("tier", TIERS)
def test_invariants(tier: str) -> None:
    _check_invariants(tier, FAST_SEEDS[tier])


@pytest.mark.slow
@pytest.mark.parametrize("tier", [t for t in TIERS if FAST_SEEDS[t] != SEEDS])
def test_invariants_remaining_seeds(tier: str) -> None:
    _check_invariants(tier, range(FAST_SEEDS[tier].stop, SEEDS.stop))


def test_checks_catch_broken_statements() -> None:
    """The invariant helpers are not tautologies: each flags a one-dollar error."""
    world, doc = _built("N1", 1)
    broken = doc.model_copy(deep=True)
    period = broken.periods[0]
    period.balance_sheet.liabilities_and_equity.liabilities.long_term_debt = (
        period.balance_sheet.liabilities_and_equity.liabilities.long_term_debt or 0
    ) + 1
    _, problems = total_problems(period)
    assert len(problems) == 1
    assert problems[0].startswith("balance_sheet.liabilities_and_equity.liabilities.total_liab")
    assert world_problems(world, broken)
    period.income_statement.income_tax = (period.income_statement.income_tax or 0) + 1
    assert any(p.startswith("net_income") for p in arithmetic_problems(period))
    broken.periods[1].balance_sheet.assets.total_assets = 0.0
    assert any(p.startswith("balance") for p in arithmetic_problems(broken.periods[1]))


def test_registered_variants() -> None:
    assert DOC_TYPES["financial_statement"] is FINANCIAL_STATEMENT
    assert [(v.doc_id, v.format) for v in FINANCIAL_STATEMENT.variants] == [
        ("financial_statement_pdf", "pdf"),
        ("financial_statement_excel", "xlsx"),
    ]


def _render(tmp_path: Path, tier: str, seed: int, **overrides: Any) -> Path:
    built = build_packet(tier, seed, plain(tier, {"documents": DOC_IDS, **overrides}))
    packet = tmp_path / f"{tier}-{seed}"
    packet.mkdir()
    for name, data in built.files.items():
        (packet / name).write_bytes(data)
    return packet


def _expected_locations(doc: dict[str, Any], doc_id: str, pages: int) -> int:
    """Locations a document must record: every leaf, plus the values drawn more than once."""
    leaves = sum(
        1
        for _, value, _ in iter_leaves(FinancialStatement.model_validate(doc))
        if value is not None
    )
    periods = len(doc["periods"])
    if doc_id.endswith("_pdf"):
        # Year-end heads on both statements; the company name heads every page.
        return leaves + periods + pages - 1
    # Both sheets repeat the header block and the year-end heads.
    return leaves + 4 + periods


@pytest.mark.parametrize(
    ("tier", "seed", "years"),
    [
        ("N1", 11, None),
        ("N2", 12, None),
        ("N3", 13, None),
        ("N4", 14, None),
        ("N5", 15, None),
        ("N2", 16, 9),
        ("N1", 17, 1),
    ],
)
def test_rendered_read_back(tmp_path: Path, tier: str, seed: int, years: int | None) -> None:
    overrides = {} if years is None else {"financials.years": years}
    packet = _render(tmp_path, tier, seed, **overrides)
    expected = None if years is not None else _built(tier, seed)[1].model_dump(mode="json")
    for doc_id in DOC_IDS:
        truth = json.loads((packet / f"document_truth_{doc_id}.json").read_text())["truth"]
        if expected is not None:
            assert truth == expected  # nothing omitted, nothing altered
        manifest = json.loads((packet / f"manifest_{doc_id}.json").read_text())
        checked, bad = check_document(packet, doc_id)
        assert bad == [], bad[:3]
        assert checked == _expected_locations(truth, doc_id, manifest["pages"])


def test_rendering_is_deterministic(tmp_path: Path) -> None:
    knobs = plain("N3", {"documents": DOC_IDS})
    first, second = build_packet("N3", 5, knobs), build_packet("N3", 5, knobs)
    for doc_id, ext in zip(DOC_IDS, ("pdf", "xlsx"), strict=True):
        assert first.files[f"{doc_id}.{ext}"] == second.files[f"{doc_id}.{ext}"]
