"""A run imported with `packetbench import nightmare` (the small corpus in the reference's
format), viewed as its folder is, without --packets: boxes where the reference locates a
value, and every other value listed in the side table, marked as not located."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.importers.nightmare.importer import import_corpus
from tests.support.chromium import open_page
from tests.support.corpus_fixture import write_corpus
from tests.support.viewer import problems, serving

ROWS = "Array.from(document.querySelectorAll('#fields tr[data-path]'))"


def _truth(run: Path, doc_id: str) -> list[dict[str, Any]]:
    packet = run.parent.parent / "packets" / "N1-070001"
    fields: list[dict[str, Any]] = json.loads(
        (packet / f"field_truth_{doc_id}.json").read_text(encoding="utf-8")
    )["fields"]
    return fields


# Slow (~35 s on 2 loaded cores with its fixture: a corpus in the reference's format
# imported with `packetbench import nightmare`, then opened in Chromium).
@pytest.mark.slow
@pytest.mark.usefixtures("browser")
def test_an_imported_run_shows_boxes_where_the_reference_locates_values(
    imported_run: Path, tmp_path: Path
) -> None:
    pdf, csv = _truth(imported_run, "acord_25"), _truth(imported_run, "loss_run_csv")
    located = sorted(f["path"] for f in pdf for loc in f["locations"] if "bbox" in loc)
    unlocated = sorted(f["path"] for f in pdf if not f["locations"])
    assert located and unlocated  # the fixture has both
    assert not any(f["locations"] for f in csv)
    # run.json names its packets as ../../packets: found from the run, wherever view starts
    with serving(str(imported_run), "--cache", str(tmp_path / "cache"), cwd=tmp_path) as url:
        with open_page(f"{url}#/run/0/doc/N1-070001/acord_25", 1400, 900) as page:
            page.wait_until(f"{ROWS}.length > 0")
            page.wait_until(f"document.querySelectorAll('.box').length >= {len(located)}")
            boxes = page.evaluate(
                "Array.from(document.querySelectorAll('.box')).map(b => b.dataset.path)"
            )
            rows = page.evaluate(
                f"{ROWS}.map(r => [r.dataset.path, r.dataset.located,"
                " !!r.querySelector('.tag.unlocated')])"
            )
            found = problems(page)
        assert found == []
        assert sorted(boxes) == located
        assert sorted(p for p, where, _ in rows if where == "yes") == located
        assert sorted(p for p, where, tag in rows if where == "no" and tag) == unlocated
        with open_page(f"{url}#/run/0/doc/N1-070001/loss_run_csv", 1400, 900) as page:
            page.wait_until(f"{ROWS}.length > 0 && !!document.querySelector('table.grid')")
            cells = page.evaluate("document.querySelectorAll('td.box-cell').length")
            listed = page.evaluate(
                f"{ROWS}.filter(r => r.querySelector('.tag.unlocated')).map(r => r.dataset.path)"
            )
            grid = page.evaluate("document.querySelector('table.grid').textContent")
            found = problems(page)
    assert found == []
    assert cells == 0
    assert sorted(listed) == sorted(f["path"] for f in csv)
    assert "CL-1001" in grid


def _api(url: str, run: int, doc_id: str, part: str = "") -> Any:
    address = f"{url}api/runs/{run}/documents/N1-070001/{doc_id}{part}"
    with urllib.request.urlopen(address, timeout=30) as response:
        return json.loads(response.read())


def test_the_viewer_api_places_only_what_the_reference_locates(tmp_path: Path) -> None:
    """The fast tier's check (no browser): the corpus imported in process, `packetbench
    view` of the run as its own process, its JSON API read over HTTP: the page's boxes are
    exactly the located values, the side table marks every other value as not located, and
    a CSV export (which the reference never locates) has no cells to draw."""
    root = tmp_path / "imported"
    import_corpus(write_corpus(tmp_path / "corpus"), root)
    run = root / "runs" / "gpt55"
    pdf, csv = _truth(run, "acord_25"), _truth(run, "loss_run_csv")
    located = sorted(f["path"] for f in pdf for loc in f["locations"] if "bbox" in loc)
    unlocated = sorted(f["path"] for f in pdf if not f["locations"])
    assert located and unlocated and not any(f["locations"] for f in csv)
    with serving(str(run), "--cache", str(tmp_path / "cache"), cwd=tmp_path) as url:
        summary = _api(url, 0, "acord_25")
        drawn = _api(url, 0, "acord_25", "/page-1")
        rows = _api(url, 0, "acord_25", "/fields-0")
        cells = _api(url, 0, "loss_run_csv", "/cells")
        csv_rows = _api(url, 0, "loss_run_csv", "/fields-0")
    assert summary["format"] == "pdf" and len(summary["pages"]) == 1
    assert sorted(row["path"] for row in drawn) == located
    assert all(loc["bbox"] for row in drawn for loc in row["locations"])
    assert sorted(r["path"] for r in rows if r["locations"]) == located
    assert sorted(r["path"] for r in rows if not r["locations"] and r["truth"] is not None) == (
        unlocated
    )
    assert cells == []
    truth_rows = [r for r in csv_rows if r["truth"] is not None]
    assert sorted(r["path"] for r in truth_rows) == sorted(f["path"] for f in csv)
    assert not any(r["locations"] for r in csv_rows)
