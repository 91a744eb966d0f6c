"""csv.*: each export pattern is really in the bytes, and every located value reads back at
its {row, column} (header row 0) with the csv module given the dialect the pattern chose."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from packetbench.truth.csvread import read_csv
from tests.support.rendering import Case, Render, first_applied

DOCS = ("loss_run_csv",)
DOC = "loss_run_csv"


def case(render: Render, pattern: str) -> Case:
    seed = first_applied(render, pattern, DOC, "N3", DOCS)
    return Case(pattern, DOC, render("N3", seed, DOCS, pattern), render("N3", seed, DOCS))


def raw(c: Case) -> bytes:
    return c.on.files[f"{DOC}.csv"]


def rows(text: str, delimiter: str = ",", skip: int = 0) -> list[list[str]]:
    """Rows after `skip` preamble lines, read by the csv module with `delimiter`."""
    found = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    return found[skip:]


def assert_located(c: Case, table: list[list[str]]) -> None:
    fields = c.on.fields(DOC)
    assert fields
    for entry in fields.values():
        for location in entry["locations"]:
            assert table[location["row"]][location["column"]] == entry["rendered_as"]


@pytest.mark.parametrize(
    ("pattern", "delimiter"), [("csv.semicolon", ";"), ("csv.tab", "\t"), ("csv.pipe", "|")]
)
def test_delimiter_separates_the_cells(render: Render, pattern: str, delimiter: str) -> None:
    c = case(render, pattern)
    text = raw(c).decode("utf-8")
    header = text.split("\r\n", 1)[0]
    plain = raw(Case(pattern, DOC, c.off, c.off)).decode("utf-8").split("\r\n", 1)[0]
    assert header == plain.replace(",", delimiter) and "," not in header
    assert_located(c, rows(text, delimiter))
    assert read_csv(raw(c), Path("x.csv")).delimiter == delimiter


def test_cp1252_is_not_utf8_and_decodes_to_the_truth(render: Render) -> None:
    c = case(render, "csv.cp1252")
    with pytest.raises(UnicodeDecodeError):
        raw(c).decode("utf-8")
    text = raw(c).decode("cp1252")
    assert "N\u00ba" in text.split("\r\n", 1)[0]
    assert_located(c, rows(text))


def test_bom_precedes_the_header(render: Render) -> None:
    c = case(render, "csv.bom")
    assert raw(c).startswith(b"\xef\xbb\xbf")
    assert raw(c)[3:] == c.off.files[f"{DOC}.csv"]
    assert_located(c, rows(raw(c).decode("utf-8-sig")))


def test_quoted_newlines_break_texts_inside_their_cell(render: Render) -> None:
    c = case(render, "csv.quoted_newlines")
    fields = c.on.fields(DOC)
    for path, entry in c.record["ground_truth_delta"].items():
        assert "\n" in entry["shown"] and fields[path]["value"] == entry["canonical"]
        assert entry["shown"].split() == entry["canonical"].split()
        assert f'"{entry["shown"]}"'.encode() in raw(c)  # quoted, the break inside
    assert_located(c, rows(raw(c).decode("utf-8")))


def test_european_numbers_group_with_dots_and_mark_decimals_with_a_comma(render: Render) -> None:
    c = case(render, "csv.european_numbers")
    for entry in c.record["ground_truth_delta"].values():
        assert re.fullmatch(r"-?\d{1,3}(\.\d{3})*,\d{2}", entry["shown"]), entry["shown"]
        amount = float(entry["shown"].replace(".", "").replace(",", "."))
        assert amount == entry["canonical"]
    assert_located(c, rows(raw(c).decode("utf-8")))


def test_preamble_lines_come_before_the_header_which_stays_row_0(render: Render) -> None:
    c = case(render, "csv.header_preamble")
    lines = c.record["details"]["lines"]
    text = raw(c).decode("utf-8")
    plain = c.off.files[f"{DOC}.csv"].decode("utf-8")
    assert text.split("\r\n")[lines:] == plain.split("\r\n")
    assert_located(c, rows(text, skip=lines))
    read = read_csv(raw(c), Path("x.csv"))
    assert len(read.preamble) == lines and read.rows == rows(plain)


def test_trailer_lines_follow_the_last_record(render: Render) -> None:
    c = case(render, "csv.trailer_rows")
    lines = c.record["details"]["lines"]
    text = raw(c).decode("utf-8")
    plain = c.off.files[f"{DOC}.csv"].decode("utf-8")
    assert text.startswith(plain)
    trailer = rows(text)[-lines:]
    assert all(len(row) == 1 for row in trailer)
    strings = {s["text"] for s in c.on.universe(DOC)["strings"]}
    assert {row[0] for row in trailer} <= strings
    assert_located(c, rows(text))
