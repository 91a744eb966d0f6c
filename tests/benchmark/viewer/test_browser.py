"""`packetbench view` in headless Chromium: served by the real command on 127.0.0.1, and
exported with `--out` and opened from file://. A user filters the run to documents with
hallucinated claims, opens one, clicks a field the run got wrong in the side table, and sees
the page scroll to its box, drawn in the wrong-value colour exactly at the truth's bbox.
Skipped without Chromium unless PACKETBENCH_REQUIRE_BROWSER is set.

With PACKETBENCH_WRITE_DOCS_IMAGES=1 the served document view is also saved as the README's
screenshot, docs/images/viewer-document.png.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import duckdb
import pytest
from PIL import Image

from tests.support.chromium import Page, open_page
from tests.support.paths import ROOT, cli_path
from tests.support.viewer import problems

WRONG = (0xEF, 0x6C, 0x00)  # --wrong in app.css
CORRECT = (0x2E, 0x7D, 0x32)
ZOOM = 1.25  # the viewer's default zoom: 1 PDF point is 1.25 CSS pixels


def _target(run: Path) -> dict[str, Any]:
    """A field the run got wrong (a grounded wrong value: outcome `wrong`) on a PDF page, in
    a document with hallucinated claims, read from results.duckdb and the field truth: what
    the test expects to see, known without the viewer."""
    with duckdb.connect(str(run / "results.duckdb"), read_only=True) as con:
        rows = con.execute(
            "SELECT f.packet_id, f.doc_id, f.path FROM fields AS f "
            "JOIN claims AS c USING (packet_id, doc_id, path) "
            "JOIN documents AS d USING (packet_id, doc_id) "
            "WHERE f.outcome = 'wrong' AND c.verdict = 'contradicted' AND NOT c.hallucinated "
            "AND d.format = 'pdf' AND d.numbers_hallucinated + d.strings_hallucinated > 0 "
            "ORDER BY f.packet_id, f.doc_id, f.path"
        ).fetchall()
        hallucinating = con.execute(
            "SELECT count(DISTINCT (packet_id, doc_id)) FROM claims WHERE hallucinated"
        ).fetchone()
    info = json.loads((run / "run.json").read_text())
    packets = Path(info["packets_dir"])
    for packet_id, doc_id, path in rows:
        truth = json.loads((packets / packet_id / f"field_truth_{doc_id}.json").read_text())
        entry = next(f for f in truth["fields"] if f["path"] == path)
        located = [loc for loc in entry["locations"] if "bbox" in loc]
        # one box, wide enough to sample, and out of sight until the page scrolls to it
        below = located and (located[0]["page"] > 1 or located[0]["bbox"][3] < 250)
        if len(located) == 1 and below and located[0]["bbox"][2] - located[0]["bbox"][0] > 8:
            return {
                "packet_id": packet_id,
                "doc_id": doc_id,
                "path": path,
                **located[0],
                "hallucinating": hallucinating[0] if hallucinating else 0,
            }
    raise AssertionError("no wrong field with one located box in the run")


def _pixel(shot: bytes, x: float, y: float) -> tuple[int, int, int]:
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    r, g, b = image.getpixel((int(x), int(y)))  # type: ignore[misc]
    return int(r), int(g), int(b)


def _near(found: tuple[int, int, int], wanted: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 12 for a, b in zip(found, wanted, strict=True))


def _walk_through(page: Page, target: dict[str, Any], screenshot: Path | None = None) -> None:
    """Filter to hallucinated claims, open the target's document, click its row; check the
    page scrolled to its box and the box is the wrong-value colour at the truth bbox."""
    page.wait_until("document.querySelectorAll('#document-list tr[data-document]').length > 0")
    page.evaluate(
        "(() => { const s = document.querySelector('select[data-filter=verdict]');"
        " s.value = 'hallucinated'; s.dispatchEvent(new Event('change')); })()"
    )
    page.wait_until(
        "(document.getElementById('document-list') || {dataset: {}}).dataset.filters"
        " === 'verdict=hallucinated'"
    )
    listed = page.evaluate(
        "Array.from(document.querySelectorAll('#document-list tr[data-document]'))"
        ".map(r => r.dataset.document)"
    )
    assert len(listed) == target["hallucinating"]
    wanted = f"{target['packet_id']}/{target['doc_id']}"
    assert wanted in listed
    rect = page.evaluate(
        f"(() => {{ const a = document.querySelector('tr[data-document=\"{wanted}\"] a');"
        " a.scrollIntoView({block: 'center'}); const r = a.getBoundingClientRect();"
        " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
    )
    page.click(*rect)
    page.wait_until(f"location.hash.includes('/doc/{target['packet_id']}/{target['doc_id']}')")
    selector = f'#fields tr[data-path="{target["path"]}"]'
    page.wait_until("document.querySelectorAll('#fields tr[data-path]').length > 0")
    image = f'.page[data-page="{target["page"]}"] img'
    page.wait_until(
        f"(() => {{ const img = document.querySelector('{image}');"
        " return img && img.complete && img.naturalWidth > 0; })()"
    )
    # Opened from the hallucinated filter, the side table shows hallucinated fields only;
    # the user ticks `wrong` in the legend to see the wrong ones too.
    shown = "Array.from(document.querySelectorAll('#fields tr[data-path]'))"
    assert set(page.evaluate(f"{shown}.map(r => r.dataset.outcome)")) == {"hallucinated"}
    tick = page.evaluate(
        "(() => { const b = document.querySelector('#legend input[data-outcome=wrong]')"
        ".getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; })()"
    )
    page.click(*tick)
    page.wait_until(f"document.querySelector('{selector}') !== null")
    assert page.evaluate(f"document.querySelector('{selector}').dataset.outcome") == "wrong"
    before = page.evaluate("document.getElementById('viewer').scrollTop")
    row = page.evaluate(
        f"(() => {{ const r = document.querySelector('{selector}');"
        " r.scrollIntoView({block: 'center'}); const b = r.getBoundingClientRect();"
        " return [b.left + 30, b.top + b.height / 2]; })()"
    )
    page.click(*row)
    page.wait_until(f"document.querySelector('{selector}').classList.contains('focus')")
    after = page.evaluate("document.getElementById('viewer').scrollTop")
    frame = page.evaluate(
        "(() => { const r = document.getElementById('viewer').getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })()"
    )
    origin = page.evaluate(
        f"(() => {{ const r = document.querySelector('.page[data-page=\"{target['page']}\"]')"
        ".getBoundingClientRect(); return [r.left, r.top]; })()"
    )
    height = page.evaluate(f"view.data.pages[{target['page'] - 1}].height")
    x0, y0, x1, y1 = target["bbox"]
    left, top = origin[0] + x0 * ZOOM, origin[1] + (height - y1) * ZOOM
    right, bottom = origin[0] + x1 * ZOOM, origin[1] + (height - y0) * ZOOM
    # the page scrolled (the box was out of sight) and the box is in sight
    assert after > before
    assert frame[0] <= left and right <= frame[2] and frame[1] <= top and bottom <= frame[3]
    shot = page.capture(screenshot)
    middle = (top + bottom) / 2
    assert _near(_pixel(shot, left + 1, middle), WRONG), _pixel(shot, left + 1, middle)
    assert _near(_pixel(shot, right - 1.5, middle), WRONG), _pixel(shot, right - 1.5, middle)
    # just outside the box is not the box
    assert not _near(_pixel(shot, left - 4, middle), WRONG)
    assert problems(page) == []


@pytest.mark.usefixtures("browser")
@pytest.mark.slow
def test_served_viewer_shows_a_wrong_value_at_its_truth_box(
    viewer_runs: tuple[Path, Path, Path], served: str, tmp_path: Path
) -> None:
    _, sloppy, _ = viewer_runs
    target = _target(sloppy)
    shot = tmp_path / "document.png"
    with open_page(served + "#/run/0", 1400, 900) as page:
        _walk_through(page, target, shot)
        requests = page.requests
    assert all(url.startswith(served) for url in requests), requests
    if os.environ.get("PACKETBENCH_WRITE_DOCS_IMAGES"):
        (ROOT / "docs" / "images" / "viewer-document.png").write_bytes(shot.read_bytes())


@pytest.mark.usefixtures("browser")
@pytest.mark.slow
def test_static_export_from_file_url_gives_the_same(
    viewer_runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    packets, sloppy, typical = viewer_runs
    out = tmp_path / "site"
    done = subprocess.run(
        [
            *(cli_path(), "view", str(sloppy), str(typical), "--packets", str(packets)),
            *("--out", str(out), "--cache", str(tmp_path / "cache")),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {out}/index.html: 2 run(s)")
    target = _target(sloppy)
    with open_page((out / "index.html").resolve().as_uri() + "#/run/0", 1400, 900) as page:
        _walk_through(page, target)
        requests = page.requests
    assert all(url.startswith(out.resolve().as_uri()) for url in requests), requests


@pytest.mark.usefixtures("browser")
def test_compare_puts_differences_first(viewer_runs: tuple[Path, Path, Path], served: str) -> None:
    _, sloppy, _ = viewer_runs
    target = _target(sloppy)
    url = f"{served}#/run/0/doc/{target['packet_id']}/{target['doc_id']}?cmp=1"
    with open_page(url, 1400, 900) as page:
        page.wait_until("document.querySelectorAll('#fields tr[data-path]').length > 0")
        rows = page.evaluate(
            "Array.from(document.querySelectorAll('#fields tr[data-path]')).map(r =>"
            " [r.children[3].textContent, r.children[5].textContent,"
            "  r.children[0].firstChild.className, r.children[4].firstChild.className])"
        )
        boxes = page.evaluate("document.querySelectorAll('.box[class*=\" r-\"]').length")
        found = problems(page)
    assert found == []
    differs = [a != b or ca != cb for a, b, ca, cb in rows]
    assert any(differs) and not all(differs)
    first_same = differs.index(False)
    assert all(differs[:first_same]) and not any(differs[first_same:])
    assert boxes > 0


# Words of the side table's cells that the browser broke across two lines (a word's
# characters whose boxes sit on more than one line) though the word fits its cell's width; a
# path's parts count as words. A word wider than its column (an e-mail address in a narrow
# one) breaks: cut, the column would hide it.
BROKEN_WORDS = """(() => {
    const broken = [];
    const walker = document.createTreeWalker(document.getElementById('fields'),
                                             NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const cell = node.parentElement.closest('td, th');
        const style = getComputedStyle(cell);
        const room = cell.clientWidth - parseFloat(style.paddingLeft)
            - parseFloat(style.paddingRight);
        for (const m of node.textContent.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const rects = Array.from(range.getClientRects()).filter(r => r.width > 0);
            const tops = new Set(rects.map(r => Math.round(r.top)));
            const width = rects.reduce((sum, r) => sum + r.width, 0);
            if (tops.size > 1 && width <= room) broken.push(m[0]);
        }
    }
    return broken;
})()"""


@pytest.mark.usefixtures("browser")
@pytest.mark.slow
def test_the_documents_come_first_and_the_side_table_breaks_no_word(
    viewer_runs: tuple[Path, Path, Path], served: str
) -> None:
    """A run opens on its headline and then its documents, on the first screen (the worst
    slices folded below a summary); a document's side table wraps values between words and
    paths between their parts, never inside a word that fits its column."""
    _, sloppy, _ = viewer_runs
    target = _target(sloppy)
    with open_page(f"{served}#/run/0") as page:  # the first run served: the sloppy one
        page.wait_until("document.querySelectorAll('#document-list tr[data-document]').length > 0")
        page.wait_until("document.getElementById('slices') !== null")
        documents_top = page.evaluate(
            "document.getElementById('documents').getBoundingClientRect().top + window.scrollY"
        )
        slices_open = page.evaluate("document.getElementById('slices').open")
        page.evaluate(f"location.hash = '#/run/0/doc/{target['packet_id']}/{target['doc_id']}'")
        page.wait_until("document.querySelectorAll('#fields tr[data-path]').length > 20")
        broken = page.evaluate(BROKEN_WORDS)
        rows = page.evaluate("document.querySelectorAll('#fields tr[data-path]').length")
        assert problems(page) == []
    assert documents_top < 900, documents_top
    assert slices_open is False
    assert rows > 20 and broken == [], broken[:10]


# Before the app's script runs: the first list of runs is answered 2 s late, as a loaded
# server can answer it; `__runsLate` says when it has been.
LATE_RUNS = """
(() => {
  const fetched = window.fetch.bind(window);
  let first = true;
  window.fetch = async (path, ...rest) => {
    const late = first && String(path) === "api/runs";
    if (late) first = false;
    const answer = await fetched(path, ...rest);
    if (late) {
      await new Promise((done) => setTimeout(done, 2000));
      setTimeout(() => { window.__runsLate = true; }, 0);
    }
    return answer;
  };
})();
"""


@pytest.mark.slow
@pytest.mark.usefixtures("browser")
def test_a_page_answered_late_does_not_replace_the_one_opened_after_it(served: str) -> None:
    """The runs list asked for as the viewer loads comes after the user opened a run: the
    run's page stays (it was replaced by the list, and its overview never appeared)."""
    with open_page("about:blank", 1400, 900) as page:
        page.send("Page.addScriptToEvaluateOnNewDocument", {"source": LATE_RUNS})
        page.send("Page.navigate", {"url": served})
        page.wait_for("Page.loadEventFired")
        page.evaluate("location.hash = '#/run/0'")
        page.wait_until("document.querySelectorAll('#overview table').length > 0", timeout=60)
        page.wait_until("window.__runsLate === true")
        time.sleep(0.3)  # anything the late answer set off has run
        assert page.evaluate("document.querySelectorAll('#overview table').length") > 0
        assert page.evaluate("document.querySelectorAll('#document-list').length") == 1
        assert problems(page) == []
