"""The viewer's library and server without a browser: outcomes, the document list's filters
against independent SQL, a run not scored yet read from its records, hidden text found in
the text layer, the server's answers to bad requests, and a port in use."""

from __future__ import annotations

import http.client
import shutil
import socket
import subprocess
from pathlib import Path

import duckdb
import pytest
from starlette.testclient import TestClient

from packetbench.benchmark.viewer.app import Viewer, make_app
from packetbench.benchmark.viewer.document import build, outcome_of
from packetbench.benchmark.viewer.pages import Pages
from packetbench.benchmark.viewer.source import VERDICTS, Query, open_run
from packetbench.core.errors import UsageError
from tests.support.paths import cli_path
from tests.support.viewer import PORT, serving


@pytest.mark.parametrize(
    ("outcome", "verdict", "hallucinated", "shown"),
    [
        ("correct", "supported", False, "correct"),
        ("wrong", "contradicted", False, "wrong"),
        ("wrong", "contradicted", True, "hallucinated"),
        ("wrong", "overreach", True, "hallucinated"),
        ("wrong", "stale", False, "stale"),
        ("omitted", None, None, "omitted"),
        ("abstained", None, None, "abstained"),
        ("answered", "contradicted", False, "guessed"),
        ("answered", "unlinked", True, "hallucinated"),
        (None, "unlinked", True, "hallucinated"),  # a record the model invented
        (None, "contradicted", False, "guessed"),
    ],
)
def test_outcome_of_a_field(
    outcome: str | None, verdict: str | None, hallucinated: bool | None, shown: str
) -> None:
    assert outcome_of(outcome, verdict, hallucinated) == shown


def test_list_filters_agree_with_sql(viewer_runs: tuple[Path, Path, Path]) -> None:
    packets, sloppy, _ = viewer_runs
    source = open_run(sloppy, packets)
    with duckdb.connect(str(sloppy / "results.duckdb"), read_only=True) as con:
        for verdict in VERDICTS:
            where = "hallucinated" if verdict == "hallucinated" else f"verdict = '{verdict}'"
            expected = con.execute(
                f"SELECT count(DISTINCT (packet_id, doc_id)) FROM claims WHERE {where}"
            ).fetchone()
            assert expected is not None
            assert source.listing(Query({"verdict": verdict})).total == expected[0], verdict
        for outcome, field in (("wrong", "wrong"), ("omitted", "omitted"), ("guessed", "answered")):
            expected = con.execute(
                "SELECT count(DISTINCT (packet_id, doc_id)) FROM fields WHERE outcome = ?",
                [field],
            ).fetchone()
            assert expected is not None
            assert source.listing(Query({"outcome": outcome})).total == expected[0], outcome
        pattern = "overlay.redaction"
        expected = con.execute(
            "SELECT count(DISTINCT doc_id) FROM patterns WHERE pattern_id = ?", [pattern]
        ).fetchone()
    assert expected is not None and expected[0] > 0
    assert source.listing(Query({"pattern": pattern})).total == expected[0]
    xlsx = source.listing(Query({"format": "xlsx"}, limit=500))
    assert xlsx.total > 0 and {r["format"] for r in xlsx.rows} == {"xlsx"}
    # worst first: the share of checked values hallucinated never rises down the list
    rows = source.listing(Query(limit=500)).rows
    rates = [r["hallucinated"] / r["checked"] for r in rows if r["checked"]]
    assert rates == sorted(rates, reverse=True)
    page = source.listing(Query(offset=5, limit=5)).rows
    assert [r["doc_id"] for r in page] == [r["doc_id"] for r in rows[5:10]]
    with pytest.raises(UsageError):
        Query.parse({"verdict": "made_up"})
    with pytest.raises(UsageError):
        Query.parse({"doc_id; DROP TABLE claims": "x"})


@pytest.mark.slow
def test_the_overview_shows_each_dimensions_worst_slices(
    viewer_runs: tuple[Path, Path, Path],
) -> None:
    """The worst slices of each dimension and metric, taken in one pass, are those a query of
    the slices view for that dimension and metric alone puts first."""
    from packetbench.benchmark.report.context import DIMENSIONS
    from packetbench.benchmark.results.query import open_runs
    from packetbench.benchmark.viewer.overview import SLICE_METRICS, WORST_SLICES, overview

    packets, sloppy, _ = viewer_runs
    source = open_run(sloppy, packets)
    try:
        shown = overview(source)
    finally:
        source.close()
    expected = []
    with open_runs([sloppy]) as runs:
        for dimension in dict(DIMENSIONS):
            for metric in SLICE_METRICS:
                rows = runs.rows(
                    "SELECT slice, micro FROM slices WHERE dimension = ? AND metric = ? "
                    "ORDER BY CASE WHEN better = 'lower' THEN -micro ELSE micro END, slice "
                    "LIMIT ?",
                    [dimension, metric, WORST_SLICES],
                )
                if rows:
                    expected.append((dimension, metric, [(r["slice"], r["micro"]) for r in rows]))
    found = [
        (s["dimension"], s["metric"], [(r["slice"], r["micro"]) for r in s["rows"]])
        for s in shown["slices"]
    ]
    assert found == expected
    assert len(found) == len(DIMENSIONS) * len(SLICE_METRICS)
    assert any(len(rows) == WORST_SLICES for _, _, rows in found)  # cut, not whole


def test_a_run_not_scored_yet_reads_what_exists(
    viewer_runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """Without results.duckdb and with a record not written yet, the list shows what exists
    and an opened document is scored as `score` scores it (the same outcome per field)."""
    packets, sloppy, _ = viewer_runs
    running = Path(shutil.copytree(sloppy, tmp_path / "running"))
    (running / "results.duckdb").unlink()
    shutil.rmtree(running / "scores")
    (running / "extractions" / "N3-000001" / "acord_125.json").unlink()
    source = open_run(running, packets)
    assert not source.scored
    listing = source.listing(Query(limit=500))
    status = {r["doc_id"]: r["status"] for r in listing.rows}
    assert status["acord_125"] == "pending" and status["sov_pdf"] == "extracted"
    with pytest.raises(UsageError):
        source.listing(Query({"verdict": "hallucinated"}))
    pages = Pages(tmp_path / "cache")
    scored = open_run(sloppy, packets)
    for doc_id in ("sov_pdf", "loss_run_csv", "sov_excel", "acord_130"):
        now = build(source, pages, "N3-000001", doc_id)
        before = build(scored, pages, "N3-000001", doc_id)
        assert now["document"]["status"] == "scored"
        outcomes = {f["path"]: f["outcome"] for f in now["fields"]}
        assert outcomes == {f["path"]: f["outcome"] for f in before["fields"]}
        assert len(set(outcomes.values())) > 1
    pending = build(source, pages, "N3-000001", "acord_125")
    assert pending["document"]["status"] == "pending"
    assert {f["outcome"] for f in pending["fields"]} == {"unscored"}
    assert all(f["locations"] for f in pending["fields"])  # the truth is still drawn


def test_hidden_text_is_found_where_the_text_layer_holds_it(
    viewer_runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """The redacted FEIN of the canonical N3 ACORD 130 sits under its black box: the viewer
    finds its box in the text layer; the redaction pattern is listed on its page."""
    packets, sloppy, _ = viewer_runs
    view = build(open_run(sloppy, packets), Pages(tmp_path / "cache"), "N3-000001", "acord_130")
    redaction = next(p for p in view["patterns"] if p["id"] == "overlay.redaction")
    assert redaction["pages"] == [1]
    hidden = view["hidden"]
    assert hidden and all(h["boxes"] for h in hidden), hidden
    x0, y0, x1, y1 = hidden[0]["boxes"][0]
    assert 0 < x0 < x1 < view["pages"][0]["width"] and 0 < y0 < y1 < view["pages"][0]["height"]


def test_the_server_answers_bad_requests_with_one_line(
    viewer_runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    packets, sloppy, typical = viewer_runs
    viewer = Viewer([open_run(sloppy, packets), open_run(typical, packets)], Pages(tmp_path))
    with TestClient(make_app(viewer, PORT), base_url=f"http://127.0.0.1:{PORT}") as client:
        assert client.get("/api/runs").json()[1]["name"] == "typical-2"
        listing = client.get("/api/runs/0/documents", params={"verdict": "hallucinated"})
        assert listing.status_code == 200 and listing.json()["total"] > 0
        for url in (
            "/api/runs/0/documents/N3-000001/..%2F..%2Fetc%2Fpasswd",
            "/api/runs/0/documents/N3-000001/not_a_document",
            "/api/runs/7/documents",
            "/api/runs/0/documents?limit=100000",
            "/api/runs/0/documents?verdict=1%3D1",
            "/pages/" + "0" * 64 + "/1",
            "/pages/../../etc/passwd/1",
            "/static/../app.py",
        ):
            answer = client.get(url)
            assert answer.status_code in (400, 404), (url, answer.status_code)
            assert "Traceback" not in answer.text
        sha = viewer.sources[0].hashes["N3-000001/acord_130"]["file"]
        assert client.get(f"/pages/{sha}/1", params={"scale": "9"}).status_code == 400
        image = client.get(f"/pages/{sha}/1", params={"scale": "2"})
        assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
        assert client.get(f"/pages/{sha}/99").status_code == 400
        assert "script-src 'self'" in client.get("/").headers["content-security-policy"]
    viewer.close()


def test_the_server_answers_its_own_pages_only(viewer_runs: tuple[Path, Path, Path]) -> None:
    """A real `packetbench view`: a request whose Host is not the server's address (a page
    of a DNS-rebinding domain in the user's browser) or that another site sends is 403."""
    packets, sloppy, _ = viewer_runs
    with serving(str(sloppy), "--packets", str(packets)) as url:
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        own = f"127.0.0.1:{port}"
        for headers, status in (
            ({"Host": own}, 200),
            ({"Host": f"localhost:{port}"}, 200),
            ({"Host": own, "Origin": f"http://{own}", "Sec-Fetch-Site": "same-origin"}, 200),
            ({"Host": f"rebound.example:{port}"}, 403),
            ({"Host": "127.0.0.1"}, 403),
            ({"Host": f"127.0.0.1:{port + 1}"}, 403),
            ({"Host": own, "Origin": "http://rebound.example"}, 403),
            ({"Host": own, "Origin": "null"}, 403),
            ({"Host": own, "Sec-Fetch-Site": "cross-site"}, 403),
            ({"Host": own, "Sec-Fetch-Site": "same-site"}, 403),
        ):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.putrequest("GET", "/api/runs", skip_host=True)
            for name, value in headers.items():
                connection.putheader(name, value)
            connection.endheaders()
            answer = connection.getresponse()
            body = answer.read()
            connection.close()
            assert answer.status == status, (headers, answer.status, body[:200])
            if status == 403:
                assert b"sloppy" not in body and b"error" in body


def test_error_bodies_name_no_path_and_big_numbers_are_400(
    viewer_runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    packets, sloppy, _ = viewer_runs
    viewer = Viewer([open_run(sloppy, packets)], Pages(tmp_path))
    sha = viewer.sources[0].hashes["N3-000001/acord_130"]["file"]
    big = "1" + "0" * 22
    with TestClient(make_app(viewer, PORT), base_url=f"http://127.0.0.1:{PORT}") as client:
        for url in (
            f"/api/runs/0/documents?offset={big}",
            f"/api/runs/0/documents?limit={big}",
            f"/api/runs/0/documents?offset=-{big}",
            f"/pages/{sha}/{big}",
            f"/pages/{sha}/99",
            f"/pages/{sha}/1?scale={big}",
            f"/api/runs/{big}/documents",
            f"/api/runs/{big}/overview",
        ):
            answer = client.get(url)
            assert answer.status_code in (400, 404), (url, answer.status_code, answer.text)
            assert str(tmp_path.parent) not in answer.text and str(packets) not in answer.text
            assert "/tmp/" not in answer.text and str(Path.home()) not in answer.text, answer.text
    viewer.close()


def test_a_port_in_use_is_one_line_and_exit_2(viewer_runs: tuple[Path, Path, Path]) -> None:
    packets, sloppy, _ = viewer_runs
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [cli_path(), "view", str(sloppy), "--packets", str(packets), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 2
    assert (
        done.stderr
        == f"packetbench: error: 127.0.0.1:{port}: port in use (choose another with --port)\n"
    )
