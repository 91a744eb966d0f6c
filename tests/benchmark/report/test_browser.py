"""report.html in headless Chromium: its tables and charts render, nothing is fetched, and the
console stays clean; the default run's report is short, opens on its contents and headline, and
every link of its contents leads to its section. Skipped without Chromium unless
PACKETBENCH_REQUIRE_BROWSER is set.

With PACKETBENCH_WRITE_DOCS_IMAGES=1 the first screen of the default run's report is also saved
as the docs' screenshot, docs/images/report.png."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from packetbench.benchmark.report.render import write_report
from tests.support.chromium import chromium, open_page
from tests.support.paths import ROOT
from tests.support.runs import ScoredRun

MAX_HEIGHT = 10_000  # px: the default run's report, its folded sections closed


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


SCRIPT = "<script>window.pwned = 1</script>"
IMAGE = '"><img src=x onerror="window.pwned = 2">'


@pytest.mark.usefixtures("browser")
def test_strings_from_runs_and_packets_are_text_in_the_dom(tmp_path: Path) -> None:
    """A run's name, model and label, an excluded document's error and a packet's pattern id
    carry markup: the report shows each as text, and the DOM holds no script, image or
    handler of theirs (the report template was not escaped: its name ends in .html.j2)."""
    import json
    import shutil

    from packetbench.benchmark.extract import extract
    from packetbench.benchmark.providers.sim import SimProvider
    from packetbench.benchmark.results import load_run
    from packetbench.benchmark.score.scorer import score_run
    from tests.support.paths import PACKETS

    packet = Path(shutil.copytree(PACKETS / "N1-000001", tmp_path / "packets" / "N1-000001"))
    manifest = packet / "manifest_sov_pdf.json"
    data = json.loads(manifest.read_text())
    data["patterns_applied"].append(
        {"id": SCRIPT + IMAGE, "name": IMAGE, "phase": "layout", "targets": ["buildings"]}
    )
    manifest.write_text(json.dumps(data))
    run = tmp_path / "run"
    extract(SimProvider("typical", 1), packet, run)
    info = json.loads((run / "run.json").read_text())
    info.update(run_id=SCRIPT, model=IMAGE, label=IMAGE + SCRIPT)
    (run / "run.json").write_text(json.dumps(info))
    record = run / "extractions" / "N1-000001" / "acord_125.json"
    failed = json.loads(record.read_text())
    failed.update(status="error", output=None, error=SCRIPT + IMAGE)
    record.write_text(json.dumps(failed))
    score_run(run, packet)
    load_run(run, packet)
    files = write_report([run], tmp_path / "report")
    with open_page(files.html) as page:
        found = page.evaluate("""({
            pwned: window.pwned === undefined ? null : window.pwned,
            scripts: document.scripts.length,
            images: document.images.length,
            handlers: Array.from(document.querySelectorAll('*')).filter(
                e => Array.from(e.attributes).some(a => a.name.startsWith('on'))).length,
            text: document.body.innerText,
            title: document.title,
        })""")
    assert (found["pwned"], found["scripts"], found["images"], found["handlers"]) == (
        None,
        0,
        0,
        0,
    )
    text = found["text"]
    assert text.count(SCRIPT) >= 3 and text.count(IMAGE) >= 3  # shown, as text
    assert SCRIPT + IMAGE in text  # the pattern slice and the excluded document's error
    assert found["title"] == f"packetbench report: {SCRIPT}"


@pytest.mark.usefixtures("browser")
@pytest.mark.slow
def test_the_default_runs_report_is_short_and_navigable(
    scored_run: ScoredRun, tmp_path: Path
) -> None:
    """The report of what `packetbench run` runs (sim typical, seed 1, the canonical N1-N5
    packets): at most MAX_HEIGHT px tall at 1280 px wide, the contents and the headline on
    the first screen, every link of the contents naming a section that exists and scrolling
    to it, the slices and small-cell warnings folded and opening on a click, and nothing in
    the console."""
    files = write_report([scored_run("typical", 1)], tmp_path)
    with open_page(files.html) as page:
        height = page.evaluate("document.documentElement.scrollHeight")
        first_screen = page.evaluate("""(() => {
            const top = id => document.getElementById(id).getBoundingClientRect().top;
            return {toc: document.querySelector('nav.toc').getBoundingClientRect().top,
                    headline: top('headline')};
        })()""")
        links = page.evaluate("""Array.from(document.querySelectorAll('nav.toc a')).map(
            a => ({href: a.getAttribute('href'),
                   found: !!document.getElementById(a.getAttribute('href').slice(1))}))""")
        broken = page.evaluate("""Array.from(document.querySelectorAll('a[href^="#"]'))
            .map(a => a.getAttribute('href'))
            .filter(h => !document.getElementById(h.slice(1)))""")
        # A real click on a link of the contents scrolls its section to the top.
        box = page.evaluate("""(() => {
            const b = document.querySelector('nav.toc a[href="#recall"]')
                .getBoundingClientRect();
            return {x: b.left + b.width / 2, y: b.top + b.height / 2};
        })()""")
        page.click(box["x"], box["y"])
        page.wait_until("location.hash === '#recall'")
        landed = page.evaluate("document.getElementById('recall').getBoundingClientRect().top")
        folded = page.evaluate("""Array.from(document.querySelectorAll('details.fold')).map(
            d => ({open: d.open, inside: d.closest('#slices-tier, #slices-doc_type') !== null}))""")
        # Opening a fold shows its table.
        page.evaluate("window.scrollTo(0, 0)")
        summary = page.evaluate("""(() => {
            const s = document.querySelector('#slices-doc_type > summary');
            s.scrollIntoView();
            const b = s.getBoundingClientRect();
            return {x: b.left + 20, y: b.top + b.height / 2};
        })()""")
        page.click(summary["x"], summary["y"])
        opened = page.wait_until(
            "document.getElementById('slices-doc_type').open && document.querySelector("
            "'#slices-doc_type table').getBoundingClientRect().height"
        )
        problems = page.exceptions + [
            m for m in page.console if m.get("type") in ("error", "warning", "assert")
        ]
        problems += [e for e in page.log if e.get("level") in ("error", "warning")]
        if os.environ.get("PACKETBENCH_WRITE_DOCS_IMAGES"):
            page.evaluate("document.getElementById('slices-doc_type').open = false")
            page.evaluate("window.scrollTo(0, 0)")
            page.capture(ROOT / "docs" / "images" / "report.png")  # the first screen
    assert problems == []
    assert height <= MAX_HEIGHT, f"report.html is {height} px tall"
    assert first_screen["toc"] < 900 and first_screen["headline"] < 900, first_screen
    assert len(links) >= 14 and all(link["found"] for link in links), links
    assert broken == []
    assert abs(landed) < 5, landed
    assert len(folded) >= 8 and not any(f["open"] for f in folded)
    assert opened > 300
