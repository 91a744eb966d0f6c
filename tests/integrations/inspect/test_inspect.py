"""`inspect eval packetbench/extract` against the OpenAI stub through inspect_ai's own openai
provider, its log turned into a run folder by `packetbench import inspect`, and that run
scored against the same answers extracted by `packetbench extract --provider openai`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from packetbench.benchmark.harness.stub import Faults, StubServer
from tests.support.errors import one_line_error as _error
from tests.support.packets import write_packets
from tests.support.stubs import records

Run = Callable[..., subprocess.CompletedProcess[str]]
INSPECT = str(Path(sys.executable).with_name("inspect"))
# Answer faults, the same for both runs (each document is asked once): an answer that is not
# JSON, a refusal, one cut at the output-token cap, one wrapped in an envelope.
FAULTS = {
    "N1-000001/sov_pdf": ["malformed"],
    "N1-000001/acord_125": ["refusal"],
    "N1-000002/loss_run_pdf": ["truncated"],
    "N1-000002/acord_140": ["envelope"],
}
KEY = "sk-inspect-test-key"
# Columns of the results database's documents table that tell the two runs apart without
# being scores: which run, how long a request took, the stub's count of request tokens (a
# quarter of the request's bytes: inspect_ai's request is a few bytes longer), and the words
# of a stop reason (inspect_ai records its own, "max_tokens", where the API said "length").
RECORD_DETAILS = ("run_id", "latency_s", "input_tokens", "cost_usd", "finish_reason", "reason")


@pytest.fixture(scope="module")
def two_packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two N1 packets (seeds 1 and 2)."""
    return write_packets(tmp_path_factory.mktemp("inspect") / "packets", "N1", (1, 2))


@pytest.fixture
def stubs(two_packets: Path) -> Iterator[Callable[[], StubServer]]:
    started: list[StubServer] = []

    def make() -> StubServer:
        server = StubServer(
            "openai",
            two_packets,
            Faults(script=FAULTS),
            modes=("images", "text"),
            keep_bodies=True,
            expect_key=KEY,
        ).start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


def _inspect_eval(stub: StubServer, packets: Path, logs: Path, *extra: str) -> Path:
    env = {
        **os.environ,
        "OPENAI_BASE_URL": stub.base_url,
        "OPENAI_API_KEY": KEY,
        "INSPECT_LOG_DIR": str(logs),
    }
    result = subprocess.run(
        [
            INSPECT,
            "eval",
            "packetbench/extract",
            "-T",
            f"packets={packets}",
            "--model",
            "openai/stub-model",
            "-M",
            "responses_api=false",
            "--display",
            "none",
            *extra,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (log,) = logs.glob("*.eval")
    return log


def _results(run: Path) -> list[tuple[Any, ...]]:
    """Every document's row of the run's results database, in document order."""
    with duckdb.connect(str(run / "results.duckdb"), read_only=True) as db:
        columns = [
            c
            for (c,) in db.execute(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_name = 'documents' ORDER BY ordinal_position"
            ).fetchall()
            if c not in RECORD_DETAILS
        ]
        return db.execute(
            f"SELECT {', '.join(columns)} FROM documents ORDER BY packet_id, doc_id"
        ).fetchall()


def _sent(stub: StubServer) -> dict[str, tuple[Any, Any]]:
    """Document -> (messages, strict schema) of the one request the stub got for it."""
    found = {}
    for document, bodies in stub.bodies.items():
        (body,) = bodies
        response_format = body["response_format"]
        assert response_format["json_schema"]["strict"] is True
        # inspect_ai sends the system prompt in the role OpenAI's newer models name
        # "developer"; the words are what is compared
        messages = [
            {**m, "role": "system" if m["role"] == "developer" else m["role"]}
            for m in body["messages"]
        ]
        found[document] = (messages, response_format["json_schema"]["schema"])
    return found


@pytest.mark.slow
def test_inspect_run_scores_as_packetbench_extract(
    two_packets: Path, stubs: Callable[[], StubServer], run_cli: Run, tmp_path: Path
) -> None:
    through_inspect, direct = stubs(), stubs()
    log = _inspect_eval(through_inspect, two_packets, tmp_path / "logs", "-T", "input=images")
    imported, extracted = tmp_path / "imported", tmp_path / "extracted"
    result = run_cli(
        "import", "inspect", str(log), "--packets", str(two_packets), "--out", str(imported)
    )
    assert result.returncode == 0, result.stderr
    assert "imported 50 documents of openai/stub-model" in result.stdout
    again = ["import", "inspect", str(log), "--packets", str(two_packets), "--out", str(imported)]
    _error(run_cli(*again), str(imported), "--force")
    one = tmp_path / "one-packet"
    shutil.copytree(two_packets / "N1-000001", one / "N1-000001")
    _error(
        run_cli(
            "import",
            "inspect",
            str(log),
            "--packets",
            str(one),
            "--out",
            str(tmp_path / "elsewhere"),
        ),
        "N1-000002",
        "lacks",
    )
    assert not (tmp_path / "elsewhere").exists()
    result = run_cli(
        "extract",
        "--provider",
        "openai",
        "--model",
        "stub-model",
        "--base-url",
        direct.base_url,
        "--input",
        "images",
        "--packets",
        str(two_packets),
        "--out",
        str(extracted),
        "--no-cache",
        "--backoff",
        "0.01",
        env={"OPENAI_API_KEY": KEY},
    )
    assert result.returncode == 0, result.stderr

    # The same questions: every document asked once, with the same messages (system prompt,
    # instructions, page images) and the same strict schema.
    asked, sent = _sent(through_inspect), _sent(direct)
    assert len(asked) == 50 and asked.keys() == sent.keys()
    for document, (messages, schema) in sent.items():
        assert asked[document][0] == messages, document
        # inspect_ai's JSONSchema keeps every keyword of ours but the root's title (the
        # schema's name, sent as json_schema.name by both)
        assert asked[document][1] == {k: v for k, v in schema.items() if k != "title"}

    # The same records, status by status and output by output.
    ours, theirs = records(extracted), records(imported)
    assert ours.keys() == theirs.keys()
    assert {d: r["status"] for d, r in theirs.items() if r["status"] != "ok"} == {
        "N1-000001/sov_pdf": "invalid",
        "N1-000001/acord_125": "refused",
        "N1-000002/loss_run_pdf": "invalid",
    }
    for document, record in ours.items():
        assert theirs[document]["status"] == record["status"], document
        assert theirs[document]["output"] == record["output"], document
        assert theirs[document]["usage"]["input_tokens"] > 0

    # Scored the same: the score files byte for byte, the results database row for row.
    for run in (imported, extracted):
        scored = run_cli("score", str(run), "--packets", str(two_packets))
        assert scored.returncode == 0, scored.stderr
    for name in ("hallucination.json", "consistency.json"):
        assert (imported / "scores" / name).read_bytes() == (
            extracted / "scores" / name
        ).read_bytes(), name
    # field_breakdown.json too, but for the words of the truncated answer's reason: the
    # stop reason inspect_ai records is its own ("max_tokens"), not the API's ("length").
    breakdowns = [
        json.loads((run / "scores" / "field_breakdown.json").read_text())
        for run in (imported, extracted)
    ]
    for breakdown in breakdowns:
        for entry in breakdown["excluded"]["error"]:
            entry["error"] = entry["error"].replace("max_tokens", "length")
    assert breakdowns[0] == breakdowns[1]
    assert _results(imported) == _results(extracted)
    with duckdb.connect(str(imported / "results.duckdb"), read_only=True) as db:
        statuses = dict(db.execute("SELECT status, count(*) FROM documents GROUP BY 1").fetchall())
    assert statuses == {"scored": 47, "error": 3}  # the envelope unwrapped, as extract does

    # The log's own metric is our aggregation of the same counts.
    from inspect_ai.log import read_eval_log

    evaluation = read_eval_log(str(log))
    assert evaluation.results is not None
    (scorer,) = evaluation.results.scores
    metrics = {name: m.value for name, m in scorer.metrics.items()}
    hallucination = json.loads((extracted / "scores" / "hallucination.json").read_text())
    rates = hallucination["overall"]
    fields = json.loads((extracted / "scores" / "field_breakdown.json").read_text())["overall"]
    assert metrics["documents_scored"] == 47
    for kind in ("numbers", "strings"):
        assert metrics[f"halluc_{kind}"] == rates["packet"][kind]["rate_micro"]
        assert metrics[f"halluc_{kind}_macro"] == rates["packet"][kind]["rate_macro"]
        assert metrics[f"halluc_{kind}_document"] == rates["document"][kind]["rate_micro"]
    verdicts = hallucination["verdicts"]["overall"]
    assert metrics["faithfulness"] == round(verdicts["supported"] / sum(verdicts.values()), 6)
    assert metrics["recall"] == round(fields["correct"] / fields["gt_fields"], 6)
    # Each sample's metadata carries its field outcomes, claim verdicts and flags.
    assert evaluation.samples is not None
    by_id = {s.id: s for s in evaluation.samples}
    claims = 0
    for sample in evaluation.samples:
        (score,) = (sample.scores or {}).values()
        claims += len(score.metadata.get("claims", [])) if score.metadata else 0
    assert claims == sum(verdicts.values())
    sov = by_id["N1-000001/sov_excel"].scores
    assert sov is not None
    meta = next(iter(sov.values())).metadata
    assert meta is not None and meta["status"] == "ok"
    assert {c["verdict"] for c in meta["claims"]} == {"supported"}
    assert {f["outcome"] for f in meta["fields"]} <= {"correct", "abstained"}
    assert all(c["hallucinated"] in (False, None) for c in meta["claims"])
    excluded = next(iter((by_id["N1-000001/sov_pdf"].scores or {}).values()))
    assert excluded.metadata is not None and excluded.metadata["status"] == "invalid"

    # And the run is a run: compare and report read it beside the extracted one.
    compared = run_cli("compare", str(imported), str(extracted))
    assert compared.returncode == 0, compared.stderr
    reported = run_cli("report", str(imported), "--out", str(tmp_path / "report"))
    assert reported.returncode == 0, reported.stderr
    assert (tmp_path / "report" / "report.html").is_file()


def test_the_metric_aggregates_as_score_does(
    two_packets: Path, run_cli: Run, tmp_path: Path
) -> None:
    """The scorer's per-document counts, pooled by the metric, are the rates `score` writes,
    on a simulated run that gets values wrong, invents and omits them (the stub's answers are
    all correct, so its rates cannot tell a wrong pooling from a right one)."""
    from packetbench.benchmark.records import read_record, record_path
    from packetbench.integrations.inspect.scores import rates, score
    from packetbench.truth.packets import find_packets

    run = tmp_path / "sim"
    made = run_cli(
        "extract",
        "--provider",
        "sim",
        "--profile",
        "sloppy",
        "--seed",
        "5",
        "--packets",
        str(two_packets),
        "--out",
        str(run),
    )
    assert made.returncode == 0, made.stderr
    assert run_cli("score", str(run), "--packets", str(two_packets)).returncode == 0
    values = []
    for packet in find_packets(two_packets):
        for doc in packet.documents:
            path = record_path(run, packet.packet_id, doc.doc_id)
            if not path.is_file():
                continue  # a document the simulator dropped: no sample either
            value, about = score(packet, doc, read_record(path))
            values.append(value)
            if value["scored"]:
                assert len(about["claims"]) == value["claims"]
                assert (
                    sum(c["hallucinated"] is True for c in about["claims"])
                    == value["numbers_hallucinated_packet"] + value["strings_hallucinated_packet"]
                )
    found = rates(values)
    hallucination = json.loads((run / "scores" / "hallucination.json").read_text())
    breakdown = json.loads((run / "scores" / "field_breakdown.json").read_text())
    fields, overall = breakdown["overall"], hallucination["overall"]
    assert found["documents_scored"] == breakdown["documents_scored"]
    assert overall["packet"]["numbers"]["hallucinated"] > 0  # something to pool
    assert overall["packet"]["strings"]["hallucinated"] > 0
    for kind in ("numbers", "strings"):
        for where, suffix in (("packet", ""), ("document", "_document")):
            assert found[f"halluc_{kind}{suffix}"] == overall[where][kind]["rate_micro"]
            assert found[f"halluc_{kind}{suffix}_macro"] == overall[where][kind]["rate_macro"]
    verdicts = hallucination["verdicts"]["overall"]
    assert found["faithfulness"] == round(verdicts["supported"] / sum(verdicts.values()), 6)
    assert (found["faithfulness"] or 1) < 1
    assert found["recall"] == round(fields["correct"] / fields["gt_fields"], 6)
    assert found["over_refusal"] == round(fields["omitted"] / fields["gt_fields"], 6)


@pytest.mark.slow
def test_a_bad_log_is_one_line_and_exit_2(two_packets: Path, run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "run"
    garbage = tmp_path / "broken.eval"
    garbage.write_bytes(b"PK\x03\x04 not a zip at all")
    _error(
        run_cli(
            "import", "inspect", str(garbage), "--packets", str(two_packets), "--out", str(out)
        ),
        str(garbage),
        "not a readable inspect log",
    )
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"version": 2, "status": "success"}))
    _error(
        run_cli("import", "inspect", str(other), "--packets", str(two_packets), "--out", str(out)),
        str(other),
    )
    _error(
        run_cli(
            "import",
            "inspect",
            str(tmp_path / "absent.eval"),
            "--packets",
            str(two_packets),
            "--out",
            str(out),
        ),
        "absent.eval: missing",
    )
    assert not out.exists()


@pytest.mark.slow
def test_inspect_batch_mode_through_the_stub(
    two_packets: Path, stubs: Callable[[], StubServer], run_cli: Run, tmp_path: Path
) -> None:
    """inspect_ai's own batch mode (`--batch`) drives the stub's Batch API (files, batches,
    results); the converted run has the same records as an ordinary request each."""
    server = stubs()
    log = _inspect_eval(
        server, two_packets, tmp_path / "logs", "-T", "input=text", "--batch", "100"
    )
    assert server.batches_created >= 1
    run = tmp_path / "batched"
    result = run_cli(
        "import", "inspect", str(log), "--packets", str(two_packets), "--out", str(run)
    )
    assert result.returncode == 0, result.stderr
    found = records(run)
    assert len(found) == 50
    assert {d: r["status"] for d, r in found.items() if r["status"] != "ok"} == {
        "N1-000001/sov_pdf": "invalid",
        "N1-000001/acord_125": "refused",
        "N1-000002/loss_run_pdf": "invalid",
    }
    scored = run_cli("score", str(run), "--packets", str(two_packets))
    assert scored.returncode == 0, scored.stderr
    assert "47 documents scored" in scored.stdout
