"""`extract --batch`: the real SDKs' batch calls against the stubs' batch endpoints.

Every document ends ok or explained; a failed item goes again as an ordinary request; an
expired batch is reported per document; a run killed while it waits is resumed by polling the
batches it submitted, never creating one twice, and ends with the records an uninterrupted
batch run writes, byte for byte.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.config import HarnessOptions
from packetbench.benchmark.extract import extract
from packetbench.benchmark.harness.batch_log import NAME, custom_id
from packetbench.benchmark.harness.session import dry_run
from packetbench.benchmark.harness.stub import Faults, StubServer
from packetbench.benchmark.providers import provider_class
from packetbench.benchmark.providers.api import ApiProvider, ProviderStopped
from packetbench.benchmark.report.render import write_report
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from packetbench.core.errors import BadInput, UsageError
from packetbench.truth.packets import find_packets
from tests.support.paths import cli_path
from tests.support.stubs import APIS, KEYS, documents, records, truth

Run = Callable[..., subprocess.CompletedProcess[str]]
SIZE = 10  # requests per batch: one N1 packet (25 documents) makes three batches


@pytest.fixture
def packets(three_packets: Path, tmp_path: Path) -> Path:
    """One N1 packet (25 documents): each run here stays a second or two."""
    folder = tmp_path / "packets"
    shutil.copytree(three_packets / "N1-000001", folder / "N1-000001")
    return folder


def _batch_run(
    api: str, server: StubServer, packets: Path, run: Path, *extra: str, **options: object
) -> object:
    provider = provider_class(api).from_options(
        {"model": "stub-model", "base_url": server.base_url}
    )
    return extract(
        provider,
        packets,
        run,
        options=HarnessOptions(
            batch=True,
            poll_interval_s=0.05,
            batch_size=SIZE,
            use_cache=False,
            backoff_base_s=0.01,
            **options,  # type: ignore[arg-type]
        ),
    )


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in KEYS.values():
        monkeypatch.setenv(name, "batch-test-key")


def _pricing(folder: Path) -> Path:
    """A price table for the stub model (USD per million tokens)."""
    table = folder / "pricing.json"
    table.write_text(
        json.dumps({"models": {"stub-model": {"input": 2.0, "output": 8.0, "reasoning": 8.0}}})
    )
    return table


# One API in the fast tier; the slow tier tries the others.
@pytest.mark.parametrize(
    "api", [pytest.param(a, marks=() if a == "openai" else pytest.mark.slow) for a in APIS]
)
def test_a_batch_run_answers_every_document_from_the_batches(
    api: str,
    packets: Path,
    stub: Callable[..., StubServer],
    tmp_path: Path,
    keys: None,
) -> None:
    server = stub(api, packets, batch_delay_s=0.2)
    run = tmp_path / "run"
    _batch_run(api, server, packets, run)
    total = documents(packets)
    found = records(run)
    assert len(found) == total
    for name, record in found.items():
        assert record["status"] == "ok", (name, record["error"])
        assert record["output"] == truth(packets, name)
        assert (record["attempts"], record["latency_s"]) == (1, 0.0)
    chunks = math.ceil(total / SIZE)
    assert server.batches_created == chunks
    assert sum(server.requests.values()) == total  # one item per document, nothing else
    log = json.loads((run / NAME).read_text())["batches"]
    assert [entry["state"] for entry in log] == ["collected"] * chunks
    assert sorted(i["doc_id"] for e in log for i in e["items"]) == sorted(
        name.split("/")[1] for name in found
    )
    info = json.loads((run / "run.json").read_text())
    assert info["batch"]["log"] == NAME and info["status"] == "complete"


def _hostile_output(lines: list[dict[str, Any]]) -> list[str]:
    """A provider's output file gone wrong: the first six items' lines of the first batch's
    output damaged, each its way (the other batches' outputs as they were)."""
    damaged = [dict(line) for line in lines]
    written = [json.dumps(line) for line in damaged]
    if _DAMAGED or len(lines) < 6:
        return written
    _DAMAGED.append(True)
    written[0] = written[0][: len(written[0]) // 2]  # not JSON (its item cannot be known)
    written[1] = json.dumps([damaged[1]])  # a JSON array
    damaged[2]["response"] = {**damaged[2]["response"], "status_code": "abc"}
    damaged[3]["response"] = {**damaged[3]["response"], "body": {"not": "a completion"}}
    damaged[4]["response"] = [damaged[4]["response"]]  # a list
    damaged[5]["response"], damaged[5]["error"] = None, "a string"
    written[2:6] = [json.dumps(line) for line in damaged[2:6]]
    return written


_DAMAGED: list[bool] = []  # whether _hostile_output damaged an output already


def test_a_malformed_output_file_is_an_error_record_per_item(
    packets: Path, stub: Callable[..., StubServer], tmp_path: Path, keys: None
) -> None:
    """Each line of a batch's output file is untrusted: a damaged line ends its document
    with an error record (or asks it again, as any failed item), never the run."""
    server = stub("openai", packets)
    assert server.batch_routes is not None
    _DAMAGED.clear()
    server.batch_routes.rewrite = _hostile_output
    run = tmp_path / "run"
    _batch_run("openai", server, packets, run)
    found = records(run)
    assert len(found) == documents(packets)
    malformed = [r for r in found.values() if "malformed" in (r["error"] or "")]
    assert len(malformed) == 3, [r["error"] for r in found.values()]  # abc, no completion, list
    assert all(r["status"] == "error" for r in malformed)
    # the array and the half line name no item: their documents were not processed
    unprocessed = [
        r for r in found.values() if "before this document was processed" in (r["error"] or "")
    ]
    assert len(unprocessed) == 2, [r["error"] for r in found.values()]
    # an item whose error is a string failed, as any failed item: asked again, answered
    assert sum(r["status"] == "ok" for r in found.values()) == len(found) - 5


def test_batch_prices_are_half_and_the_report_says_so(
    packets: Path, stub: Callable[..., StubServer], tmp_path: Path, keys: None
) -> None:
    table = _pricing(tmp_path)
    server = stub("openai", packets)
    run = tmp_path / "run"
    _batch_run("openai", server, packets, run, pricing=table)
    info = json.loads((run / "run.json").read_text())
    assert info["pricing"]["usd_per_million"] == {"input": 1.0, "output": 4.0, "reasoning": 4.0}
    assert "batch" in info["pricing"]["batch"]
    for record in records(run).values():
        usage = record["usage"]
        full = (usage["input_tokens"] * 2.0 + usage["output_tokens"] * 8.0) / 1e6
        assert usage["cost_usd"] == round(full / 2, 6) > 0
    # The report's cost says so.
    score_run(run, packets)
    load_run(run, packets)
    write_report([run], tmp_path / "report")
    report = (tmp_path / "report" / "report.md").read_text()
    assert " (batch prices) |" in report and "half the per-token list prices" in report
    assert "(batch prices)" in (tmp_path / "report" / "report.html").read_text()


@pytest.mark.parametrize("api", APIS)
def test_failed_items_go_again_and_an_expired_batch_is_reported_per_document(
    api: str,
    packets: Path,
    stub: Callable[..., StubServer],
    tmp_path: Path,
    keys: None,
) -> None:
    retried, broken = "N1-000001/acord_125", "N1-000001/sov_pdf"
    faults = Faults(script={retried: ["server_500"], broken: ["malformed"]})
    server = stub(api, packets, faults, expire_batches=(2,))
    run = tmp_path / "run"
    _batch_run(api, server, packets, run)
    found = records(run)
    assert len(found) == documents(packets)  # nothing silently dropped
    log = json.loads((run / NAME).read_text())["batches"]
    expired = {f"{i['packet_id']}/{i['doc_id']}" for i in log[1]["items"]}
    assert expired and log[1]["provider_state"] and log[1]["state"] == "collected"
    assert not {retried, broken} & expired
    for name, record in found.items():
        if name in expired:
            assert record["status"] == "error"
            assert "expired" in record["error"] and "--retry-failed" in record["error"]
        elif name == retried:  # a 500 in the batch, then an ordinary request
            assert (record["status"], record["attempts"]) == ("ok", 2)
        elif name == broken:
            assert record["status"] == "invalid"
        else:
            assert record["status"] == "ok", (name, record["error"])
    assert server.requests[retried] == 2
    # The expired documents, and the invalid one, are requested again: in new batches.
    created = server.batches_created
    _batch_run(api, server, packets, run, resume=True, retry_failed=True)
    assert server.batches_created == created + math.ceil((len(expired) + 1) / SIZE)
    assert all(r["status"] == "ok" for r in records(run).values())


def _args(server: StubServer, packets: Path, run: Path, *extra: str) -> list[str]:
    return [
        "extract",
        "--provider",
        server.api.name,
        "--model",
        "stub-model",
        "--base-url",
        server.base_url,
        "--packets",
        str(packets),
        "--out",
        str(run),
        "--no-cache",
        "--batch",
        "--batch-size",
        str(SIZE),
        "--poll-interval",
        "0.05",
        *extra,
    ]


@pytest.mark.e2e
def test_kill_9_while_waiting_then_resume_polls_the_same_batches(
    packets: Path, stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    env = {**os.environ, "ANTHROPIC_API_KEY": "batch-test-key"}
    server = stub("anthropic", packets, batch_delay_s=2.0)
    run = tmp_path / "killed"
    chunks = math.ceil(documents(packets) / SIZE)
    process = subprocess.Popen(
        [cli_path(), *_args(server, packets, run)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while True:  # every batch submitted and recorded: the run now only waits
        assert process.poll() is None, "the run ended before it was killed"
        assert time.monotonic() < deadline, "the batches were never all submitted"
        try:
            log = json.loads((run / NAME).read_text())["batches"]
        except (OSError, ValueError):
            log = []
        if len(log) == chunks and all(e["state"] == "submitted" for e in log):
            break
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait(10)
    assert process.returncode == -signal.SIGKILL
    assert server.batches_created == chunks
    assert not records(run)  # nothing answered yet
    resumed = run_cli(*_args(server, packets, run, "--resume"), env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert server.batches_created == chunks  # polled, not created again
    assert f"batches: {chunks} submitted, 0 in progress, {chunks} done" in resumed.stderr
    found = records(run)
    assert len(found) == documents(packets)
    assert all(r["status"] == "ok" for r in found.values())
    # The same run, never interrupted: the same records, byte for byte.
    whole = tmp_path / "whole"
    done = run_cli(*_args(server, packets, whole), env=env)
    assert done.returncode == 0, done.stderr
    assert server.batches_created == 2 * chunks
    names = sorted(p.relative_to(whole) for p in whole.glob("extractions/*/*.json"))
    assert names == sorted(p.relative_to(run) for p in run.glob("extractions/*/*.json"))
    for name in names:
        assert (run / name).read_bytes() == (whole / name).read_bytes(), name


def test_max_cost_at_batch_prices_leaves_the_rest_for_resume(
    packets: Path, stub: Callable[..., StubServer], tmp_path: Path, keys: None
) -> None:
    table = _pricing(tmp_path)
    server = stub("openai", packets)
    run = tmp_path / "run"
    summary = _batch_run("openai", server, packets, run, pricing=table, max_cost_usd=0.05)
    total = documents(packets)
    sent = len(records(run))
    assert summary.stopped == "max-cost"  # type: ignore[attr-defined]
    assert 0 < sent < total and summary.not_started == total - sent  # type: ignore[attr-defined]
    assert sum(server.requests.values()) == sent  # the rest were never in a batch
    spent = sum(r["usage"]["cost_usd"] for r in records(run).values())
    assert spent <= 0.05 * 1.5  # estimates, not an exact cap, but at half the list price
    _batch_run("openai", server, packets, run, pricing=table, resume=True)
    assert len(records(run)) == total


def test_a_chunk_killed_before_its_id_was_known_is_submitted_again(
    packets: Path, stub: Callable[..., StubServer], tmp_path: Path, keys: None
) -> None:
    server = stub("anthropic", packets)
    run = tmp_path / "run"
    _batch_run("anthropic", server, packets, run)
    # As a kill between writing the chunk and learning its batch id leaves it.
    log = json.loads((run / NAME).read_text())
    last = log["batches"][-1]
    last.update(batch_id=None, state="submitting", provider_state=None)
    (run / NAME).write_text(json.dumps(log))
    for item in last["items"]:
        (run / "extractions" / item["packet_id"] / f"{item['doc_id']}.json").unlink()
    created = server.batches_created
    # Without --batch the batches in flight would be forgotten: refused, nothing changed.
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    provider = provider_class("anthropic").from_options(
        {"model": "stub-model", "base_url": server.base_url}
    )
    with pytest.raises(UsageError, match="continue it with --batch"):
        extract(provider, packets, run, options=HarnessOptions(resume=True, use_cache=False))
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before
    _batch_run("anthropic", server, packets, run, resume=True)
    assert server.batches_created == created + 1
    assert len(records(run)) == documents(packets)
    states = [e["state"] for e in json.loads((run / NAME).read_text())["batches"]]
    assert states[-2:] == ["refused", "collected"]


HOSTILE = (
    ("batch_id", "../../etc/passwd", "malformed batch id"),
    ("doc_id", "../../outside", "not a document of this run"),
    ("custom_id", "pb-../x", "malformed custom id"),
)


def test_a_hostile_batch_log_is_refused_and_changes_nothing(
    packets: Path,
    stub: Callable[..., StubServer],
    run_cli: Run,
    tmp_path: Path,
    keys: None,
) -> None:
    server = stub("openai", packets)
    base = tmp_path / "base"
    _batch_run("openai", server, packets, base)
    (base / "extractions" / "N1-000001" / "sov_pdf.json").unlink()
    for number, (where, value, needle) in enumerate(HOSTILE):
        run = tmp_path / f"run{number}"
        shutil.copytree(base, run)
        # The log of a run stopped while its batch ran, then damaged (or planted).
        item = {
            "custom_id": custom_id("N1-000001", "sov_pdf"),
            "packet_id": "N1-000001",
            "doc_id": "sov_pdf",
            "cache": None,
        }
        entry = {"chunk": 1, "batch_id": "batch_x", "state": "submitted", "items": [item]}
        (entry if where == "batch_id" else item)[where] = value
        (run / NAME).write_text(json.dumps({"batches": [entry]}))
        before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
        if number == 0:  # through the command: one line naming the file, exit 2
            resumed = run_cli(
                *_args(server, packets, run, "--resume"),
                env={"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"},
            )
            assert resumed.returncode == 2, resumed.stderr
            lines = resumed.stderr.strip().splitlines()
            assert len(lines) == 1 and str(run / NAME) in lines[0] and needle in lines[0]
        else:
            with pytest.raises(BadInput, match=re.escape(needle)):
                _batch_run("openai", server, packets, run, resume=True)
        assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before


@pytest.mark.slow
def test_a_batch_log_that_cannot_be_read_is_refused_not_paid_again(
    packets: Path,
    stub: Callable[..., StubServer],
    run_cli: Run,
    tmp_path: Path,
    keys: None,
) -> None:
    """batches.json replaced by a FIFO, a folder or a link to nowhere: `extract --resume
    --batch` refuses with one line instead of taking it for "no batches" and submitting
    (and paying for) the documents again."""
    server = stub("openai", packets)
    base = tmp_path / "base"
    _batch_run("openai", server, packets, base)
    (base / "extractions" / "N1-000001" / "sov_pdf.json").unlink()
    created = server.batches_created
    for label, damage in (
        ("a FIFO", os.mkfifo),
        ("a folder", os.mkdir),
        ("a link to nowhere", lambda path: path.symlink_to("nowhere.json")),
    ):
        run = tmp_path / label.replace(" ", "-")
        shutil.copytree(base, run)
        (run / NAME).unlink()
        damage(run / NAME)
        before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
        resumed = run_cli(
            *_args(server, packets, run, "--resume"),
            env={"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"},
            timeout=60,
        )
        assert resumed.returncode == 2, (label, resumed.stderr)
        lines = resumed.stderr.strip().splitlines()
        assert len(lines) == 1 and str(run / NAME) in lines[0], (label, lines)
        assert server.batches_created == created, label
        assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before


def test_a_dry_run_estimates_at_batch_prices(packets: Path, tmp_path: Path, keys: None) -> None:
    table = _pricing(tmp_path)
    provider = provider_class("openai").from_options({"model": "stub-model"})
    assert isinstance(provider, ApiProvider)
    plans = [
        dry_run(
            provider,
            find_packets(packets),
            packets,
            tmp_path / "run",
            HarnessOptions(batch=batch, pricing=table),
        )
        for batch in (False, True)
    ]
    assert plans[0].cost_usd and plans[1].cost_usd == pytest.approx(plans[0].cost_usd / 2)


def test_a_refused_key_stops_before_any_other_batch_and_resume_finishes(
    packets: Path,
    stub: Callable[..., StubServer],
    tmp_path: Path,
    keys: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = stub("openai", packets, expect_key="the-right-key")
    run = tmp_path / "run"
    with pytest.raises(ProviderStopped, match="authentication refused"):
        _batch_run("openai", server, packets, run)
    log = json.loads((run / NAME).read_text())["batches"]
    assert [e["state"] for e in log] == ["refused"]  # the other chunks never went out
    assert server.batches_created == 0 and not records(run)
    invocation = json.loads((run / "run.json").read_text())["invocations"][-1]
    assert invocation["not_started"] == documents(packets)  # every one left for --resume
    monkeypatch.setenv("OPENAI_API_KEY", "the-right-key")
    _batch_run("openai", server, packets, run, resume=True)
    assert len(records(run)) == documents(packets)
    assert server.batches_created == math.ceil(documents(packets) / SIZE)
