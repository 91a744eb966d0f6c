"""A document served in parts: its summary, the fields drawn on each page, the side table a
chunk at a time; built once into an index on disk that the next server reads; and in a real
browser, only the parts in view asked for."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from starlette.testclient import TestClient

from packetbench.benchmark.viewer.app import Viewer, make_app
from packetbench.benchmark.viewer.pages import Pages
from packetbench.benchmark.viewer.source import open_run
from tests.support.chromium import open_page
from tests.support.viewer import PORT, problems

# The canonical N3 packet's PDF loss run: 668 fields on 5 pages (two chunks of the side table);
# its policy form: 12 pages.
LONG = "loss_run_pdf"
PAGES = "policy_form"
URL = "/api/runs/0/documents/N3-000001"


def _boxes_on(packets: Path, doc_id: str, page: int) -> set[tuple[str, tuple[float, ...]]]:
    """(path, bbox) of every truth box on `page`, read from the field truth."""
    truth = json.loads((packets / "N3-000001" / f"field_truth_{doc_id}.json").read_text())
    return {
        (f["path"], tuple(loc["bbox"]))
        for f in truth["fields"]
        for loc in f["locations"]
        if loc.get("page") == page and "bbox" in loc
    }


def _index_files(cache: Path) -> list[Path]:
    return sorted((cache / "index").rglob("*.pbv"))


def test_the_parts_hold_the_whole_view(
    viewer_runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    packets, sloppy, _ = viewer_runs
    viewer = Viewer([open_run(sloppy, packets, check_files=False)], Pages(tmp_path / "cache"))
    with TestClient(make_app(viewer, PORT), base_url=f"http://127.0.0.1:{PORT}") as client:
        summary = client.get(f"{URL}/{LONG}").json()
        assert "fields" not in summary and "claims" not in summary
        chunk = summary["chunk"]
        rows: list[dict[str, Any]] = []
        for k in range(-(-summary["fields_total"] // chunk)):
            rows += client.get(f"{URL}/{LONG}/fields-{k}").json()
        assert len(rows) == summary["fields_total"] > chunk  # more than one chunk
        # worst first, each outcome one run of rows, as the summary counts them
        runs = [[o, len(list(g))] for o, g in itertools.groupby(r["outcome"] for r in rows)]
        assert runs == summary["outcomes"]
        assert len({o for o, _ in runs}) == len(runs) > 1
        # each page's part: exactly the truth's boxes on that page, in its rows' outcomes
        outcome = {r["path"]: r["outcome"] for r in rows}
        for page in range(1, len(summary["pages"]) + 1):
            part = client.get(f"{URL}/{LONG}/page-{page}").json()
            drawn = {(r["path"], tuple(loc["bbox"])) for r in part for loc in r["locations"]}
            assert drawn == _boxes_on(packets, LONG, page), page
            assert summary["boxes"][page - 1] == len(drawn)
            assert all(r["outcome"] == outcome[r["path"]] for r in part)
        claims: list[dict[str, Any]] = []
        for k in range(-(-summary["claims_total"] // chunk)):
            claims += client.get(f"{URL}/{LONG}/claims-{k}").json()
    with duckdb.connect(str(sloppy / "results.duckdb"), read_only=True) as con:
        found = con.execute(
            "SELECT path FROM claims WHERE packet_id = 'N3-000001' AND doc_id = ? ORDER BY path",
            [LONG],
        ).fetchall()
    assert sorted(c["path"] for c in claims) == [path for (path,) in found]
    viewer.close()


def test_an_index_is_built_once_and_read_by_the_next_server(
    viewer_runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """The second server over the same cache answers from the index the first wrote (the
    file is not written again); a damaged index is built again; another run's outcomes are
    another index."""
    packets, sloppy, typical = viewer_runs
    cache = tmp_path / "cache"

    def opened(run: Path) -> tuple[bytes, bytes]:
        viewer = Viewer([open_run(run, packets, check_files=False)], Pages(cache))
        try:
            with TestClient(make_app(viewer, PORT), base_url=f"http://127.0.0.1:{PORT}") as client:
                summary = client.get(f"{URL}/{LONG}")
                page = client.get(f"{URL}/{LONG}/page-2")
                assert summary.status_code == page.status_code == 200
                return summary.content, page.content
        finally:
            viewer.close()

    first = opened(sloppy)
    [index] = _index_files(cache)
    written = index.stat()
    assert opened(sloppy) == first
    again = index.stat()
    assert (again.st_ino, again.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    # damaged (cut short): built again, the same
    index.write_bytes(index.read_bytes()[: written.st_size // 2])
    assert opened(sloppy) == first
    assert index.stat().st_size == written.st_size
    # the typical run's outcomes differ: its own index
    other = opened(typical)
    assert len(_index_files(cache)) == 2 and other[0] != first[0]


def test_a_bad_part_is_one_line(viewer_runs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    packets, sloppy, _ = viewer_runs
    viewer = Viewer([open_run(sloppy, packets, check_files=False)], Pages(tmp_path / "cache"))
    with TestClient(make_app(viewer, PORT), base_url=f"http://127.0.0.1:{PORT}") as client:
        for part in ("page-99", "page-0", "fields-9", "claims-x", "summary.json", "cells"):
            answer = client.get(f"{URL}/{LONG}/{part}")
            assert answer.status_code == 400, (part, answer.status_code)
            assert set(answer.json()) == {"error"}
        assert client.get(f"{URL}/{LONG}/..%2F..%2Fsummary").status_code in (400, 404)
    viewer.close()


@pytest.mark.usefixtures("browser")
@pytest.mark.slow
def test_a_long_document_loads_what_is_in_view(
    viewer_runs: tuple[Path, Path, Path], served: str
) -> None:
    """Opened, the policy form asks for its summary, the first chunk of its side table and
    the fields of the pages near the viewport, not of its last page; scrolled to its last
    page, that page's boxes are asked for and drawn, each where the truth puts it."""
    packets = viewer_runs[0]
    last = max(page for page in range(1, 40) if _boxes_on(packets, PAGES, page))
    with open_page(f"{served}#/run/0/doc/N3-000001/{PAGES}", 1400, 900) as page:
        page.wait_until("document.querySelectorAll('#fields tr[data-path]').length > 0")
        page.wait_until("document.querySelectorAll('.page[data-page=\"1\"] .box').length > 0")
        asked = [url.split("/N3-000001/")[-1] for url in page.requests if "/api/" in url]
        assert f"{PAGES}/page-1" in asked and f"{PAGES}/fields-0" in asked
        assert f"{PAGES}/page-{last}" not in asked and f"{PAGES}/fields-1" not in asked
        boxes = f"document.querySelectorAll('.page[data-page=\"{last}\"] .box')"
        assert page.evaluate(f"{boxes}.length") == 0
        page.evaluate(f"document.querySelector('.page[data-page=\"{last}\"]').scrollIntoView()")
        page.wait_until(f"{boxes}.length > 0")
        geometry = page.evaluate(f"view.data.pages[{last - 1}]")
        drawn = page.evaluate(
            f"Array.from({boxes}).map(b => [b.dataset.path, parseFloat(b.style.left),"
            " parseFloat(b.style.top)])"
        )
        found = problems(page)
    assert found == []
    zoom = 1.25  # the viewer's default: 1 PDF point is 1.25 CSS pixels
    top = geometry["bottom"] + geometry["height"]
    expected = sorted(
        (path, (bbox[0] - geometry["left"]) * zoom, (top - bbox[3]) * zoom)
        for path, bbox in _boxes_on(packets, PAGES, last)
    )
    assert len(drawn) == len(expected)
    for (path, x, y), (want, wx, wy) in zip(sorted(drawn), expected, strict=True):
        assert path == want and abs(x - wx) < 0.01 and abs(y - wy) < 0.01
