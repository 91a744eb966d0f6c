"""The viewer on a 1280 x 900 screen, in headless Chromium: no page scrolls sideways, no
column of a table is cut (the document's side table keeps its "model" column on every tab,
in a comparison too), and a checkbox reads the same way on both sides of a row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.chromium import cut, open_page
from tests.support.viewer import problems

WIDTH, HEIGHT = 1280, 900
DOCUMENT = "#/run/0/doc/N3-000001/acord_125"  # a scan with long values and many checkboxes
ROWS = "document.querySelectorAll('#{} tr[data-path]').length > 0"


@pytest.mark.slow
@pytest.mark.usefixtures("browser")
def test_every_screen_fits_1280_px(viewer_runs: tuple[Path, Path, Path], served: str) -> None:
    screens = {
        "#/": "document.querySelectorAll('table tr').length > 2",
        "#/run/0": "document.querySelectorAll('#document-list tr[data-document]').length > 0"
        " && document.getElementById('slices') !== null",
        DOCUMENT: ROWS.format("fields"),
        f"{DOCUMENT}?tab=claims": ROWS.format("claims"),
        f"{DOCUMENT}?tab=page": "document.querySelectorAll('#patterns tr').length > 1",
        f"{DOCUMENT}?cmp=1": ROWS.format("fields"),
        "#/run/0/doc/N3-000001/sov_excel": ROWS.format("fields"),
    }
    found: dict[str, list[str]] = {}
    with open_page(served, WIDTH, HEIGHT) as page:
        for route, ready in screens.items():
            # the last screen's tables go first, so that `ready` waits for this one's
            page.evaluate("document.getElementById('app').replaceChildren()")
            page.evaluate(f"location.hash = {json.dumps(route)}")
            page.wait_until(ready, timeout=60)
            if route == "#/run/0":  # the worst slices too, unfolded
                page.evaluate("document.getElementById('slices').open = true")
            if "doc/" in route:
                heads = page.evaluate(
                    "Array.from(document.querySelectorAll('#side tr:first-child th'))"
                    ".map(th => th.textContent)"
                )
                assert heads, route
                if "tab=" not in route and "cmp" not in route:
                    assert heads == ["", "field", "truth", "model · verdict"], heads
            found[route] = cut(page)
        assert problems(page) == []
    assert found == {route: [] for route in screens}, found


@pytest.mark.slow
@pytest.mark.usefixtures("browser")
def test_a_checkbox_reads_the_same_on_both_sides(
    viewer_runs: tuple[Path, Path, Path], served: str
) -> None:
    """The page draws a ticked box as "X" and an empty one as nothing; the model answers
    "Yes" or "No". Both sides show the value, with a box: "☒ Yes", "☐ No"."""
    packets, _, _ = viewer_runs
    truth = json.loads((packets / "N3-000001" / "field_truth_acord_125.json").read_text())
    boxes = {f["path"]: f["value"] for f in truth["fields"] if f["kind"] == "checkbox"}
    assert {"Yes", "No"} <= set(boxes.values())
    with open_page(f"{served}{DOCUMENT}", WIDTH, HEIGHT) as page:
        page.wait_until(ROWS.format("fields"), timeout=60)
        # every row drawn (the table draws 200 at a time)
        page.evaluate(
            "(async () => { for (let b; (b = document.querySelector('#fields tr.more button'));)"
            " { b.click(); await new Promise(r => setTimeout(r, 200)); } })()"
        )
        page.wait_until("!document.querySelector('#fields tr.more')", timeout=60)
        shown = page.evaluate(
            "Object.fromEntries(Array.from(document.querySelectorAll('#fields tr[data-path]'))"
            ".map(r => [r.dataset.path, [r.children[2].textContent,"
            " r.children[3].firstChild ? r.children[3].firstChild.textContent : '']]))"
        )
    model = json.loads(
        (viewer_runs[1] / "extractions" / "N3-000001" / "acord_125.json").read_text()
    )["output"]

    def answer(path: str) -> object:
        node: object = model
        for part in path.replace("[", ".[").split("."):
            if part.startswith("["):
                node = node[int(part[1:-1])] if isinstance(node, list) else None
            else:
                node = node.get(part) if isinstance(node, dict) else None
        return node

    glyph = {"Yes": "☒ Yes", "No": "☐ No", None: ""}
    checked = 0
    for path, value in boxes.items():
        if path not in shown:
            continue
        truth_cell, model_cell = shown[path]
        assert truth_cell == glyph[value], (path, truth_cell)
        given = answer(path)
        if given in glyph:
            assert model_cell == glyph[given], (path, model_cell)
            checked += 1
    assert checked > 10
    assert not any(cell in ("X", "x") for cells in shown.values() for cell in cells)


@pytest.mark.usefixtures("browser")
def test_cut_finds_a_cut_column_and_a_page_that_scrolls(tmp_path: Path) -> None:
    """The check the tests above rest on fails where it must: a table wider than its
    scrolling frame, and one wider than the window."""
    page_file = tmp_path / "cut.html"
    page_file.write_text(
        "<!doctype html><html><body style='margin:0'>"
        "<div id='frame' style='width:400px;overflow:auto'><table><tr>"
        "<td style='white-space:nowrap'>" + "a wide cell " * 40 + "</td><td>last</td>"
        "</tr></table></div>"
        "<table style='width:1500px'><tr><td>wide</td><td>past the edge</td></tr></table>"
        "</body></html>",
        encoding="utf-8",
    )
    with open_page(page_file, WIDTH, HEIGHT) as page:
        found = cut(page)
    assert found[0] == "the page scrolls sideways: 1500 px in 1280"
    assert any(f.startswith('cut column: "last"') for f in found), found
    assert any(f.startswith('cut column: "past the edge"') for f in found), found
