"""What a reader sees: round axis ticks, labels that fit their chart, no empty columns,
amounts written as amounts and counts with thousands separators."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from packetbench.benchmark.report import charts
from packetbench.benchmark.report.render import write_report
from tests.support.runs import ScoredRun


def _ticks(svg: str) -> list[str]:
    return re.findall(r'text-anchor="middle" fill="#555">([^<]+)</text>', svg)


@pytest.mark.parametrize(
    ("high", "expected"),
    [
        (0.05, ["0 %", "1 %", "2 %", "3 %", "4 %", "5 %"]),
        (0.0441, ["0 %", "1 %", "2 %", "3 %", "4 %", "5 %"]),
        (0.133, ["0 %", "5 %", "10 %", "15 %"]),
        (0.0123, ["0 %", "0.5 %", "1 %", "1.5 %"]),
        (0.9, ["0 %", "20 %", "40 %", "60 %", "80 %", "100 %"]),
        (0.0, ["0 %", "0.2 %", "0.4 %", "0.6 %", "0.8 %", "1 %"]),
    ],
)
def test_rate_axes_have_round_ticks(high: float, expected: list[str]) -> None:
    svg = charts.rate_chart("t", [charts.RateBar("a", 0, high * 0.8, high * 0.5, high)], ["r"])
    assert _ticks(svg) == expected


def test_labels_get_the_room_they_need() -> None:
    long = "Numeric hallucination rate · claude-sonnet-4-5-20250929-xhigh"
    svg = charts.rate_chart(
        "t",
        [charts.RateBar(long, 0, 0.02, 0.01, 0.03), charts.RateBar("short", 1, 0.01, None, None)],
        ["a", "b"],
    )
    found = re.search(r'<text x="([\d.]+)" y="\d+" text-anchor="end">Numeric', svg)
    assert found is not None
    anchor = float(found[1])
    assert anchor >= 7 * len(long)  # at 12 px no glyph of the label is wider than 7 px


@pytest.mark.slow
def test_slice_tables_end_with_a_column_that_says_something(
    scored_run: ScoredRun, tmp_path: Path
) -> None:
    files = write_report([scored_run("typical", 1)], tmp_path)
    html = files.html.read_text(encoding="utf-8")
    text = files.markdown.read_text(encoding="utf-8")
    assert "<th></th>" not in html and "<td></td>" not in html
    assert not re.search(r"\| \|$", text, re.M)
    assert re.search(r"^\| sov \(small\) \| typical-1 \|", text, re.M) is None  # 5 packets


@pytest.mark.slow
def test_consistency_flags_show_amounts_and_counts(scored_run: ScoredRun, tmp_path: Path) -> None:
    files = write_report([scored_run("sloppy", 2)], tmp_path)
    text = files.markdown.read_text(encoding="utf-8")
    flags = re.findall(r"^- `\S+` (\w+) at `([^`]+)`: stated (.+), expected (.+)$", text, re.M)
    assert len(flags) == 20
    money = re.compile(r"-?\$\d{1,3}(,\d{3})*\.\d\d")
    count = re.compile(r"\d{1,3}(,\d{3})*")
    for rule, path, stated, expected in flags:
        shape = count if rule in ("claim_count", "open_claims") else money
        assert shape.fullmatch(stated) and shape.fullmatch(expected), (rule, path, stated)
    assert any(rule == "open_claims" for rule, *_ in flags)
    html = files.html.read_text(encoding="utf-8")
    assert not re.search(r"(stated|expected) -?\d+\.\d\b", html)


@pytest.mark.slow
def test_document_and_packet_counts_have_thousands_separators(
    scored_run: ScoredRun, tmp_path: Path
) -> None:
    from packetbench.benchmark.report import render

    files = write_report([scored_run("typical", 1)], tmp_path)
    template = Path(render.__file__).resolve().parents[2] / "templates" / "report"
    for name in ("report.md.j2", "report.html.j2"):
        source = (template / name).read_text(encoding="utf-8")
        bare = re.findall(r"\{\{ (?:row|run|c|w)\.(?:documents|packets|value_count) \}\}", source)
        assert bare == [], (name, bare)
    assert files.markdown.exists()
