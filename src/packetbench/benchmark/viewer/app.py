"""The viewer served on 127.0.0.1: a Starlette app under uvicorn, read-only.

Routes: the single-page app (``/``, ``/static/app.js``, ``/static/app.css``) and its JSON
API: ``/api/runs``, ``/api/runs/{i}/overview``, ``/api/runs/{i}/documents`` (one page of the
list, filters as query parameters), ``/api/runs/{i}/documents/{packet}/{doc}``,
``/api/runs/{i}/grid/{packet}/{doc}`` and page images ``/pages/{sha256}/{page}?scale=N``.
A document is only ever found among a run's listed documents, and a page image only among
their files: nothing a request names becomes a path.
"""

from __future__ import annotations

import errno
import socket
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from packetbench.benchmark.errors import BadInput, UsageError
from packetbench.benchmark.viewer import document, grid
from packetbench.benchmark.viewer.overview import overview
from packetbench.benchmark.viewer.pages import Pages
from packetbench.benchmark.viewer.source import Query, RunSource
from packetbench.errors import InputError
from packetbench.resources import resource_dir

ASSETS = {"app.js": "text/javascript", "app.css": "text/css"}
# Documents built lately, kept as their JSON (a long document takes seconds to build; opened
# again, it is sent at once), up to this many bytes.
DOCUMENT_CACHE_BYTES = 256 * 1024 * 1024
# The page loads its own script, style and images and nothing else.
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def assets() -> Path:
    return resource_dir("templates") / "viewer"


def to_json(data: Any) -> bytes:
    return orjson.dumps(data, default=str, option=orjson.OPT_NON_STR_KEYS)


def _json(data: Any, status: int = 200) -> Response:
    return Response(to_json(data), status, media_type="application/json", headers=SECURITY)


class Viewer:
    """The runs being viewed, their page images, and each run's overview (computed in the
    background from the start: a large run's intervals take seconds, its list does not)."""

    def __init__(self, sources: list[RunSource], pages: Pages) -> None:
        self.sources = sources
        self.pages = pages
        self._files: dict[str, Path] = {}
        for source in sources:
            for packet, doc in source.documents:
                sha = source.hashes[f"{packet.packet_id}/{doc.doc_id}"]["file"]
                if doc.format == "pdf":
                    self._files[sha] = packet.path / doc.file
        self._overviews: list[Future[dict[str, Any]]] = [Future() for _ in sources]
        # A daemon thread: a server stopped while a large run's intervals are being drawn
        # exits at once instead of waiting for them.
        threading.Thread(target=self._compute_overviews, name="overview", daemon=True).start()
        self._lock = threading.Lock()
        self._documents: OrderedDict[tuple[int, str, str], bytes] = OrderedDict()

    def source(self, request: Request) -> RunSource:
        index = int(request.path_params["run"])
        if not 0 <= index < len(self.sources):
            raise UsageError(f"no run {index}")
        return self.sources[index]

    def runs(self) -> list[dict[str, Any]]:
        return [
            {
                "index": i,
                "name": s.name,
                "scored": s.scored,
                "documents": len(s.documents),
                "model": s.info.get("model"),
                "provider": s.info.get("provider"),
                "simulator": bool(s.info.get("simulator", False)),
                "status": s.info.get("status"),
            }
            for i, s in enumerate(self.sources)
        ]

    def _compute_overviews(self) -> None:
        for source, future in zip(self.sources, self._overviews, strict=True):
            try:
                future.set_result(overview(source))
            except BaseException as error:  # handed to the request that asks for it
                future.set_exception(error)

    def overview(self, index: int) -> dict[str, Any]:
        return self._overviews[index].result()

    def document(self, index: int, packet_id: str, doc_id: str) -> bytes:
        """The JSON of a document's view, from the cache of documents built lately."""
        key = (index, packet_id, doc_id)
        with self._lock:
            found = self._documents.get(key)
            if found is not None:
                self._documents.move_to_end(key)
                return found
        built = to_json(document.build(self.sources[index], self.pages, packet_id, doc_id))
        with self._lock:
            self._documents[key] = built
            while sum(map(len, self._documents.values())) > DOCUMENT_CACHE_BYTES:
                self._documents.popitem(last=False)
        return built

    def pdf(self, sha: str) -> Path:
        found = self._files.get(sha)
        if found is None:
            raise UsageError("no such document file")
        return found

    def close(self) -> None:
        for source in self.sources:
            source.close()


def _guard(handler: Callable[[Viewer, Request], Response]) -> Callable[[Request], Any]:
    """An endpoint whose bad requests answer 400 with one line, never a traceback."""

    def endpoint(request: Request) -> Response:
        viewer: Viewer = request.app.state.viewer
        try:
            return handler(viewer, request)
        except (UsageError, ValueError) as error:
            return _json({"error": str(error)}, 400)
        except InputError as error:
            return _json({"error": str(error)}, 422)

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


def _overview(viewer: Viewer, request: Request) -> Response:
    viewer.source(request)
    return _json(viewer.overview(int(request.path_params["run"])))


def _documents(viewer: Viewer, request: Request) -> Response:
    source = viewer.source(request)
    listing = source.listing(Query.parse(dict(request.query_params)))
    return _json(
        {
            "rows": listing.rows,
            "total": listing.total,
            "facets": listing.facets,
            "scored": listing.scored,
        }
    )


def _document(viewer: Viewer, request: Request) -> Response:
    viewer.source(request)
    params = request.path_params
    body = viewer.document(int(params["run"]), params["packet"], params["doc"])
    return Response(body, media_type="application/json", headers=SECURITY)


def _grid(viewer: Viewer, request: Request) -> Response:
    source = viewer.source(request)
    packet, doc = source.document(request.path_params["packet"], request.path_params["doc"])
    return _json(grid.grid(packet.path / doc.file, doc.format))


def _page(viewer: Viewer, request: Request) -> Response:
    sha = request.path_params["sha"]
    scale = int(request.query_params.get("scale") or 2)
    image = viewer.pages.image(viewer.pdf(sha), sha, int(request.path_params["page"]), scale)
    return FileResponse(
        image, media_type="image/png", headers={**SECURITY, "Cache-Control": "max-age=3600"}
    )


def make_app(viewer: Viewer) -> Starlette:
    """The ASGI app over `viewer` (GET only: the viewer changes nothing)."""
    routes = [
        Route("/", _guard(_index)),
        Route("/static/{name}", _guard(_asset)),
        Route("/api/runs", _guard(_runs)),
        Route("/api/runs/{run:int}/overview", _guard(_overview)),
        Route("/api/runs/{run:int}/documents", _guard(_documents)),
        Route("/api/runs/{run:int}/documents/{packet}/{doc}", _guard(_document)),
        Route("/api/runs/{run:int}/grid/{packet}/{doc}", _guard(_grid)),
        Route("/pages/{sha}/{page:int}", _guard(_page)),
    ]
    app = Starlette(routes=routes)
    app.state.viewer = viewer
    return app


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
    config = uvicorn.Config(make_app(viewer), log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    on_ready(f"http://{host}:{port}/")
    try:
        server.run(sockets=[sock])
    finally:
        viewer.close()
        sock.close()
