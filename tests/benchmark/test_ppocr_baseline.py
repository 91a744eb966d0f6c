"""examples/ppocr_baseline.py, the PP-OCR baseline: a page it sees answered into its schema, and
what it cannot read (a workbook, a type it has no rules for) refused in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from jsonschema import Draft202012Validator

from packetbench.generator.schema_files import all_schemas
from tests.support.paths import PACKETS, ROOT

EXAMPLES = ROOT / "examples"


def _ask(program: str, file: Path, schema: Path, doc_type: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / program), str(file), str(schema)],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "PACKETBENCH_DOCUMENT_TYPE": doc_type},
    )  # fmt: skip


@pytest.mark.slow  # PP-OCR reads one page in about 10 s of one core
def test_the_ppocr_baseline_reads_a_one_page_acord_125(tmp_path: Path) -> None:
    """The first page of the canonical N1 ACORD 125, alone: the answer fits the schema, and
    values the page prints (the agency's and carrier's block) come back as printed."""
    packet = PACKETS / "N1-000001"
    page = pdfium.PdfDocument.new()
    page.import_pages(pdfium.PdfDocument(packet / "acord_125.pdf"), [0])
    page.save(tmp_path / "page1.pdf")
    schema = all_schemas()["acord_125"]
    (tmp_path / "schema.json").write_text(json.dumps(schema))
    done = _ask("ppocr_baseline.py", tmp_path / "page1.pdf", tmp_path / "schema.json", "acord_125")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert not list(Draft202012Validator(schema).iter_errors(answer))
    truth = json.loads((packet / "document_truth_acord_125.json").read_text())["truth"]
    read = {
        (block, key): value
        for block in ("agency", "carrier")
        for key, value in answer[block].items()
        if value is not None and not isinstance(value, dict)
    }
    right = [k for k, v in read.items() if truth[k[0]][k[1]] == v]
    assert len(right) >= 5, (read, truth["agency"], truth["carrier"])


@pytest.mark.parametrize("program", ["ppocr_baseline.py", "textlayer_baseline.py"])
def test_a_baseline_refuses_what_it_cannot_read_in_one_line(program: str, tmp_path: Path) -> None:
    """A workbook (no page to see) and a type without rules: exit 2, one line, no answer."""
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(all_schemas()["sov"]))
    workbook = next(PACKETS.glob("*/sov*.xlsx"), None) or next(PACKETS.glob("*/*.xlsx"))
    for file, doc_type in (
        (workbook, "sov"),
        (PACKETS / "N1-000001" / "acord_125.pdf", "dec_page"),
    ):
        done = _ask(program, file, schema, doc_type)
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    version = subprocess.run(
        [sys.executable, str(EXAMPLES / program), "--version"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert version.stdout.startswith(program.split("_")[0] + "-baseline 1.")
