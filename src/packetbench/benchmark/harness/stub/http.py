"""A small asyncio HTTP/1.1 server: keep-alive, Content-Length or chunked request bodies.

Enough of HTTP for the provider SDKs talking to a stub on 127.0.0.1, and fast enough that the
stub is never what a harness benchmark measures. A handler returns a `Response`, or `HANG`
to hold the connection without answering (a hung upstream).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


@dataclass
class Request:
    method: str
    path: str  # without the query string
    query: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body or b"null")


@dataclass
class Response:
    status: int
    body: Any  # JSON-able
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None  # sent as it is instead of `body` (a file's content, JSONL)


HANG = object()  # a handler's answer meaning "never answer"
Handler = Callable[[Request], Awaitable["Response | object"]]


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if headers.get("transfer-encoding", "").lower() == "chunked":
        chunks: list[bytes] = []
        while True:
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                await reader.readline()
                return b"".join(chunks)
            chunks.append(await reader.readexactly(size))
            await reader.readline()
    length = int(headers.get("content-length", "0") or 0)
    return await reader.readexactly(length) if length else b""


class Server:
    def __init__(self, handler: Handler, hang_s: float) -> None:
        self.handler = handler
        self.hang_s = hang_s
        self._server: asyncio.Server | None = None
        self.port = 0

    async def start(self, port: int = 0) -> int:
        """Listen on 127.0.0.1:`port` (0: a free port the system picks); the port."""
        self._server = await asyncio.start_server(self._connection, "127.0.0.1", port, limit=2**26)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                method, target, _ = line.decode("latin-1").split(" ", 2)
                headers: dict[str, str] = {}
                while True:
                    header = await reader.readline()
                    if header in (b"\r\n", b"\n", b""):
                        break
                    name, _, value = header.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = await _read_body(reader, headers)
                path, _, query = target.partition("?")
                answer = await self.handler(Request(method, path, query, headers, body))
                if answer is HANG or not isinstance(answer, Response):
                    await asyncio.sleep(self.hang_s)
                    return
                payload = answer.raw if answer.raw is not None else json.dumps(answer.body).encode()
                kind = "application/octet-stream" if answer.raw is not None else "application/json"
                head = [
                    f"HTTP/1.1 {answer.status} {REASONS.get(answer.status, 'Status')}",
                    f"content-type: {kind}",
                    f"content-length: {len(payload)}",
                    *(f"{k}: {v}" for k, v in answer.headers.items()),
                ]
                writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload)
                await writer.drain()
                if headers.get("connection", "").lower() == "close":
                    return
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            return
        except asyncio.CancelledError:
            return
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
