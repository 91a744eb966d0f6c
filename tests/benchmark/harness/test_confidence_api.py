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

from packetbench.benchmark.harness.stub import StubServer
from packetbench.benchmark.results.query import open_runs
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
