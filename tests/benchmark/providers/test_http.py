"""`extract --provider http`: a real service on 127.0.0.1, sent each document as a user's is.

(Misuse is checked in-process: `UsageError` is how every command prints one line, exit 2.)
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.config import ExtractionConfig, ModelOptions
from packetbench.benchmark.providers.http import parse_headers, shown_url, version_url
from packetbench.core.errors import UsageError
from tests.support.files import extraction_records as _records
from tests.support.paths import PACKETS

Run = Callable[..., subprocess.CompletedProcess[str]]

PACKET = PACKETS / "N1-000001"  # the canonical suite's, read only
DOC_TYPES = "acord_125,sov,loss_run"  # six documents of an N1 packet
SECRET = "Bearer sekrit-66-value"


class Service(ThreadingHTTPServer):
    """A service of one's own: answers each document with its truth (the tests judge the
    harness, not the service), or misbehaves as `plan` says for the document's id, one
    behaviour per request (the last repeats)."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.plan: dict[str, list[str]] = {}
        self.seen: list[dict[str, Any]] = []
        self.version: str | None = "acme-extract 2.1"
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/extract"


class Handler(BaseHTTPRequestHandler):
    server: Service

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _answer(self, status: int, body: bytes, **headers: str) -> None:
        self.send_response(status)
        for name, value in {"Content-Length": str(len(body)), **headers}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path == "/extract/version" and self.server.version:
            self._answer(200, json.dumps({"version": self.server.version}).encode(),
                         **{"Content-Type": "application/json"})  # fmt: skip
        else:
            self._answer(404, b"no such page\n")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        head = f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode()
        message = BytesParser(policy=HTTP).parsebytes(head + body)
        parts = {p.get_param("name", header="content-disposition"): p for p in message.iter_parts()}
        fields = {k: p.get_content() for k, p in parts.items() if k != "file"}
        upload = parts["file"]
        doc = str(fields["document_id"])
        with self.server.lock:
            steps = self.server.plan.get(doc, ["good"])
            step = steps.pop(0) if len(steps) > 1 else steps[0]
            self.server.seen.append({"doc": doc, "step": step, "fields": fields,
                                     "auth": self.headers.get("Authorization"),
                                     "file": (upload.get_filename(), upload.get_content_type(),
                                              len(upload.get_payload(decode=True)))})  # fmt: skip
        json.loads(str(fields["schema"]))  # the schema arrives as JSON text
        if step == "503":
            self._answer(503, b"overloaded, try later\n", **{"Retry-After": "0"})
        elif step == "400":
            self._answer(400, b"cannot read this scan\nsecond line\n")
        elif step == "not-json":
            self._answer(200, b"Sure! Here is the answer: {")
        elif step == "hang":
            time.sleep(8)
        elif step == "flood":  # no length: the body runs until the connection closes
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            chunk = b" " * (1 << 20)
            try:
                for _ in range(17):
                    self.wfile.write(chunk)
            except OSError:
                pass  # the client stopped reading: what it should do
        else:
            truth = PACKETS / str(fields["packet_id"]) / f"document_truth_{doc}.json"
            answer = json.loads(truth.read_text(encoding="utf-8"))["truth"]
            usage = {"cost_usd": 0.25, "input_tokens": 1000, "output_tokens": 20}
            self._answer(200, json.dumps(answer).encode(),
                         **{"packetbench-usage": json.dumps(usage)})  # fmt: skip


@pytest.fixture
def service() -> Iterator[Service]:
    server = Service()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _extract(run_cli: Run, url: str, out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return run_cli(
        "extract", "--provider", "http", "--url", url, "--packets", str(PACKET),
        "--out", str(out), "--doc-types", DOC_TYPES, "--no-cache", "--backoff", "0.01",
        *more, timeout=120,
    )  # fmt: skip


@pytest.mark.slow
def test_answers_are_scored_failures_recorded_and_the_run_resumed(
    run_cli: Run, service: Service, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    service.plan = {"sov_pdf": ["503", "good"], "acord_125": ["400"], "loss_run_pdf": ["not-json"]}
    done = _extract(run_cli, service.url, out, "--header", f"Authorization: {SECRET}")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "6 of 6 documents written [1 error, 1 invalid, 4 ok]" in done.stdout
    assert "7 request(s), 1 retry" in done.stdout and "$1.0000 spent" in done.stdout
    records = _records(out)
    assert records["acord_125"]["status"] == "error"
    assert records["acord_125"]["error"].endswith("status 400: cannot read this scan")
    assert records["loss_run_pdf"]["status"] == "invalid"
    assert str(records["loss_run_pdf"]["error"]).startswith("not JSON")
    assert records["sov_pdf"]["usage"]["cost_usd"] == 0.25
    # What was sent: the file with its name and type, the ids, the header.
    sov = next(s for s in service.seen if s["doc"] == "sov_pdf")
    assert sov["file"][:2] == ("sov_pdf.pdf", "application/pdf")
    assert sov["file"][2] == (PACKET / "sov_pdf.pdf").stat().st_size
    assert sov["fields"]["document_type"] == "sov" and sov["fields"]["format"] == "pdf"
    assert sov["fields"]["packet_id"] == "N1-000001" and sov["auth"] == SECRET
    # The version came from GET URL/version; the header's value is written nowhere.
    info = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert info["model"] == "acme-extract 2.1" and info["versions"]["http"] == "acme-extract 2.1"
    assert info["parameters"]["headers"] == ["Authorization"]
    written = "".join(p.read_text(errors="replace") for p in out.rglob("*") if p.is_file())
    assert "sekrit" not in written
    scored = run_cli("score", str(out), "--packets", str(PACKET))
    assert scored.returncode == 0, scored.stderr
    # Resumed: only the two failures are sent again, now answered well.
    service.seen.clear()
    service.plan = {}
    again = _extract(run_cli, service.url, out, "--header", f"Authorization: {SECRET}",
                     "--resume", "--retry-failed")  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "6 of 6 documents written [6 ok]" in again.stdout
    assert sorted(s["doc"] for s in service.seen) == ["acord_125", "loss_run_pdf"]


@pytest.mark.slow
def test_a_hang_and_a_flood_are_that_documents_records(
    run_cli: Run, service: Service, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    service.plan = {"sov_pdf": ["hang"], "loss_run_csv": ["flood"]}
    started = time.monotonic()
    done = _extract(run_cli, service.url, out, "--timeout", "1", "--retries", "0",
                    "--system-version", "acme 3")  # fmt: skip
    assert time.monotonic() - started < 30
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    records = _records(out)
    assert records["sov_pdf"]["status"] == "timeout"
    assert "no answer within 1 s" in str(records["sov_pdf"]["error"])
    assert records["loss_run_csv"]["status"] == "error"
    assert "answered more than 16,777,216 bytes" in str(records["loss_run_csv"]["error"])
    assert sum(r["status"] == "ok" for r in records.values()) == 4


def test_misuse_is_one_line(service: Service) -> None:
    service.version = None  # GET URL/version: 404
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("http", {}, "needs --url"),
        ("http", {"url": "ftp://x/y"}, "http:// or https://"),
        ("sim", {"url": service.url}, "--url goes with --provider http"),
        ("http", {"url": service.url}, "gave no version (status 404)"),
        ("http", {"url": service.url, "headers": ("x-key sekrit",)}, "Name: value"),
        ("http", {"url": service.url, "system_version": "1", "input_mode": "text"}, "--input"),
    ]
    for provider, options, needle in cases:
        config = ExtractionConfig(provider=provider, api=ModelOptions(**options))
        with pytest.raises(UsageError) as caught:
            config.check()
            config.make_provider()
        message = str(caught.value)
        assert needle in message and "sekrit" not in message and "\n" not in message, message


def test_urls_and_headers_as_recorded() -> None:
    url = "https://user:pw@svc.example:8443/v1/extract/?key=abc"
    assert shown_url(url) == "https://svc.example:8443/v1/extract/"
    assert version_url(url) == "https://user:pw@svc.example:8443/v1/extract/version?key=abc"
    assert parse_headers(["X-Key:  a:b ", "Accept: x"]) == [("X-Key", "a:b"), ("Accept", "x")]
    for bad in ("no colon", "bad name: v", "X: a\nb"):
        with pytest.raises(UsageError):
            parse_headers([bad])


@pytest.mark.slow
def test_the_cache_and_resume_know_the_service_by_its_version(
    run_cli: Run, service: Service, tmp_path: Path
) -> None:
    cache = str(tmp_path / "cache")

    def extract(out: str, version: str, *more: str) -> subprocess.CompletedProcess[str]:
        return run_cli("extract", "--provider", "http", "--url", service.url, "--packets",
                       str(PACKET), "--out", str(tmp_path / out), "--doc-types", "sov",
                       "--formats", "pdf", "--cache", cache, "--system-version", version,
                       *more, timeout=120)  # fmt: skip

    first = extract("a", "acme 1")
    assert first.returncode == 0 and "1 request(s)" in first.stdout, first.stdout + first.stderr
    again = extract("b", "acme 1")
    assert again.returncode == 0 and "1 from the cache" in again.stdout, again.stdout
    assert len(service.seen) == 1  # answered from the cache: nothing sent
    changed = extract("c", "acme 2")
    assert changed.returncode == 0 and "0 from the cache" in changed.stdout, changed.stdout
    assert len(service.seen) == 2
    refused = extract("a", "acme 2", "--resume")
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused


@pytest.mark.slow
def test_the_cost_cap_stops_a_run_half_done_and_resume_finishes_it(
    run_cli: Run, service: Service, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    # Each answer reports $0.25: one at a time, the cap is reached after two.
    stopped = _extract(run_cli, service.url, out, "--concurrency", "1", "--max-cost", "0.5")
    assert stopped.returncode == 1, stopped.stdout + stopped.stderr
    assert "stopped: --max-cost $0.50 reached" in stopped.stderr
    done_before = {s["doc"] for s in service.seen}
    assert len(_records(out)) == len(done_before) < 6
    service.seen.clear()
    resumed = _extract(run_cli, service.url, out, "--resume", "--max-cost", "5")
    assert resumed.returncode == 0, resumed.stderr
    assert "6 of 6 documents written [6 ok]" in resumed.stdout
    assert {s["doc"] for s in service.seen}.isdisjoint(done_before)
    assert len(service.seen) == 6 - len(done_before)
