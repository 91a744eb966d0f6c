"""Ids read from files: the grammar, and paths that must stay inside their folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from packetbench.benchmark.records import ExtractionRecord, Usage, write_record
from packetbench.core import ids


@pytest.mark.parametrize(
    "value", ["N1-000001", "acord_125", "sov_pdf.pdf", "loss_run_excel_earlier", "7", "a.b-c_d"]
)
def test_ids_of_the_grammar_pass(value: str) -> None:
    assert ids.check(value, "doc_id", "f.json") == value


@pytest.mark.parametrize(
    "value",
    [
        "../../ESCAPED",
        "..",
        "a..b",
        "/etc/passwd",
        "a/b",
        "a\\b",
        ".hidden",
        "-flag",
        "",
        "a b",
        "x\x00y",
        "é",
        "a" * (ids.MAX_LENGTH + 1),
        None,
        7,
        ["a"],
    ],
)
def test_anything_else_is_refused_naming_the_file(value: object) -> None:
    with pytest.raises(ids.UnsafeName, match=r"^packets/p/packet_truth.json: doc_id .* is not"):
        ids.check(value, "doc_id", "packets/p/packet_truth.json")


def test_a_schema_is_a_name_or_namespace_slash_name() -> None:
    assert ids.check_schema("sov", "schema", "f") == "sov"
    assert ids.check_schema("nightmare/acord_125", "schema", "f") == "nightmare/acord_125"
    for bad in ("../acord_125", "a/b/c", "/sov", "nightmare/..", "nightmare/"):
        with pytest.raises(ids.UnsafeName):
            ids.check_schema(bad, "schema", "f")


def test_inside_follows_symlinks_out_of_the_folder(tmp_path: Path) -> None:
    run = tmp_path / "run"
    (run / "extractions").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    assert ids.inside(run, "extractions", "N1-000001", "a.json") == (
        run / "extractions" / "N1-000001" / "a.json"
    )
    (run / "extractions" / "N1-000001").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ids.UnsafeName, match="outside"):
        ids.inside(run, "extractions", "N1-000001", "a.json")


def _record(packet_id: str, doc_id: str) -> ExtractionRecord:
    return ExtractionRecord(
        packet_id=packet_id,
        doc_id=doc_id,
        doc_type="sov",
        status="ok",
        output={},
        raw_text=None,
        attempts=1,
        latency_s=0.0,
        usage=Usage(),
        finish_reason="stop",
        error=None,
    )


def test_a_record_is_never_written_outside_its_run(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    write_record(run, _record("N1-000001", "sov_pdf"))
    assert (run / "extractions" / "N1-000001" / "sov_pdf.json").is_file()
    for packet_id, doc_id in (("../../ESCAPED", "sov_pdf"), ("N1-000001", "../../../x")):
        with pytest.raises(ids.UnsafeName):
            write_record(run, _record(packet_id, doc_id))
    (tmp_path / "elsewhere").mkdir()
    (run / "extractions" / "N1-000002").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(ids.UnsafeName, match="outside"):
        write_record(run, _record("N1-000002", "sov_pdf"))
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["sov_pdf.json"]
