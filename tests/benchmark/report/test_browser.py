"""report.html in headless Chromium: its tables and charts render, nothing is fetched, and the
console stays clean. Skipped without Chromium unless PACKETBENCH_REQUIRE_BROWSER is set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from packetbench.benchmark.report.render import write_report
from tests.support.chromium import chromium, open_page
from tests.support.runs import ScoredRun


@pytest.fixture(scope="module")
def browser() -> None:
    if chromium() is None:
        if os.environ.get("PACKETBENCH_REQUIRE_BROWSER"):
            pytest.fail(
                "PACKETBENCH_REQUIRE_BROWSER is set but chromium is not installed "
                "(Debian package `chromium`)"
            )
        pytest.skip(
            "chromium is not installed (Debian package `chromium`); set "
            "PACKETBENCH_REQUIRE_BROWSER=1 to make this a failure"
        )


@pytest.mark.usefixtures("browser")
@pytest.mark.slow
def test_report_renders_in_chromium(scored_run: ScoredRun, tmp_path: Path) -> None:
    files = write_report([scored_run("typical", 1), scored_run("sloppy", 2)], tmp_path)
    with open_page(files.html) as page:
        tables = page.evaluate("document.querySelectorAll('table').length")
        rows = page.evaluate("document.querySelectorAll('table tr').length")
        charts = page.evaluate("""Array.from(document.querySelectorAll('svg.chart')).map(svg => {
            const box = svg.getBoundingClientRect();
            return {width: box.width, height: box.height,
                    bars: svg.querySelectorAll('rect').length,
                    intervals: svg.querySelectorAll('line.ci').length,
                    title: svg.querySelector('title').textContent};
        })""")
        headline = page.evaluate("""Array.from(document.querySelectorAll('#hallucination ~ table')
            )[0].innerText""")
        problems = page.exceptions + [
            m for m in page.console if m.get("type") in ("error", "warning", "assert")
        ]
        problems += [e for e in page.log if e.get("level") in ("error", "warning")]
        requests = page.requests
    assert problems == []
    assert requests == [files.html.resolve().as_uri()]  # the page itself, nothing else
    assert tables > 20 and rows > 200
    assert len(charts) >= 5
    for chart in charts:
        assert chart["width"] > 300 and chart["height"] > 50 and chart["bars"] > 0, chart
    rates = next(c for c in charts if c["title"].startswith("Hallucination rates"))
    assert rates["intervals"] == 4  # numbers and strings, for each run
    assert "Numeric hallucination rate" in headline and "sloppy-2" in headline


@pytest.mark.usefixtures("browser")
@pytest.mark.slow
def test_every_chart_label_is_inside_its_chart(tmp_path: Path) -> None:
    """Long run names (as real model names are) widen the chart; nothing is cut off."""
    from packetbench.benchmark.extract import extract
    from packetbench.benchmark.providers.sim import SimProvider
    from packetbench.benchmark.results import load_run
    from packetbench.benchmark.score.scorer import score_run
    from tests.support.paths import PACKETS

    packet = PACKETS / "N1-000001"
    runs = []
    for name, profile in (
        ("claude-sonnet-4-5-20250929-xhigh", "typical"),
        ("gpt-5.5-high-structured-outputs", "sloppy"),
    ):
        extract(SimProvider(profile, 1), packet, tmp_path / name)
        score_run(tmp_path / name, packet)
        load_run(tmp_path / name, packet)
        runs.append(tmp_path / name)
    files = write_report(runs, tmp_path / "report")
    with open_page(files.html) as page:
        outside = page.evaluate("""Array.from(document.querySelectorAll('svg.chart')).flatMap(
            svg => Array.from(svg.querySelectorAll('text')).map(t => {
                const box = t.getBBox();
                return {text: t.textContent, left: box.x, right: box.x + box.width,
                        width: svg.viewBox.baseVal.width};
            }).filter(t => t.left < 0 || t.right > t.width))""")
    assert outside == []
