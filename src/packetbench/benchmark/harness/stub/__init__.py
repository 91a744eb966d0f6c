"""Local stub servers of the OpenAI, Anthropic and Gemini APIs, for tests and benchmarks/.

A `StubServer` listens on 127.0.0.1 (a free port), in a thread of its own, and answers the
requests of one provider's API from the packets' document truth: extractions with the
truth, a judge's claims with labels read off the truth and a classifier with the document's
type (`stub.questions`). It finds which document a
request is about by content, as a real service would see it: the sha256 of every document
part the harness can send (a PDF's bytes, a page's text, a sheet's CSV, a page image) is
indexed from the packets, so nothing in the prompt names the document. It injects faults on
demand (`Faults`) and counts every request per document, with the fault it injected.

A request sent as text whose every page is empty (a scan with no text layer) carries nothing
that tells documents apart, and nothing to read: the stub answers it as a reader of it can,
every value null (counted under `BLANK`). A request with no known document at all is
refused with a 400 that says what the stub knows documents by and what the request carried.

    with StubServer("openai", packets_dir, Faults(rate=0.2)) as stub:
        ... OpenAI(base_url=stub.base_url, ...) ...
        stub.requests["N1-000001/sov_pdf"]

`packetbench stub --packets DIR` serves all three on 127.0.0.1 (`stub.servers`; see
docs/offline.md), alone or around a command; `python -m packetbench.benchmark.harness.stub --api
openai --packets DIR` runs one in a process of its own and prints its base URL.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import json
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packetbench.benchmark.harness import inputs
from packetbench.benchmark.harness.stub.apis import APIS, StubApi
from packetbench.benchmark.harness.stub.batches import ROUTES, BatchRoutes
from packetbench.benchmark.harness.stub.faults import Faults
from packetbench.benchmark.harness.stub.http import Request, Response, Server
from packetbench.benchmark.harness.stub.questions import (
    asks_labels,
    asks_type,
    labels,
    listed_claims,
)
from packetbench.benchmark.harness.stub.strict import (
    asks_confidence,
    cite_mode,
    nothing_read,
    strict_problem,
)
from packetbench.benchmark.providers import PROVIDERS, api_providers
from packetbench.truth.packets import DocInfo, find_packets

__all__ = ["Faults", "Injected", "StubServer"]

MIN_PART = 40  # shorter strings are instructions or labels, not document parts
BLANK = "(pages without text)"  # what a request of empty page texts is counted under
# A PDF page as `--input text` sends it (`inputs._pdf`): its marker, then its text layer.
PAGE_TEXT = re.compile(r"\[page \d+ of \d+\]\n")
# The kinds of file a base64 part can be, by their first bytes.
MAGIC = ((b"%PDF", "PDF"), (b"\x89PNG", "PNG page image"))


@dataclass(frozen=True)
class Injected:
    document: str  # "packet_id/doc_id"
    number: int  # the document's n-th request
    fault: str | None
    at: float  # time.monotonic() when the request arrived


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class StubServer:
    def __init__(
        self,
        api: str,
        packets: Path,
        faults: Faults | None = None,
        *,
        modes: tuple[str, ...] = ("native", "text"),
        image_dpi: int = inputs.IMAGE_DPI,  # the page images it knows are rendered at
        delay_s: float = 0.0,
        hang_s: float = 30.0,
        keep_bodies: bool = False,
        expect_key: str | None = None,
        reject_reasoning: bool = False,
        batch_delay_s: float = 0.0,
        expire_batches: tuple[int, ...] = (),
        port: int = 0,
    ) -> None:
        # a provider's stub is the one of the wire protocol it speaks (an OpenAI-compatible
        # service speaks openai's); `api` may name the protocol itself
        api = PROVIDERS[api].protocol if api in PROVIDERS else api
        self.api: StubApi = APIS[api]()
        # The batch endpoints (None: this API has none here): a batch ends `batch_delay_s`
        # after it is created; the batches created n-th for n in `expire_batches` expire.
        self.batch_routes: BatchRoutes | None = (
            ROUTES[api](batch_delay_s, expire_batches) if api in ROUTES else None
        )
        self.faults = faults or Faults()
        self.delay_s = delay_s
        self.keep_bodies = keep_bodies
        self.expect_key = expect_key  # answer 401 to any other key
        self.reject_reasoning = reject_reasoning  # answer 400 to any reasoning setting
        self.requests: Counter[str] = Counter()
        self.injected: list[Injected] = []
        self.bodies: dict[str, list[dict[str, Any]]] = {}
        self.rejected: list[str] = []  # why malformed requests were refused
        self.keys_seen: set[str] = set()
        # A judge's requests by document and the claim paths they list ("\n"-joined).
        self.asked: Counter[tuple[str, str]] = Counter()
        self._truth: dict[str, dict[str, Any]] = {}
        self._files: dict[str, tuple[Path, DocInfo]] = {}  # name -> (packet folder, doc)
        self._index: dict[str, str] = {}
        self._lock = threading.Lock()
        for packet in find_packets(packets):
            for doc in packet.documents:
                name = f"{packet.packet_id}/{doc.doc_id}"
                self._truth[name] = packet.truth(doc.doc_id)
                self._files[name] = (packet.path, doc)
                for mode in modes:
                    for part in inputs.build(packet, doc, mode, dpi=image_dpi).parts:
                        if part.kind == "text":
                            self._index[_digest(part.text)] = name
                        else:
                            self._index[hashlib.sha256(part.data).hexdigest()] = name
        self._server = Server(self._handle, hang_s)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self.port = port  # 0 until started: a free port
        self.modes = modes
        self.packets = packets

    # -- lifecycle ----------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """What to pass as --base-url for this API's SDK."""
        return f"{self.url}/v1" if self.api.name == "openai" else self.url

    def start(self) -> StubServer:
        """Serve in a thread of its own; OSError when the port cannot be listened on."""
        ready = threading.Event()
        failed: list[OSError] = []

        def serve() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self._loop = loop
            try:
                self.port = loop.run_until_complete(self._server.start(self.port))
            except OSError as error:
                failed.append(error)
                ready.set()
                loop.close()
                self._loop = None
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._server.close())
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.close()

        self._thread = threading.Thread(target=serve, name=f"stub-{self.api.name}", daemon=True)
        self._thread.start()
        ready.wait(10)
        if failed:
            raise failed[0]
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop = None

    def __enter__(self) -> StubServer:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    # -- what the tests read ------------------------------------------------------------------

    def faults_of(self, document: str) -> list[str | None]:
        with self._lock:
            return [i.fault for i in self.injected if i.document == document]

    # -- serving ------------------------------------------------------------------------------

    def _document(self, body: Any) -> str | None:
        """The document a request is about: the first indexed part found in its body."""
        stack = [body]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, str) and len(item) >= MIN_PART:
                found = self._index.get(_digest(item))
                if found is None and not item.count(" "):
                    found = self._binary(item)
                if found is not None:
                    return found
        return None

    def _binary(self, item: str) -> str | None:
        for data in _decodings(item):
            found = self._index.get(hashlib.sha256(data).hexdigest())
            if found is not None:
                return found
        return None

    def _unknown(self, body: Any) -> tuple[bool, str]:
        """(whether the request is a text one of empty pages only, the 400's message) of a
        request whose parts match no document: what the stub knows a document by, and what
        this request carried instead."""
        pages: list[str] = []
        files: Counter[str] = Counter()
        stack = [body]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, str) and PAGE_TEXT.match(item):
                pages.append(PAGE_TEXT.sub("", item, count=1))
            elif isinstance(item, str) and len(item) >= MIN_PART and not item.count(" "):
                # only what a document is sent as: other long words are not counted
                kinds = [k for data in _decodings(item) for m, k in MAGIC if data.startswith(m)]
                if kinds:
                    files[kinds[0]] += 1
        blank = bool(pages) and not files and not any(p.strip() for p in pages)
        expected = (
            "a document of the packets in "
            f"{self.packets}, known by a PDF's bytes, a page's or a sheet's text of "
            f"{MIN_PART} characters or more, or a CSV file's text"
            + (", or a page image" if "images" in self.modes else "")
        )
        got = [f"{n} {kind}(s) of none of them" for kind, n in sorted(files.items())]
        if pages:
            longest = max(len(p.strip()) for p in pages)
            got.append(
                f"{len(pages)} page text(s) of none of them, the longest {longest} character(s)"
            )
        said = f"no known document in the request: expected {expected}; got " + (
            "; ".join(got) or "no document part (only the instructions)"
        )
        if files["PNG page image"] and "images" not in self.modes:
            said += (
                "; this stub knows no page images: start it with --inputs native,text,images "
                "to answer --input images"
            )
        return blank, said

    @property
    def batches_created(self) -> int:
        """How many batches were created (a resumed run must create none twice)."""
        return self.batch_routes.created if self.batch_routes is not None else 0

    async def _handle(self, request: Request) -> Response | object:
        api = self.api
        routes = self.batch_routes
        if routes is not None and routes.serves(request):
            key = api.key(request)
            if self.expect_key is not None and key != self.expect_key:
                return api.error(401, f"Incorrect API key provided: {key}", "authentication_error")
            try:
                return await routes.handle(request, self._item, self.url)
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                return api.error(400, f"malformed batch request: {error}", "invalid_request_error")
        if not api.serves(request):
            return api.error(404, f"no route {request.method} {request.path}", "not_found")
        try:
            body = request.json()
        except ValueError:
            return api.error(400, "request body is not JSON", "invalid_request_error")
        key = api.key(request)
        if self.expect_key is not None and key != self.expect_key:
            with self._lock:
                self.rejected.append("bad key")
            return api.error(401, f"Incorrect API key provided: {key}", "authentication_error")
        if self.reject_reasoning and isinstance(body, dict) and api.reasoning(body):
            with self._lock:
                self.rejected.append("reasoning")
            return api.error(
                400,
                "This model does not support the requested reasoning "
                "setting (reasoning_effort / thinking level).",
                "invalid_request_error",
            )
        problem = api.problem(body) if isinstance(body, dict) else "body is not an object"
        citing = problem is None and api.citing(body)
        if problem is None and not citing:
            problem = strict_problem(api.schema(body))
        document = self._document(body) if problem is None else None
        if problem is None and document is None:
            blank, said = self._unknown(body)
            schema = api.schema(body)
            if blank and not citing and not (asks_labels(schema) or asks_type(schema)):
                document = BLANK
            else:
                problem = said
        with self._lock:
            if key:
                self.keys_seen.add(key)
            if problem is not None:
                self.rejected.append(problem)
                fault = None
            else:
                assert document is not None
                self.requests[document] += 1
                number = self.requests[document]
                fault = self.faults.fault(document, number)
                self.injected.append(Injected(document, number, fault, time.monotonic()))
                if self.keep_bodies:
                    self.bodies.setdefault(document, []).append(body)
        if problem is not None:
            return api.error(400, problem, "invalid_request_error")
        assert document is not None
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        if citing and fault not in ("rate_limit", "server_500", "server_503", "hang"):
            return api.cited_reply(body, self._native_blocks(document, body))
        schema = api.schema(body)
        if document == BLANK:
            return api.answer(request, body, nothing_read(schema), fault, self.faults.retry_after_s)
        if asks_labels(schema) or asks_type(schema):
            return api.answer(
                request, body, self._question(document, body), fault, self.faults.retry_after_s
            )
        answer: dict[str, Any] = self._truth[document]
        mode = cite_mode(api.schema(body))
        if mode is not None:
            answer = {"values": answer, "evidence": self._evidence(document, mode)}
        if asks_confidence(api.schema(body)):
            answer = {
                **(answer if mode is not None else {"values": answer}),
                "confidence": self._confidences(document),
            }
        return api.answer(request, body, answer, fault, self.faults.retry_after_s)

    def _question(self, document: str, body: dict[str, Any]) -> dict[str, Any]:
        """A judge's labels or a classifier's type of `document` (`stub.questions`)."""
        folder, doc = self._files[document]
        if asks_type(self.api.schema(body)):
            return {"doc_type": doc.schema}
        claims = listed_claims(body)
        with self._lock:
            self.asked[(document, "\n".join(path for _, path, _ in claims))] += 1
        fields = json.loads((folder / f"field_truth_{doc.doc_id}.json").read_bytes())["fields"]
        return labels(self._truth[document], fields, claims)

    async def _item(self, request: Request) -> Response | None:
        """A batch item's answer: what the ordinary endpoint answers its request (None for
        a hung one)."""
        answer = await self._handle(request)
        return answer if isinstance(answer, Response) else None

    def _native_blocks(self, document: str, body: dict[str, Any]) -> list[dict[str, Any]]:
        """A --cite native answer: for each numbered value of the question ("[n] path =
        value"), its number, then its rendered text cited to the page of the truth's first
        location of that path (a path the truth does not locate: "not shown", uncited)."""
        folder, doc = self._files[document]
        fields = json.loads((folder / f"field_truth_{doc.doc_id}.json").read_bytes())["fields"]
        where = {
            f["path"]: (f["locations"][0]["page"], f.get("rendered_as") or str(f["value"]))
            for f in fields
            if f.get("locations") and "page" in f["locations"][0]
        }
        question = body["messages"][-1]["content"][-1]["text"]
        blocks: list[dict[str, Any]] = []
        for found in re.finditer(r"^\[(\d+)\] (\S+) = ", question, re.MULTILINE):
            number, path = found.group(1), found.group(2)
            if path not in where:
                blocks.append({"text": f"[{number}] not shown\n"})
                continue
            page, text = where[path]
            blocks.append({"text": f"[{number}] "})
            blocks.append(
                {
                    "text": text,
                    "citations": [
                        {
                            "type": "page_location",
                            "cited_text": text,
                            "document_index": 0,
                            "document_title": doc.file,
                            "start_page_number": page,
                            "end_page_number": page + 1,
                        }
                    ],
                }
            )
            blocks.append({"text": "\n"})
        return blocks

    def _confidences(self, document: str) -> list[dict[str, Any]]:
        """A confidence for each truth value (the stub answers the truth): 0.9."""
        folder, doc = self._files[document]
        fields = json.loads((folder / f"field_truth_{doc.doc_id}.json").read_bytes())["fields"]
        return [{"path": f["path"], "confidence": 0.9} for f in fields if f.get("locations")]

    def _evidence(self, document: str, mode: str) -> list[dict[str, Any]]:
        """A perfect cited answer's evidence: each truth value's first location, a PDF box
        given in the page's 0-1 coordinates from its top left corner."""
        from packetbench.benchmark.grounding.boxes import points_to_normalised
        from packetbench.benchmark.grounding.citations import page_sizes

        folder, doc = self._files[document]
        fields = json.loads((folder / f"field_truth_{doc.doc_id}.json").read_bytes())["fields"]
        sizes = page_sizes(folder / doc.file) if doc.format == "pdf" else []
        entries = []
        for field in fields:
            if not field["locations"]:
                continue
            where = field["locations"][0]
            entry: dict[str, Any] = {"path": field["path"], "page": where.get("page")}
            if mode == "box":
                box: tuple[float | None, ...] = (None,) * 4
                if "bbox" in where:
                    width, height = sizes[where["page"] - 1]
                    box = tuple(
                        round(v, 6)
                        for v in points_to_normalised(tuple(where["bbox"]), width, height)
                    )
                entry |= dict(zip(("x0", "y0", "x1", "y1"), box, strict=True))
            entry |= {
                "sheet": where.get("sheet"),
                "cell": where.get("cell"),
                "row": where.get("row"),
                "column": where.get("column"),
            }
            entries.append(entry)
        return entries


def _decodings(item: str) -> list[bytes]:
    """The bytes a base64 string (or a data: URL) may carry, read as standard and as
    url-safe base64 (Gemini's); none when it is neither."""
    encoded = item.split("base64,", 1)[1] if item.startswith("data:") else item
    found = []
    for decode in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            found.append(decode(encoded.encode("ascii")))
        except (binascii.Error, ValueError):
            continue
    return found


def main() -> None:
    """Run a stub until stdin closes: ``python -m packetbench.benchmark.harness.stub --api openai
    --packets DIR [--rate 0.2] [--seed 0] [--delay 0]``; prints the base URL first."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(description=main.__doc__)
    # a wire protocol, or any registered API provider (its stub is its protocol's)
    known = sorted({*APIS, *api_providers()})
    parser.add_argument("--api", choices=known, required=True)
    parser.add_argument("--packets", type=Path, required=True)
    parser.add_argument("--rate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--stats", type=Path, help="write request counts here on exit")
    args = parser.parse_args()
    stub = StubServer(
        args.api, args.packets, Faults(rate=args.rate, seed=args.seed), delay_s=args.delay
    ).start()
    sys.stdout.write(stub.base_url + "\n")
    sys.stdout.flush()
    try:
        sys.stdin.read()
    finally:
        stub.stop()
        if args.stats:
            args.stats.write_text(json.dumps(dict(stub.requests)))
