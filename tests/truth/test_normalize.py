"""Each normalization rule of docs/design.md §7, on hand-built values."""

from __future__ import annotations

import pytest

from packetbench.truth import normalize


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("Preston Center Tower, Inc.", "preston center tower inc"),
        ("  LOC-001:  Preston   Road ", "loc 001 preston road"),
        ("ﬁre-resistive", "fire resistive"),  # NFKC turns the ligature into letters
        ("L.L.C.", "l l c"),
        ("---", ""),
    ],
)
def test_string(raw: str, normal: str) -> None:
    assert normalize.string(raw) == normal


@pytest.mark.parametrize(
    ("raw", "number"),
    [
        ("$1,500,000", 1500000.0),
        ("(1,234)", -1234.0),
        ("($1,234.50)", -1234.5),
        ("80%", 80.0),
        (" 1 234 ", 1234.0),
        ("-17.25", -17.25),
        (1500000, 1500000.0),
        (153631.51, 153631.51),
        ("03/01/2025", None),
        ("1.5M", None),
        ("N/A", None),
        (True, None),
    ],
)
def test_number(raw: object, number: float | None) -> None:
    assert normalize.number(raw) == number


def test_numbers_compare_exactly_never_within_a_tolerance() -> None:
    assert not normalize.equal(153631, 153631.51, "money")
    assert not normalize.equal("$24,344,800", 24514100, "money")
    assert not normalize.equal(2009, 2010, "number")
    assert normalize.equal("$1,500,000", 1500000.0, "money")
    assert normalize.equal("80%", 80, "percent")
    assert not normalize.equal(0.8, 80, "percent")  # a fraction is not the percent shown


@pytest.mark.parametrize(
    ("raw", "ident"),
    [
        ("CL-2023-12345", "cl202312345"),
        ("cl 2023 12345", "cl202312345"),
        ("AB-1", None),  # under four characters: never an id match
        ("OK", None),
    ],
)
def test_id_form(raw: str, ident: str | None) -> None:
    assert normalize.id_form(raw) == ident


def test_id_equality_ignores_punctuation() -> None:
    assert normalize.equal("CL202312345", "CL-2023-12345", "id")
    assert not normalize.equal("CL202312346", "CL-2023-12345", "id")


@pytest.mark.parametrize(
    ("raw", "iso"),
    [
        ("2025-03-01", "2025-03-01"),
        ("03/01/2025", "2025-03-01"),
        ("3/1/25", "2025-03-01"),
        ("March 1, 2025", "2025-03-01"),
        ("1 Mar 2025", "2025-03-01"),
        ("02/30/2025", None),
        ("07/01/2024 to 07/01/2025", None),
        ("soon", None),
    ],
)
def test_date(raw: str, iso: str | None) -> None:
    assert normalize.date(raw) == iso


def test_dates_compare_by_calendar_day() -> None:
    assert normalize.equal("03/01/2025", "2025-03-01", "date")
    assert not normalize.equal("01/03/2025", "2025-03-01", "date")


def test_enum_aliases_in_both_directions_per_code_list() -> None:
    assert normalize.equal("MNC", "Masonry Non-Combustible", "enum", "construction")
    assert normalize.equal("Masonry Non-Combustible", "MNC", "enum", "construction")
    assert normalize.equal("M", "Male", "enum", "gender")
    assert normalize.equal("M", "Married", "enum", "marital_status")
    assert not normalize.equal("M", "Married", "enum", "gender")
    assert not normalize.equal("JM", "Masonry Non-Combustible", "enum", "construction")


def test_checkbox_spellings() -> None:
    for ticked in ("Yes", "Y", "x", "TRUE", "checked"):
        assert normalize.equal(ticked, "Yes", "checkbox")
    assert normalize.equal("N", "No", "checkbox")
    assert not normalize.equal("Y", "No", "checkbox")


@pytest.mark.parametrize(
    ("value", "kind", "checked"),
    [
        ("N/A", "string", False),
        ("Various", "string", False),
        ("See attached", "string", False),
        ("A long prose description of operations", "text", False),
        ("TX", "enum", False),  # a two-letter state is never checked
        ("TX", "string", False),
        ("Dallas", "string", True),
        (1500000, "money", True),
        (7, "number", True),
        ("Yes", "checkbox", True),
        ("No", "checkbox", False),
        (None, "string", False),
    ],
)
def test_what_is_checked_for_hallucination(value: object, kind: str, checked: bool) -> None:
    assert normalize.is_checked(value, kind) is checked
