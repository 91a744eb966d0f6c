"""`extract --confidence` (with and without `--cite box`) through the three SDKs against the
stub servers, as a user runs it: each stub refuses a schema outside the strict subset its
provider accepts, and answers a confidence list (0.9 for every truth value) beside the truth.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.config import ExtractionConfig, ModelOptions
from packetbench.benchmark.extraction import extract_run
from packetbench.benchmark.harness.stub import StubServer
from packetbench.benchmark.results import load_run
from packetbench.benchmark.results.query import open_runs
from packetbench.benchmark.score.scorer import score_run
from packetbench.benchmark.selection import Selection
from tests.support.paths import PACKETS
from tests.support.stubs import APIS, KEYS, records

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = PACKETS / "N1-000001"


@pytest.mark.parametrize("cite", [None, "box"])
@pytest.mark.parametrize("api", APIS)
@pytest.mark.slow
def test_confidence_through_each_sdk(
    api: str, cite: str | None, stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    server = stub(api, PACKET)
    run = tmp_path / "run"
    result = run_cli(
        "extract", "--provider", api, "--model", "stub-model", "--base-url", server.base_url,
        "--packets", str(PACKET), "--out", str(run), "--no-cache", "--confidence",
        *(("--cite", cite) if cite else ()),
        env={KEYS[api]: "k" * 20},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert server.rejected == []  # every wrapped schema passed the stub's strict rules
    info = json.loads((run / "run.json").read_text())
    assert info["parameters"]["confidence"] is True
    assert len(info["confidences"]["prompt"]) == 64
    found = records(run)
    assert found and all(r["status"] == "ok" for r in found.values())
    for name, record in found.items():
        fields = json.loads((PACKET / f"field_truth_{name.split('/')[1]}.json").read_text())
        truth = {f["path"] for f in fields["fields"] if f["locations"]}
        assert {c["path"]: c["confidence"] for c in record["confidences"]} == dict.fromkeys(
            truth, 0.9
        )
        assert ("citations" in record) == (cite is not None)
    scored = run_cli("score", str(run), "--packets", str(PACKET))
    assert scored.returncode == 0, scored.stderr
    with open_runs([run]) as runs:
        (row,) = runs.rows("SELECT * FROM confidence")
    # the stub answers the truth at 0.9: every stated value is right, so no AUC
    assert row["stated"] > 0 and row["incorrect"] == 0 and row["auc"] is None
    assert row["ece"] == pytest.approx(0.1, abs=1e-9)


def test_confidence_with_boxes_of_one_document(
    stub: Callable[..., StubServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast tier's check, in process: one document through the OpenAI SDK over HTTP to
    the stub with confidence and box citations (the strictest schema): the stub accepts the
    wrapped schema, the record holds a confidence for every located truth value and its
    citations, and the scored run's confidence view reads them back."""
    server = stub("openai", PACKET)
    monkeypatch.setenv(KEYS["openai"], "k" * 20)
    config = ExtractionConfig(
        provider="openai",
        api=ModelOptions(model="stub-model", base_url=server.base_url, use_cache=False),
        cite="box",
        confidence=True,
        selection=Selection(doc_types=("acord_125",)),
    )
    run = tmp_path / "run"
    extract_run(config, PACKET, run)
    assert server.rejected == []
    info = json.loads((run / "run.json").read_text())
    assert info["parameters"]["confidence"] is True
    (name, record), *others = records(run).items()
    assert others == [] and name.endswith("/acord_125") and record["status"] == "ok"
    fields = json.loads((PACKET / "field_truth_acord_125.json").read_text())["fields"]
    truth = {f["path"] for f in fields if f["locations"]}
    assert {c["path"]: c["confidence"] for c in record["confidences"]} == dict.fromkeys(truth, 0.9)
    assert record["citations"]
    score_run(run, PACKET)
    load_run(run, PACKET)
    with open_runs([run]) as runs:
        (row,) = runs.rows("SELECT * FROM confidence")
    assert row["stated"] == len(truth) and row["incorrect"] == 0
    assert row["ece"] == pytest.approx(0.1, abs=1e-9)
