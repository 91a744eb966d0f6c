"""Every real SDK against its stub with faults at 20 % of requests: a 3-packet run ends with
every document ok or with a recorded, explained failure, and the retry counts in the records
match what the stub injected."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.config import HarnessOptions
from packetbench.benchmark.extract import extract
from packetbench.benchmark.harness.stub import Faults, StubServer
from packetbench.benchmark.harness.stub.faults import ANSWER, TRANSIENT
from packetbench.benchmark.providers import provider_class
from packetbench.generator.doctypes.base import DOC_TYPES
from tests.support.paths import PACKETS
from tests.support.scoring import INDUSTRY_TYPES
from tests.support.stubs import APIS, KEYS, documents, log, records, truth

RETRIES = 3
# Documents whose faults are fixed, so that every kind occurs whatever the random draw.
SCRIPT = {
    "N1-000001/acord_125": ["rate_limit", "server_500", "none"],
    "N1-000001/acord_140": ["hang", "none"],
    "N1-000001/sov_pdf": ["malformed"],
    "N1-000001/sov_excel": ["envelope"],
    "N1-000001/loss_run_pdf": ["server_503", "truncated"],
    "N1-000001/loss_run_csv": ["refusal"],
    "N1-000002/sov_pdf": ["hang"] * (RETRIES + 1),  # the budget runs out on timeouts
    "N1-000002/acord_125": ["server_503"] * (RETRIES + 1),  # ... and on 5xx
}
EXPECTED = {  # the final outcome of an answer fault
    "malformed": ("invalid", "not JSON"),
    "truncated": ("invalid", "truncated at the output-token cap"),
    "refusal": ("refused", "refused: "),
}


@pytest.mark.parametrize("api", APIS)
@pytest.mark.slow
def test_faults_end_ok_or_explained_and_retries_match(
    api: str,
    three_packets: Path,
    stub: Callable[..., StubServer],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEYS[api], "test-key-for-the-stub-0001")
    plan = Faults(rate=0.2, seed=7, script=SCRIPT, retry_after_s=0.2)
    server = stub(api, three_packets, plan)
    provider = provider_class(api).from_options(
        {"model": "stub-model", "base_url": server.base_url, "timeout": 0.5, "retries": RETRIES}
    )
    run = tmp_path / "run"
    summary = extract(
        provider,
        three_packets,
        run,
        options=HarnessOptions(concurrency=6, use_cache=False, backoff_base_s=0.01, seed=1),
    )

    found = records(run)
    assert server.rejected == []  # every request was one the real API would accept
    total = documents(three_packets)
    assert len(found) == summary.documents == summary.written == total
    injected = {doc: server.faults_of(doc) for doc in found}
    assert sum(f is not None for faults in injected.values() for f in faults) >= 8
    seen = {f for faults in injected.values() for f in faults if f}
    assert seen == set(TRANSIENT) | set(ANSWER)
    for doc, record in found.items():
        faults = injected[doc]
        # Every request the stub saw for this document is one attempt of its record.
        assert record["attempts"] == len(faults) == server.requests[doc], doc
        transient = [f for f in faults if f in TRANSIENT]
        last = faults[-1]
        if last in TRANSIENT:  # the retry budget ran out
            assert len(faults) == RETRIES + 1
            assert record["status"] == ("timeout" if last == "hang" else "error")
            assert record["error"].startswith(f"gave up after {RETRIES + 1} attempts")
            assert record["output"] is None
            continue
        assert len(transient) == record["attempts"] - 1, doc  # every retry was injected
        if last in EXPECTED:
            status, reason = EXPECTED[last]
            assert record["status"] == status and record["error"].startswith(reason), record
        else:  # a clean answer, or an envelope the harness unwrapped
            assert record["status"] == "ok" and record["error"] is None, record
            assert record["output"] == truth(three_packets, doc)
        assert record["usage"]["input_tokens"] > 0
    assert found["N1-000001/sov_excel"]["status"] == "ok"  # the envelope
    assert '"document"' in found["N1-000001/sov_excel"]["raw_text"]
    assert summary.retries == sum(r["attempts"] - 1 for r in found.values())

    # The request log has one line per request, and 429s waited at least their retry-after.
    attempts = [e for e in log(run) if e["event"] == "attempt"]
    assert len(attempts) == sum(server.requests.values())
    limited = [e for e in attempts if e["result"] == "rate_limit"]
    assert limited and all(e["wait_s"] is None or e["wait_s"] >= 0.2 for e in limited)
    for doc, faults in injected.items():
        arrivals = [i.at for i in server.injected if i.document == doc]
        for number, fault in enumerate(faults[:-1]):
            if fault == "rate_limit":
                assert arrivals[number + 1] - arrivals[number] >= 0.2


# One API in the fast tier; the slow tier tries the others.
@pytest.mark.parametrize(
    "api", [pytest.param(a, marks=() if a == "openai" else pytest.mark.slow) for a in APIS]
)
def test_every_document_type_is_answered_by_the_stubs(
    api: str, stub: Callable[..., StubServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The N3 and N5 canonical packets carry every document type: each SDK sends each one
    with its strict schema, the stub accepts the request, and the record is the truth."""
    packets = tmp_path / "packets"
    for name in ("N3-000001", "N5-000001"):
        shutil.copytree(PACKETS / name, packets / name)
    monkeypatch.setenv(KEYS[api], "test-key-for-the-stub-0001")
    server = stub(api, packets)
    provider = provider_class(api).from_options(
        {"model": "stub-model", "base_url": server.base_url, "timeout": 5.0, "retries": 1}
    )
    run = tmp_path / "run"
    summary = extract(
        provider, packets, run, options=HarnessOptions(concurrency=8, use_cache=False, seed=1)
    )
    found = records(run)
    assert server.rejected == []
    assert summary.by_status == {"ok": len(found)}
    # The restaurant and habitational supplements are not in the suite (see test_scorer).
    assert {record["doc_type"] for record in found.values()} == set(DOC_TYPES) - set(INDUSTRY_TYPES)
    for doc, record in found.items():
        assert record["output"] == truth(packets, doc), doc
