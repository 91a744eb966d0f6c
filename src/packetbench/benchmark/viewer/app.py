"""The viewer served on 127.0.0.1: a Starlette app under uvicorn, read-only.

Routes: the single-page app (``/``, ``/static/app.js``, ``/static/app.css``) and its JSON
API: ``/api/runs`` (with how far the check of each run's files has got),
``/api/runs/{i}/checks``, ``/api/runs/{i}/overview``, ``/api/runs/{i}/documents`` (one page
of the list, filters as query parameters; each row says whether its files were checked),
``/api/runs/{i}/documents/{packet}/{doc}`` (a document's summary) and its parts
``.../{packet}/{doc}/page-N`` (the fields drawn on page N), ``fields-K`` and ``claims-K``
(the side table, `index.CHUNK` rows at a time, worst first) and ``cells`` (a workbook's or
CSV's located fields), ``/api/runs/{i}/grid/{packet}/{doc}`` and page images
``/pages/{sha256}/{page}?scale=N``. A document is only ever found among a run's listed
documents, and a page image only among their files: nothing a request names becomes a path.
A document whose files differ from those the run was extracted from is answered 422 with
the reason (`benchmark.viewer.checks`).

Only the viewer's own pages may ask: a request whose Host is not this server's address (a
DNS-rebinding page in the user's browser) or that comes from another site (Origin,
Sec-Fetch-Site) is answered 403 before any route (`LocalOnly`). An error's body names no
path of the machine, only the file's name (`public`).
"""

from __future__ import annotations

import errno
import re
import socket
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from packetbench.benchmark.viewer import grid, index
from packetbench.benchmark.viewer.checks import Checks, Refused
from packetbench.benchmark.viewer.pages import Pages
from packetbench.benchmark.viewer.source import Query, RunSource
from packetbench.core import stopping
from packetbench.core.errors import BadInput, InputError, UsageError
from packetbench.core.resources import resource_dir
from packetbench.truth.packets import DocInfo, Packet

ASSETS = {"app.js": "text/javascript", "app.css": "text/css"}
# Longest the overview waits for the first document list to be answered before it starts.
OVERVIEW_DELAY = 5.0
PART = re.compile(r"^(?:(?:page|fields|claims)-[0-9]{1,7}|cells)$")
# The page loads its own script, style and images and nothing else.
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


# An absolute path's folders, as they appear in a message: dropped from error bodies.
_FOLDERS = re.compile(r"(?:(?<=^)|(?<=[\s'\"(=]))/(?:[^/\s'\"]+/)+")


def public(message: str) -> str:
    """`message` without the folders of any absolute path in it (the file's name stays):
    the viewer's answers tell a browser nothing of the machine's layout."""
    return _FOLDERS.sub("", message)


class LocalOnly:
    """ASGI middleware: answer 403 to any request not from the viewer's own pages. The
    Host must be this server's (127.0.0.1 or localhost at its port), and an Origin or a
    Sec-Fetch-Site, when the browser sends one, must be this server's too."""

    def __init__(self, app: Any, port: int) -> None:
        self.app = app
        names = ("127.0.0.1", "localhost")
        self.hosts = {f"{name}:{port}" for name in names}
        if port == 80:
            self.hosts |= set(names)
        self.origins = {f"http://{host}" for host in self.hosts}

    def refusal(self, headers: dict[bytes, bytes]) -> str | None:
        host = headers.get(b"host", b"").decode("latin-1").lower()
        if host not in self.hosts:
            return "this server answers requests to 127.0.0.1 only (Host)"
        origin = headers.get(b"origin")
        if origin is not None and origin.decode("latin-1").lower() not in self.origins:
            return "this server answers its own pages only (Origin)"
        site = headers.get(b"sec-fetch-site", b"").decode("latin-1").lower()
        if site in ("cross-site", "same-site"):
            return "this server answers its own pages only (Sec-Fetch-Site)"
        return None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            reason = self.refusal(headers)
            if reason is not None:
                await _json({"error": reason}, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def assets() -> Path:
    return resource_dir("templates") / "viewer"


def to_json(data: Any) -> bytes:
    return orjson.dumps(data, default=str, option=orjson.OPT_NON_STR_KEYS)


def _json(data: Any, status: int = 200) -> Response:
    return Response(to_json(data), status, media_type="application/json", headers=SECURITY)


def run_row(index: int, source: RunSource) -> dict[str, Any]:
    """A run as the runs list shows it."""
    return {
        "index": index,
        "name": source.name,
        "scored": source.scored,
        "documents": len(source.documents),
        "model": source.info.model,
        "provider": source.info.provider,
        "simulator": source.info.simulator,
        "status": source.info.status,
    }


class Stopping(Exception):
    """The server is stopping: what a request waited for was interrupted (answered 503,
    never a traceback)."""


class Viewer:
    """The runs being viewed, their page images, each run's overview (computed in the
    background from the start: a large run's intervals take seconds, its list does not),
    the check of each run's files (in the background too) and the documents' indexes."""

    def __init__(self, sources: list[RunSource], pages: Pages) -> None:
        self.sources = sources
        self.pages = pages
        self.indexes = index.Indexes(pages.cache / "index")
        self.checks = [Checks(source) for source in sources]
        # sha256 of a PDF -> the documents that are that file (in any run)
        self._files: dict[str, list[tuple[int, Packet, DocInfo]]] = {}
        for i, source in enumerate(sources):
            for packet, doc in source.documents:
                if doc.format == "pdf":
                    sha = source.hashes[f"{packet.packet_id}/{doc.doc_id}"]["file"]
                    self._files.setdefault(sha, []).append((i, packet, doc))
        self._overviews: list[Future[dict[str, Any]]] = [Future() for _ in sources]
        # Set once a document list has been answered (or asked for an overview): the
        # overview's bootstrap waits for it, so the list a user opens first is not slowed
        # by the intervals being drawn beside it.
        self.listed = threading.Event()
        self._closed = threading.Event()
        # A daemon thread: a server stopped while a large run's intervals are being drawn
        # exits at once instead of waiting for them (its query is interrupted and the thread
        # joined before the interpreter finalizes: `stopping`).
        stopping.native_thread(self._compute_overviews, "overview", stop=self._stop_overviews)
        for checks in self.checks:
            checks.start()

    def source(self, request: Request) -> RunSource:
        index = int(request.path_params["run"])
        if not 0 <= index < len(self.sources):
            raise UsageError(f"no run {index}")
        return self.sources[index]

    def runs(self) -> list[dict[str, Any]]:
        return [
            {**run_row(i, s), "checks": self.checks[i].summary()}
            for i, s in enumerate(self.sources)
        ]

    def _compute_overviews(self) -> None:
        # imported here, as the building of documents is: the server answers its first
        # requests (the list) before the report's and the scorer's modules are loaded
        from packetbench.benchmark.viewer.overview import keep, kept, overview

        # Overviews kept from an earlier start are answered at once; only the others wait
        # for the list and are computed (and kept).
        waiting = []
        for source, future in zip(self.sources, self._overviews, strict=True):
            try:
                found = kept(source, self.pages.cache)  # a query on the run's results
            except BaseException as error:
                self._failed(future, error)
                continue
            if found is None:
                waiting.append((source, future))
            else:
                future.set_result(found)
        if waiting:
            self.listed.wait(timeout=OVERVIEW_DELAY)
        for source, future in waiting:
            if self._ending():
                future.set_exception(Stopping())  # a request waiting for it answers 503
                continue
            try:
                shown = overview(source)
                keep(source, self.pages.cache, shown)
                future.set_result(shown)
            except BaseException as error:
                self._failed(future, error)

    def _failed(self, future: Future[dict[str, Any]], error: BaseException) -> None:
        """An overview that could not be had, handed to the request that asks for it: a
        signal's interrupt of its query (Terminated or InterruptException) as Stopping."""
        stopped = isinstance(error, KeyboardInterrupt) or stopping.interrupted_error(error)
        future.set_exception(Stopping() if stopped or self._ending() else error)

    def _ending(self) -> bool:
        """Closed, ending, or signalled to stop: no overview is computed or handed out."""
        return self._closed.is_set() or stopping.exiting() or stopping.signalled() is not None

    def overview(self, index: int) -> dict[str, Any]:
        return self._overviews[index].result()

    def opened(self, run: int, packet_id: str, doc_id: str) -> tuple[Packet, DocInfo]:
        """A document of run `run`, once its files are checked (Refused when they differ)."""
        packet, doc = self.sources[run].document(packet_id, doc_id)
        self.checks[run].require(packet, doc)
        return packet, doc

    def document(self, run: int, packet_id: str, doc_id: str) -> index.Index:
        """The index of a document's view: read from the cache, or built the first time."""
        source = self.sources[run]
        packet, doc = self.opened(run, packet_id, doc_id)
        name = index.key(
            source.recorded[packet.packet_id],
            doc.doc_id,
            source.outcomes_from(packet, doc),
        )

        def build() -> dict[str, Any]:
            from packetbench.benchmark.viewer import document

            return index.split(document.build(source, self.pages, packet.packet_id, doc.doc_id))

        return self.indexes.get(name, build)

    def pdf(self, sha: str) -> Path:
        """The file of a document whose sha256 is `sha`, once checked; UsageError when no
        document is that file, Refused when every document said to be it differs."""
        found = self._files.get(sha)
        if not found:
            raise UsageError("no such document file")
        refused: str | None = None
        for run, packet, doc in found:
            reason = self.checks[run].check(packet, doc)
            if reason is None:
                return packet.path / doc.file
            refused = refused or reason
        raise Refused(refused or "no such document file")

    def _stop_overviews(self) -> None:
        self._closed.set()
        self.listed.set()  # the overview's thread stops waiting, and computes nothing more

    def close(self) -> None:
        self._stop_overviews()
        for checks in self.checks:
            checks.stop()
        for source in self.sources:
            source.close()


def _guard(handler: Callable[[Viewer, Request], Response]) -> Callable[[Request], Any]:
    """An endpoint whose bad requests answer 400 with one line, never a traceback."""

    def endpoint(request: Request) -> Response:
        viewer: Viewer = request.app.state.viewer
        try:
            return handler(viewer, request)
        except (UsageError, ValueError, OverflowError) as error:
            return _json({"error": public(str(error))}, 400)
        except InputError as error:
            return _json({"error": public(str(error))}, 422)
        except Stopping:
            return _json({"error": "the viewer is stopping"}, 503)

    return endpoint


def _index(viewer: Viewer, request: Request) -> Response:
    del viewer, request
    return Response(
        (assets() / "index.html").read_bytes(), media_type="text/html", headers=SECURITY
    )


def _asset(viewer: Viewer, request: Request) -> Response:
    del viewer
    name = request.path_params["name"]
    if name not in ASSETS:
        return _json({"error": "not found"}, 404)
    return Response((assets() / name).read_bytes(), media_type=ASSETS[name], headers=SECURITY)


def _runs(viewer: Viewer, request: Request) -> Response:
    del request
    return _json(viewer.runs())


def _checks(viewer: Viewer, request: Request) -> Response:
    viewer.source(request)
    return _json(viewer.checks[int(request.path_params["run"])].summary())


def _overview(viewer: Viewer, request: Request) -> Response:
    viewer.source(request)
    return _json(viewer.overview(int(request.path_params["run"])))


def _documents(viewer: Viewer, request: Request) -> Response:
    source = viewer.source(request)
    checks = viewer.checks[int(request.path_params["run"])]
    listing = source.listing(Query.parse(dict(request.query_params)))
    for row in listing.rows:
        row["check"] = checks.state(row["packet_id"], row["doc_id"])
    viewer.listed.set()
    return _json(
        {
            "rows": listing.rows,
            "total": listing.total,
            "facets": listing.facets,
            "scored": listing.scored,
        }
    )


def _part(viewer: Viewer, request: Request, name: str) -> Response:
    viewer.source(request)
    params = request.path_params
    found = viewer.document(int(params["run"]), params["packet"], params["doc"])
    return Response(found.part(name), media_type="application/json", headers=SECURITY)


def _document(viewer: Viewer, request: Request) -> Response:
    return _part(viewer, request, "summary")


def _document_part(viewer: Viewer, request: Request) -> Response:
    name = request.path_params["part"]
    if not PART.match(name):
        raise UsageError(f"no part {name[:40]!r} (page-N, fields-K, claims-K or cells)")
    return _part(viewer, request, name)


def _grid(viewer: Viewer, request: Request) -> Response:
    viewer.source(request)
    params = request.path_params
    packet, doc = viewer.opened(int(params["run"]), params["packet"], params["doc"])
    return _json(grid.grid(packet.path / doc.file, doc.format))


def _page(viewer: Viewer, request: Request) -> Response:
    sha = request.path_params["sha"]
    scale = int(request.query_params.get("scale") or 2)
    image = viewer.pages.image(viewer.pdf(sha), sha, int(request.path_params["page"]), scale)
    return FileResponse(
        image, media_type="image/png", headers={**SECURITY, "Cache-Control": "max-age=3600"}
    )


def make_app(viewer: Viewer, port: int) -> LocalOnly:
    """The ASGI app over `viewer` served at 127.0.0.1:`port` (GET only: the viewer changes
    nothing; `LocalOnly`: only its own pages may ask)."""
    routes = [
        Route("/", _guard(_index)),
        Route("/static/{name}", _guard(_asset)),
        Route("/api/runs", _guard(_runs)),
        Route("/api/runs/{run:int}/checks", _guard(_checks)),
        Route("/api/runs/{run:int}/overview", _guard(_overview)),
        Route("/api/runs/{run:int}/documents", _guard(_documents)),
        Route("/api/runs/{run:int}/documents/{packet}/{doc}", _guard(_document)),
        Route("/api/runs/{run:int}/documents/{packet}/{doc}/{part}", _guard(_document_part)),
        Route("/api/runs/{run:int}/grid/{packet}/{doc}", _guard(_grid)),
        Route("/pages/{sha}/{page:int}", _guard(_page)),
    ]
    app = Starlette(routes=routes)
    app.state.viewer = viewer
    return LocalOnly(app, port)


def bind(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:`port` (0: any free port); BadInput when the port is
    taken, before anything else starts."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise BadInput(f"127.0.0.1:{port}: port in use (choose another with --port)") from None
        raise BadInput(f"127.0.0.1:{port}: cannot listen ({error.strerror})") from None
    return sock


def serve(viewer: Viewer, sock: socket.socket, on_ready: Callable[[str], None]) -> None:
    """Serve `viewer` on `sock` until interrupted (Ctrl-C, SIGTERM)."""
    import uvicorn

    host, port = sock.getsockname()[:2]
    config = uvicorn.Config(
        make_app(viewer, port), log_level="warning", access_log=False, lifespan="off"
    )
    url = f"http://{host}:{port}/"

    class Server(uvicorn.Server):
        """Says it serves once it does: a stop that comes after the line is uvicorn's to
        handle (before, it could come between the line and the loop, and leave the server's
        coroutine never awaited, with a warning)."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if not self.should_exit:
                on_ready(url)

    server = Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        viewer.close()
        sock.close()
