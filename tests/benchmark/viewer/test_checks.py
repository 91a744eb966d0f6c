"""The server answers before the run's files are hashed, and refuses, visibly, a document
whose files differ from those the run was extracted from (as `score` refuses them): in the
API (422 with score's message, the list row, the run's check), in the page, and in its page
images; the static export still refuses the whole run before it writes anything. Packets
regenerated (another seed or version) or of another corpus are refused before the server
serves: their packet_truth.json is checked at start, one line and exit 2."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.viewer.app import public
from tests.support.chromium import open_page
from tests.support.paths import PACKETS, cli_path
from tests.support.viewer import serving

ALTERED = "acord_130"


@pytest.fixture
def altered(viewer_runs: tuple[Path, Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """(packets, run): the sloppy run, and a copy of its packet in which one truth file of
    one document was edited after the run was extracted."""
    _, sloppy, _ = viewer_runs
    packets = tmp_path / "packets"
    shutil.copytree(PACKETS / "N3-000001", packets / "N3-000001")
    truth = packets / "N3-000001" / f"field_truth_{ALTERED}.json"
    truth.write_text(truth.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    return packets, sloppy


@pytest.fixture
def served_altered(altered: tuple[Path, Path], tmp_path: Path) -> Iterator[str]:
    packets, run = altered
    with serving(str(run), "--packets", str(packets), "--cache", str(tmp_path / "c")) as url:
        yield url


def _get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=120) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _checked(url: str) -> dict[str, Any]:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        status, checks = _get(url + "api/runs/0/checks")
        assert status == 200
        if checks["done"]:
            return dict(checks)
        time.sleep(0.2)
    raise AssertionError("the check of the run's files never ended")


def test_a_differing_document_is_refused_while_the_rest_is_served(
    altered: tuple[Path, Path], served_altered: str, tmp_path: Path
) -> None:
    packets, run = altered
    reason = (
        f"{packets}/N3-000001/field_truth_{ALTERED}.json: not the file {run} was extracted "
        "from (its sha256 differs); view the run with the packets it was extracted from"
    )
    url = served_altered
    status, answer = _get(f"{url}api/runs/0/documents/N3-000001/{ALTERED}")
    assert (status, answer) == (422, {"error": public(reason)})  # no folder in an error body
    status, _ = _get(f"{url}api/runs/0/documents/N3-000001/{ALTERED}/page-1")
    assert status == 422
    recorded = json.loads((run / "run.json").read_text())["packets"][0]["sha256"]
    image = f"{url}pages/{recorded[ALTERED]['file']}/1"
    status, answer = _get(image)
    assert (status, answer) == (422, {"error": public(reason)})
    status, answer = _get(f"{url}api/runs/0/documents/N3-000001/acord_125")
    assert status == 200 and answer["doc_id"] == "acord_125"
    checks = _checked(url)
    assert checks["refused"] == 1 and checks["checked"] == checks["documents"]
    assert checks["first_refused"] == [{"document": f"N3-000001/{ALTERED}", "reason": reason}]
    _, listing = _get(f"{url}api/runs/0/documents?limit=500")
    state = {row["doc_id"]: row["check"] for row in listing["rows"]}
    assert state.pop(ALTERED) == reason
    assert set(state.values()) == {"verified"}
    # the export reads every file before it writes: it refuses the run, as score does
    done = subprocess.run(
        [cli_path(), "view", str(run), "--packets", str(packets), "--out", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert (done.returncode, done.stderr) == (2, f"packetbench: error: {reason}\n")
    assert not (tmp_path / "o").exists()


@pytest.mark.usefixtures("browser")
@pytest.mark.slow
def test_the_page_shows_what_is_refused(served_altered: str) -> None:
    url = served_altered
    _checked(url)
    with open_page(url + "#/run/0", 1400, 900) as page:
        page.wait_until("document.querySelectorAll('#document-list tr[data-document]').length")
        warning = page.wait_until("(document.querySelector('#checks .refused') || {}).textContent")
        row = page.evaluate(
            f"document.querySelector('tr[data-document=\"N3-000001/{ALTERED}\"] td.refused')"
            ".textContent"
        )
        others = page.evaluate("document.querySelectorAll('td.refused').length")
    assert warning.startswith("1 document(s) differ from those the run was extracted from")
    assert row.startswith("refused: ") and f"field_truth_{ALTERED}.json" in row
    assert others == 1
    with open_page(f"{url}#/run/0/doc/N3-000001/{ALTERED}", 1400, 900) as page:
        shown = page.wait_until("(document.querySelector('#app .error') || {}).textContent")
    assert f"field_truth_{ALTERED}.json: not the file" in shown


def test_a_regenerated_packet_is_refused_before_serving(
    viewer_runs: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """A packet whose packet_truth.json is not the one the run recorded (here its seed, one
    byte, as if generated again with another seed): one line naming the file, exit 2, and
    nothing served."""
    _, run, _ = viewer_runs
    packets = tmp_path / "packets"
    shutil.copytree(PACKETS / "N3-000001", packets / "N3-000001")
    truth = packets / "N3-000001" / "packet_truth.json"
    text = truth.read_text(encoding="utf-8")
    assert text.count('"seed": 1,') == 1
    truth.write_text(text.replace('"seed": 1,', '"seed": 7,'), encoding="utf-8")
    args = ["--packets", str(packets), "--port", "0", "--cache", str(tmp_path / "c")]
    process = subprocess.Popen(
        [cli_path(), "view", str(run), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        served = process.stdout.readline()  # the serving line, or nothing when it exits
        assert served == ""
        assert process.wait(timeout=60) == 2
        error = process.stderr.read()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    assert error == (
        f"packetbench: error: {truth}: not the packet {run} was extracted from (its sha256 "
        "differs); view the run with the packets it was extracted from\n"
    )
