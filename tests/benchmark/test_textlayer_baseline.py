"""examples/textlayer_baseline.py, the offline baseline: through `extract --provider command`
and through `import predictions`, the same answers score the same."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.paths import ROOT

Run = Callable[..., subprocess.CompletedProcess[str]]
BASELINE = ROOT / "examples" / "textlayer_baseline.py"
CHOSEN = ("--doc-types", "acord_125,sov,loss_run", "--formats", "pdf")


@pytest.mark.slow
def test_both_doors_score_the_baseline_identically(run_cli: Run, tmp_path: Path) -> None:
    packets = tmp_path / "packets"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "packetbench",
            "generate",
            "--tiers",
            "N1,N2",
            "--out",
            str(packets),
        ],
        check=True,
        capture_output=True,
    )
    command = f"{sys.executable} {BASELINE} {{file}} {{schema}}"
    ran = run_cli("extract", "--provider", "command", "--command", command, "--packets",
                  str(packets), "--out", str(tmp_path / "cmd"), "--no-cache", *CHOSEN)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert "6 of 6 documents written [6 ok]" in ran.stdout
    made = subprocess.run(
        [sys.executable, str(BASELINE), "--predictions", str(packets), str(tmp_path / "pred")],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert made.stdout.startswith("6 answers written")
    imported = run_cli("import", "predictions", str(tmp_path / "pred"), "--packets",
                       str(packets), "--out", str(tmp_path / "imp"), *CHOSEN)  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    assert "0 missing, 0 extra, 0 invalid" in imported.stdout
    for run in ("cmd", "imp"):
        scored = run_cli("score", str(tmp_path / run), "--packets", str(packets))
        assert scored.returncode == 0, scored.stderr
    scores = sorted(p.name for p in (tmp_path / "cmd" / "scores").iterdir())
    assert "claims.parquet" in scores
    for name in scores:
        a = (tmp_path / "cmd" / "scores" / name).read_bytes()
        assert a == (tmp_path / "imp" / "scores" / name).read_bytes(), name


def test_the_baseline_reads_an_acord_125_from_its_text_layer(tmp_path: Path) -> None:
    """One document through the program as the command provider runs it: a JSON answer on
    stdout that fits the document type's schema, with values the page prints."""
    import json

    from jsonschema import Draft202012Validator

    from packetbench.generator.schema_files import all_schemas
    from tests.support.paths import PACKETS

    packet = PACKETS / "N1-000001"
    schema = all_schemas()["acord_125"]
    schema_file = tmp_path / "schema.json"
    schema_file.write_text(json.dumps(schema))
    done = subprocess.run(
        [sys.executable, str(BASELINE), str(packet / "acord_125.pdf"), str(schema_file)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "PACKETBENCH_DOCUMENT_TYPE": "acord_125"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert not list(Draft202012Validator(schema).iter_errors(answer))
    truth = json.loads((packet / "document_truth_acord_125.json").read_text())["truth"]
    found = [v for v in _leaves(answer) if v is not None]
    assert found and set(found) & set(_leaves(truth))


def _leaves(node: object) -> list[object]:
    if isinstance(node, dict):
        return [leaf for child in node.values() for leaf in _leaves(child)]
    if isinstance(node, list):
        return [leaf for child in node for leaf in _leaves(child)]
    return [node]
