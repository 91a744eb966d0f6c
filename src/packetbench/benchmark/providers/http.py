"""`http`: a service of one's own, sent each document (`--url URL`).

The contract (docs/own-system.md): each document is one POST to the URL, a
multipart/form-data body with the parts

    file           the document's bytes (its file name, its content type: `CONTENT_TYPES`)
    schema         the JSON schema the answer must follow (JSON text)
    document_type  the document type (the schema's name), e.g. sov
    document_id    the document's id in its packet
    packet_id      the packet's id
    format         pdf, xlsx or csv

and the headers given with `--header "Name: value"`. The service answers 200 with one JSON
object as the body; a response header

    packetbench-usage: {"cost_usd": 0.0012, "input_tokens": 900, "output_tokens": 150}

(every key optional) reports what it spent. 429, 408, 409 and 5xx, a connection that fails
and no answer within --timeout are retried with the API providers' back-off (a `retry-after`
header is honoured); any other status is that document's error record, with the first line
of the body. A body over `MAX_BODY` bytes is not read further and is the document's error
record. The response cache knows the service by its version string: `--system-version`, else
the first line of the body of `GET URL/version` (or its JSON object's "version").
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from packetbench.benchmark.providers.api import (
    ApiSettings,
    Prompt,
    ProviderFailure,
    Reply,
    parse_retry_after,
    settings_from_options,
    transient_status,
)
from packetbench.benchmark.providers.base import Provider
from packetbench.benchmark.providers.own import CONTENT_TYPES, USAGE, OwnSystem, parse_usage
from packetbench.core.errors import UsageError
from packetbench.truth.packets import DocInfo, Packet

if TYPE_CHECKING:
    import httpx

MAX_BODY = 16 * 1024 * 1024  # an answer is a few kilobytes; beyond this it is not one
ERROR_BODY = 4096  # what is read of an error's body, for its first line
VERSION_TIMEOUT_S = 30.0
VERSION_PATH = "/version"
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # an HTTP header name (RFC 9110 token)


def check_url(url: str) -> str:
    """`url` if it is an http(s) URL with a host (UsageError, one line, otherwise)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"--url {url!r}: give an http:// or https:// URL with a host")
    return url


def shown_url(url: str) -> str:
    """`url` as run.json records it: no user or password, no query string (either may hold
    a key)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port is not None else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def version_url(url: str) -> str:
    """Where the service's version is asked: the URL's path followed by `/version`."""
    parts = urlsplit(url)
    return urlunsplit(
        (parts.scheme, parts.netloc, parts.path.rstrip("/") + VERSION_PATH, parts.query, "")
    )


def parse_headers(given: list[str] | tuple[str, ...]) -> list[tuple[str, str]]:
    """The `--header "Name: value"` options as (name, value) pairs (UsageError, one line,
    naming neither value, for one that is not a header)."""
    headers: list[tuple[str, str]] = []
    for text in given:
        name, colon, value = text.partition(":")
        name = name.strip()
        if not colon or not _TOKEN.match(name):
            shown = name if _TOKEN.match(name) else "..."
            raise UsageError(f'--header {shown}: give "Name: value" (a header name, a colon)')
        if "\r" in value or "\n" in value:
            raise UsageError(f"--header {name}: a value cannot hold a line break")
        headers.append((name, value.strip()))
    return headers


def _first_line(data: bytes) -> str:
    text = data.decode("utf-8", "replace").strip()
    return text.splitlines()[0].strip()[:300] if text else ""


def service_version(url: str, headers: list[tuple[str, str]]) -> str:
    """The version the service reports at `version_url` (UsageError, one line, without)."""
    import httpx

    asked = shown_url(version_url(url))
    hint = "give the version with --system-version"
    try:
        response = httpx.get(version_url(url), headers=headers, timeout=VERSION_TIMEOUT_S)
    except httpx.TimeoutException:
        raise UsageError(
            f"--url: GET {asked} gave no answer within {VERSION_TIMEOUT_S:g} s; {hint}"
        ) from None
    except httpx.HTTPError as error:
        raise UsageError(f"--url: GET {asked} failed ({error}); {hint}") from None
    line = _first_line(response.content[:ERROR_BODY])
    with_json = response.headers.get("content-type", "").startswith("application/json")
    if with_json or line.startswith("{"):
        try:
            data = json.loads(response.content)
        except json.JSONDecodeError:
            data = None
        line = (
            data["version"].strip()
            if isinstance(data, dict) and isinstance(data.get("version"), str)
            else ""
        )
    if response.status_code != 200 or not line:
        raise UsageError(
            f"--url: GET {asked} gave no version (status {response.status_code}); {hint}"
        )
    return line[:200]


class HttpProvider(OwnSystem):
    name = "http"
    sdk = "http"  # run.json's versions: the service's version string under this name
    sdk_module = "httpx"
    default_retries = 6  # a service's 429s and 503s, as a model API's

    def __init__(
        self, settings: ApiSettings, url: str, headers: list[tuple[str, str]], version: str
    ) -> None:
        super().__init__(settings, version)
        self.url = check_url(url)
        self.headers = headers
        self._client: httpx.AsyncClient | None = None

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Provider:
        url = options.get("url")
        if not url:
            raise UsageError("provider http needs --url, the address each document is POSTed to")
        check_url(url)
        headers = parse_headers(list(options.get("headers") or ()))
        version = (options.get("system_version") or "").strip() or service_version(url, headers)
        # The run's name on reports and boards: --model when given, else the version.
        settings = settings_from_options(options, model=options.get("model") or version)
        return cls(settings, url, headers, version)

    # -- what run.json records ---------------------------------------------------------------

    def identity(self) -> dict[str, Any]:
        # Header names only: their values are often keys.
        return {"url": shown_url(self.url), "headers": [name for name, _ in self.headers]}

    def describe(self) -> dict[str, Any]:
        return self.own_description(self.identity())

    def secrets(self) -> list[str]:
        # Never written anywhere (the request log is redacted of them too).
        return [value for _, value in self.headers if len(value) >= 4]

    # -- one document --------------------------------------------------------------------------

    def document_request(
        self,
        prompt: Prompt,
        schema_name: str,
        schema: dict[str, Any],
        packet: Packet,
        doc: DocInfo,
    ) -> dict[str, Any]:
        return {
            "path": str(packet.path / doc.file),
            "filename": Path(doc.file).name,
            "content_type": CONTENT_TYPES.get(doc.format, "application/octet-stream"),
            "fields": {
                "schema": json.dumps(schema, ensure_ascii=False),
                "document_type": doc.doc_type,
                "document_id": doc.doc_id,
                "packet_id": packet.packet_id,
                "format": doc.format,
            },
        }

    def _connect(self) -> httpx.AsyncClient:
        import httpx

        if self._client is None:
            self._client = httpx.AsyncClient(
                headers=self.headers,
                timeout=httpx.Timeout(self.settings.timeout_s),
                limits=httpx.Limits(max_connections=max(1, self.concurrency)),
                follow_redirects=False,
            )
        return self._client

    async def send(self, request: dict[str, Any]) -> Reply:
        if "path" not in request:  # a question with no document (the classifier's)
            raise self.no_document()
        timeout = self.settings.timeout_s
        try:
            return await asyncio.wait_for(self._post(request), timeout)
        except TimeoutError:
            raise ProviderFailure("timeout", f"no answer within {timeout:g} s") from None

    async def _post(self, request: dict[str, Any]) -> Reply:
        import httpx

        data = await asyncio.to_thread(Path(request["path"]).read_bytes)
        files = {"file": (request["filename"], data, request["content_type"])}
        client = self._connect()
        try:
            async with client.stream(
                "POST", self.url, data=request["fields"], files=files
            ) as response:
                status = response.status_code
                if status != 200:
                    body = await _read(response, ERROR_BODY)
                    raise self._failure(status, _first_line(body), response.headers)
                body = await _read(response, MAX_BODY)
                if len(body) > MAX_BODY:
                    raise ProviderFailure(
                        "rejected", f"answered more than {MAX_BODY:,} bytes (not read further)"
                    )
                usage_header = response.headers.get(USAGE)
        except httpx.TimeoutException:
            raise ProviderFailure(
                "timeout", f"no answer within {self.settings.timeout_s:g} s"
            ) from None
        except httpx.HTTPError as error:
            raise ProviderFailure(
                "connection", f"{shown_url(self.url)}: {type(error).__name__}: {error}"
            ) from None
        usage, note = parse_usage(usage_header) if usage_header is not None else ({}, None)
        return Reply(
            text=body.decode("utf-8", "replace"),
            finish_reason="200",
            input_tokens=int(usage.get("input_tokens", 0)),
            output_tokens=int(usage.get("output_tokens", 0)),
            reasoning_tokens=int(usage.get("reasoning_tokens", 0)),
            note=note,
            cost_usd=usage.get("cost_usd"),
        )

    def _failure(self, status: int, said: str, headers: Any) -> ProviderFailure:
        """429, 408, 409 and 5xx are retried (as a model API's); any other status is final
        for this document only."""
        message = f"status {status}" + (f": {said}" if said else "")
        retried = transient_status(status, message, parse_retry_after(headers))
        return retried or ProviderFailure("rejected", message, status=status)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


async def _read(response: httpx.Response, cap: int) -> bytes:
    """Up to `cap` + 1 bytes of the body: one more than `cap` tells it was longer, and the
    rest is never read (the connection is closed, not drained)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size > cap:
            break
    return b"".join(chunks)[: cap + 1]
