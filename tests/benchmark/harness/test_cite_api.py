"""`extract --cite box` through the three SDKs against the stub servers, as a user runs it.

Each stub refuses a schema outside the strict subset its provider accepts, and answers a cited
schema with the truth's first location of every value: the record's conversion to PDF points
must give back the truth's own boxes, and workbook and CSV citations their cells.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.harness.stub import StubServer
from tests.support.paths import PACKETS
from tests.support.stubs import APIS, KEYS, extract_args, records

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = PACKETS / "N1-000001"


def _first_locations(packet: Path, doc_id: str) -> dict[str, dict[str, object]]:
    fields = json.loads((packet / f"field_truth_{doc_id}.json").read_text())["fields"]
    return {f["path"]: f["locations"][0] for f in fields if f["locations"]}


@pytest.mark.parametrize("api", APIS)
@pytest.mark.slow
def test_cite_box_through_each_sdk(
    api: str, stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    server = stub(api, PACKET)
    run = tmp_path / "run"
    args = extract_args(server, PACKET, run, "--no-cache", "--cite", "box", api=api)
    result = run_cli(*args, env={KEYS[api]: "k" * 20})
    assert result.returncode == 0, result.stderr
    assert server.rejected == []  # every cited schema passed the stub's strict rules
    info = json.loads((run / "run.json").read_text())
    assert info["parameters"]["cite"] == "box"
    assert info["citations"]["mode"] == "box"
    found = records(run)
    assert found and all(r["status"] == "ok" for r in found.values())
    formats = set()
    for name, record in found.items():
        doc_id = name.split("/")[1]
        truth = _first_locations(PACKET, doc_id)
        cited = {c["path"]: c for c in record["citations"]}
        assert set(cited) == set(truth), name
        for path, where in truth.items():
            citation = cited[path]
            assert citation["problem"] is None, (name, path, citation)
            if "bbox" in where:
                formats.add("pdf")
                assert citation["page"] == where["page"]
                assert citation["points"] == pytest.approx(where["bbox"], abs=0.01)
                assert all(0 <= v <= 1 for v in citation["box"])
            elif "sheet" in where:
                formats.add("xlsx")
                assert (citation["sheet"], citation["cell"]) == (where["sheet"], where["cell"])
            else:
                formats.add("csv")
                assert (citation["row"], citation["column"]) == (where["row"], where["column"])
    assert formats == {"pdf", "xlsx", "csv"}


BASE = ("extract", "--provider", "openai", "--model", "m", "--packets", str(PACKET))
ENV = {"OPENAI_API_KEY": "k" * 20}


def test_an_unknown_cite_mode_is_one_line_exit_2(run_cli: Run, tmp_path: Path) -> None:
    bad = run_cli(*BASE, "--out", str(tmp_path / "bad"), "--cite", "span", env=ENV)
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "packetbench: error: unknown --cite 'span'; choose page, box, native"
    ]
    assert not (tmp_path / "bad").exists()


@pytest.mark.slow
def test_without_cite_records_carry_no_citations(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    server = stub("openai", PACKET)
    base, env = BASE, ENV
    run = tmp_path / "plain"
    result = run_cli(*base, "--base-url", server.base_url, "--out", str(run), "--no-cache", env=env)
    assert result.returncode == 0, result.stderr
    assert all("citations" not in r for r in records(run).values())
    assert "cite" not in json.loads((run / "run.json").read_text())["parameters"]
