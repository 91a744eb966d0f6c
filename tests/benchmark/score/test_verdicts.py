"""Grounding and verdicts on hand-built cases (the cases the issue names among them)."""

from __future__ import annotations

from typing import Any

from packetbench.benchmark.score.field_view import Claim, compare
from packetbench.benchmark.score.verdicts import grounded, verdict
from packetbench.generator.doctypes.sov.model import StatementOfValues
from packetbench.truth import normalize
from packetbench.truth.universe import Universe


def universe_of(*values: Any) -> Universe:
    universe = Universe()
    for value in values:
        universe.add(value)
    return universe


PAGE = universe_of(
    "LOC-001",
    "Preston Center Tower",
    "8117 Preston Road",
    "Dallas",
    "TX",
    "75225",
    24514100.0,
    153631.51,
    "CL-2023-12345",
    "Masonry Non-Combustible",
    "03/01/2025",
)


def claim(value: Any, truth: Any, kind: str = "string", code_list: str | None = None) -> Claim:
    supported = truth is not None and normalize.equal(value, truth, kind, code_list)
    return Claim("x", kind, code_list, value, truth, True, supported)


def hallucinated(value: Any, kind: str, code_list: str | None = None) -> bool:
    return normalize.is_checked(value, kind) and not grounded(value, kind, code_list, PAGE)


def test_composed_address_is_grounded_only_when_every_token_is() -> None:
    address = "LOC-001: Preston Center Tower, 8117 Preston Road, Dallas, TX 75225"
    assert not hallucinated(address, "string")
    assert hallucinated(address.replace("8117", "9900"), "string")


def test_wrong_amount_absent_from_the_universe_is_wrong_and_hallucinated() -> None:
    truth = {"totals": {"tiv": 24514100.0}}
    output = {"totals": {"tiv": "$24,344,800"}}
    counts = compare(StatementOfValues, truth, output).counts
    assert (counts.wrong, counts.correct) == (1, 0)
    assert hallucinated("$24,344,800", "money")
    assert not hallucinated("$24,514,100", "money")


def test_truncated_cents_are_wrong_but_a_grounded_integer_is_not_invented() -> None:
    assert not normalize.equal(153631, 153631.51, "money")
    assert hallucinated(153631, "money")
    assert not hallucinated(153631.51, "money")


def test_two_letter_state_is_never_checked() -> None:
    assert not hallucinated("ZZ", "enum", "state")
    assert not normalize.is_checked("ZZ", "enum")


def test_ids_and_dates_ground_in_any_spelling() -> None:
    assert not hallucinated("CL202312345", "id")
    assert hallucinated("CL202312399", "id")
    assert not hallucinated("2025-03-01", "date")
    assert hallucinated("2025-01-03", "date")  # its tokens exist, the day does not


def test_enum_abbreviation_is_grounded_by_its_full_name() -> None:
    assert grounded("MNC", "enum", "construction", PAGE)
    assert not grounded("Fire Resistive", "enum", "construction", PAGE)


def test_each_verdict() -> None:
    stale = None
    assert verdict(claim("Dallas", "Dallas"), True, stale, PAGE) == "supported"
    assert verdict(claim("DALLAS", "Dallas"), True, stale, PAGE) == "supported"
    assert verdict(claim("Preston Road", "Dallas"), True, stale, PAGE) == "contradicted"
    assert verdict(claim("Dallas Zorvek", "Dallas"), False, stale, PAGE) == "overreach"
    assert verdict(claim("Dallas Preston", "Dallas"), True, stale, PAGE) == "contradicted"
    assert verdict(claim("Zorvek Kalum", None), False, stale, PAGE) == "unlinked"
    # a grounded value where the document shows nothing still asserts something untrue
    assert verdict(claim("Dallas", None), True, stale, PAGE) == "contradicted"
    assert verdict(claim(100.0, 120.0, "money"), False, 100.0, PAGE) == "stale"
    assert verdict(claim(120.0, 120.0, "money"), True, 100.0, PAGE) == "supported"
