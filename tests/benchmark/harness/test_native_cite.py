"""`extract --cite native`: Anthropic's own document citations, asked in a second request.

The stub answers the strict extraction with the truth, then the citing request (the PDF sent
again with citations enabled, no tool) with each listed value's rendered text cited to the
page of the truth's first location, in the API's `page_location` form, read back through the
real SDK. The record's citations must name those pages, the score must find them right, and a
native run's grounding rates must be over its PDF documents only.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest

from packetbench.benchmark.grounding.native import leaves, question, read
from packetbench.benchmark.harness.stub import StubServer
from packetbench.benchmark.results.query import open_runs
from tests.support.paths import PACKETS
from tests.support.stubs import KEYS, records

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = PACKETS / "N1-000001"


def _cited(text: str, page: int) -> dict[str, Any]:
    return {
        "text": text,
        "citations": [
            {
                "type": "page_location",
                "cited_text": text,
                "start_page_number": page,
                "end_page_number": page + 1,
            }
        ],
    }


def test_leaves_and_question_number_every_non_null_scalar() -> None:
    output = {"a": 1, "b": None, "c": {"d": "x  y"}, "e": [{"f": 2.5}, {"f": None}], "g": []}
    values = leaves(output)
    assert values == [("a", 1), ("c.d", "x  y"), ("e[0].f", 2.5)]
    assert question(values).splitlines() == ["[1] a = 1", "[2] c.d = x y", "[3] e[0].f = 2.5"]


def test_read_gives_each_value_the_first_citation_after_its_marker() -> None:
    values = [("a", 1), ("b", 2), ("c", 3), ("d", 4)]
    blocks = [
        {"text": "[1] "},
        _cited("1", 2),
        _cited("one again", 3),  # a second citation of the same value: the first counts
        {"text": "\n[2] not shown\n[3] "},  # 2 has no citation: uncited
        _cited("3", 9),  # a page the document does not have
        {"text": "\n[4] "},
        {"text": "4", "citations": [{"type": "char_location", "cited_text": "4"}]},
        {"text": "\n[7] "},  # a number nobody asked about
        _cited("?", 1),
    ]
    found = {c.path: c for c in read(blocks, values, pages=5)}
    assert set(found) == {"a", "c"}
    assert (found["a"].page, found["a"].quote, found["a"].problem) == (2, "1", None)
    assert (found["c"].page, found["c"].problem) == (9, "page 9 of 5")


def _first_pages(packet: Path, doc_id: str) -> dict[str, int]:
    fields = json.loads((packet / f"field_truth_{doc_id}.json").read_text())["fields"]
    return {f["path"]: f["locations"][0]["page"] for f in fields if f["locations"]}


@pytest.mark.slow
def test_cite_native_through_the_anthropic_sdk(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    server = stub("anthropic", PACKET, keep_bodies=True)
    run = tmp_path / "run"
    result = run_cli(
        "extract", "--provider", "anthropic", "--model", "stub-model",
        "--base-url", server.base_url, "--packets", str(PACKET), "--out", str(run),
        "--no-cache", "--cite", "native", "--doc-types", "acord_125,sov",
        env={KEYS["anthropic"]: "k" * 20},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert server.rejected == []
    info = json.loads((run / "run.json").read_text())
    assert info["parameters"]["cite"] == "native"
    assert info["citations"]["source"] == "native"
    found = records(run)
    assert set(found) == {f"N1-000001/{d}" for d in ("acord_125", "sov_pdf", "sov_excel")}
    # Two requests per PDF (the extraction, then its citations), one for the workbook.
    assert server.requests["N1-000001/acord_125"] == 2
    assert server.requests["N1-000001/sov_pdf"] == 2
    assert server.requests["N1-000001/sov_excel"] == 1
    second = server.bodies["N1-000001/sov_pdf"][1]
    assert "tools" not in second
    assert second["messages"][0]["content"][0]["citations"] == {"enabled": True}
    assert "citations" not in found["N1-000001/sov_excel"]  # nothing cited natively
    for doc_id in ("acord_125", "sov_pdf"):
        record = found[f"N1-000001/{doc_id}"]
        pages = _first_pages(PACKET, doc_id)
        cited = {c["path"]: c for c in record["citations"]}
        assert cited and set(cited) <= set(pages)
        # every value of the answer (the truth) that the truth locates is cited to its page
        assert {p: c["page"] for p, c in cited.items()} == {p: pages[p] for p in cited} and len(
            cited
        ) == len(pages), doc_id
        assert all(c["quote"] and c["box"] is None for c in cited.values())
        # the record's usage counts both requests
        assert record["usage"]["input_tokens"] > 0

    scored = run_cli("score", str(run), "--packets", str(PACKET))
    assert scored.returncode == 0, scored.stderr
    claims = (
        duckdb.connect()
        .execute(
            "SELECT doc_id, citation, count(*) FROM read_parquet(?) GROUP BY ALL",
            [str(run / "scores" / "claims.parquet")],
        )
        .fetchall()
    )
    verdicts = {(doc, citation): n for doc, citation, n in claims}
    # the stub answers the truth and cites its pages: every PDF claim is right_page
    assert {c for (d, c) in verdicts if d != "sov_excel"} == {"right_page"}
    assert {c for (d, c) in verdicts if d == "sov_excel"} == {None}
    with open_runs([run]) as runs:
        formats = {r["format"] for r in runs.rows("SELECT DISTINCT format FROM grounding_units")}
        rates = {r["metric"]: r for r in runs.rows("SELECT * FROM grounding")}
    assert formats == {"pdf"}  # the workbook is outside a native run's grounding
    pdf_claims = sum(n for (d, _), n in verdicts.items() if d != "sov_excel")
    assert rates["citation_recall"]["num"] == rates["citation_recall"]["den"] == pdf_claims
    assert rates["citation_precision_page"]["num"] == pdf_claims
    assert "citation_precision_box" not in rates


@pytest.mark.parametrize(
    ("provider", "extra", "message"),
    [
        ("openai", [], "has no document citations of its own"),
        ("anthropic", ["--input", "text"], "needs --input native"),
        ("anthropic", ["--batch"], "which a batch cannot do"),
        ("sim", [], "the simulator has no document citations"),
    ],
)
def test_cite_native_refusals(
    provider: str, extra: list[str], message: str, run_cli: Run, tmp_path: Path
) -> None:
    model = [] if provider == "sim" else ["--model", "m"]
    result = run_cli(
        "extract", "--provider", provider, *model, "--packets", str(PACKET),
        "--out", str(tmp_path / "run"), "--cite", "native", *extra,
        env={KEYS.get(provider, "X_KEY"): "k" * 20},
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "run").exists()
