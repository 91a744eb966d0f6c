"""`packetbench import predictions`: a folder of answers made anywhere, as a run that scores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from tests.support.paths import ROOT

Run = Callable[..., subprocess.CompletedProcess[str]]
LAYOUT = ROOT / "docs" / "schemas" / "predictions.schema.json"


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pred") / "packets"
    subprocess.run(
        [sys.executable, "-m", "packetbench", "generate", "--tiers", "N1", "--out", str(root)],
        check=True,
        capture_output=True,
    )
    return root


def _truths(packet: Path) -> dict[str, object]:
    """Each document's truth: what a perfect system answers."""
    return {
        path.name[len("document_truth_") : -len(".json")]: json.loads(path.read_text())["truth"]
        for path in sorted(packet.glob("document_truth_*.json"))
    }


def _folder(root: Path, packet: Path) -> Path:
    """A predictions folder of perfect answers to `packet`."""
    folder = root / "predictions" / packet.name
    folder.mkdir(parents=True)
    for doc_id, truth in _truths(packet).items():
        (folder / f"{doc_id}.json").write_text(json.dumps(truth), encoding="utf-8")
    return folder.parent


def test_answers_are_checked_counted_and_the_run_scores(
    run_cli: Run, packets: Path, tmp_path: Path
) -> None:
    packet = next(packets.glob("N1-*"))
    predictions = _folder(tmp_path, packet)
    documents = len(list((predictions / packet.name).glob("*.json")))
    layout = json.loads(LAYOUT.read_text(encoding="utf-8"))
    as_object = {
        packet.name: {
            p.name: json.loads(p.read_text()) for p in (predictions / packet.name).glob("*.json")
        }
    }
    jsonschema.validate(as_object, layout)  # the documented layout describes this folder
    answers = predictions / packet.name
    (answers / "sov_pdf.json").unlink()  # missing
    (answers / "acord_125.json").write_text('{"no_such_field": 1}')  # schema-invalid
    (answers / "loss_run_pdf.json").write_bytes(b"\xff\xfe{}")  # not UTF-8
    (answers / "notes.txt").write_text("hello")  # extra
    (answers / "acord_999.json").write_text("{}")  # extra: no such document
    (predictions / "N9-000001").mkdir()  # extra: no such packet
    secret = tmp_path / "outside.json"
    secret.write_text(json.dumps(_truths(packet)["sov_excel"]))
    (answers / "sov_excel.json").unlink()
    (answers / "sov_excel.json").symlink_to(secret)  # escapes DIR: never read
    with open(answers / "loss_run_excel.json", "r+b") as huge:  # 17 MiB, sparse
        huge.truncate(17 * 1024 * 1024)
    (answers / "loss_run_csv.json").unlink()
    os.mkfifo(answers / "loss_run_csv.json")  # would block a reader forever
    out = tmp_path / "run"
    done = run_cli(
        "import", "predictions", str(predictions), "--packets", str(packets), "--out", str(out)
    )
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    ok = documents - 6
    assert first.startswith(
        f"imported {documents - 1} of {documents} documents (5 invalid, {ok} ok)"
    )
    assert first.endswith("1 missing, 3 extra, 5 invalid")
    lines = set(done.stdout.splitlines())
    assert f"missing: {packet.name}/sov_pdf" in lines
    assert {f"extra: {packet.name}/notes.txt", f"extra: {packet.name}/acord_999.json"} <= lines
    assert "extra: N9-000001/" in lines
    assert f"not read: {packet.name}/sov_excel.json: a symlink, not read" in lines
    assert f"not read: {packet.name}/loss_run_csv.json: a FIFO, not read" in lines
    assert any(
        line.startswith(f"invalid: {packet.name}/acord_125: schema-invalid") for line in lines
    )
    assert f"invalid: {packet.name}/loss_run_pdf: not UTF-8 text (byte 0)" in lines
    assert (
        f"invalid: {packet.name}/loss_run_excel: 17,825,792 bytes, more than an answer may "
        "be (16,777,216)" in lines
    )
    record = json.loads((out / "extractions" / packet.name / "sov_excel.json").read_text())
    assert record["status"] == "invalid" and record["output"] is None  # the secret stayed out
    scored = run_cli("score", str(out), "--packets", str(packets))
    assert scored.returncode == 0, scored.stderr
    assert f"{ok} documents scored" in scored.stdout
    assert "excluded: 5 invalid, 1 missing" in scored.stdout


def test_a_folder_that_is_no_predictions_is_one_line(
    run_cli: Run, packets: Path, tmp_path: Path
) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "empty")
    for folder, needle in (
        (tmp_path / "empty", "holds no answer to a document of"),
        (tmp_path / "absent", "not a folder of predictions"),
        (tmp_path / "link", "not a folder of predictions"),
    ):
        done = run_cli(
            "import", "predictions", str(folder), "--packets", str(packets), "--out",
            str(tmp_path / "run"),
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0] and str(folder) in lines[0]
    assert not (tmp_path / "run").exists()
