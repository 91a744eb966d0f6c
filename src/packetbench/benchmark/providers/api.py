"""What every API provider shares: settings, the request/answer types, and failure kinds.

The harness (``benchmark.harness``) drives an `ApiProvider`: it builds the prompt, asks the
provider for the exact SDK arguments of one request, sends them through `send`, retries the
failures the provider classifies as transient, and turns the `Reply` into a record. A provider
therefore only knows its SDK: how to shape a request, how to read an answer, and which errors
are worth retrying.
"""

from __future__ import annotations

import math
import os
from abc import abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, ClassVar, Generic, Literal, TypeVar, cast

from packetbench.benchmark.delivery import DEFAULT_DPI, decide
from packetbench.benchmark.errors import BenchmarkError
from packetbench.benchmark.providers.base import Provider
from packetbench.benchmark.records import ExtractionRecord
from packetbench.core.errors import InputError, UsageError
from packetbench.truth.packets import DocInfo, Packet

Reasoning = Literal["default", "high", "xhigh"]
REASONING_LEVELS: tuple[str, ...] = ("default", "high", "xhigh")
InputMode = Literal["native", "text", "images"]
INPUT_MODES: tuple[str, ...] = ("native", "text", "images")

# Why a request failed. The first four are transient and retried within the budget.
FailureKind = Literal["rate_limit", "server", "timeout", "connection", "rejected", "fatal"]
TRANSIENT: frozenset[str] = frozenset({"rate_limit", "server", "timeout", "connection"})
# The prompt's last sentence where the answer comes back as structured output (every provider
# but Anthropic's forced tool, and the inspect_ai task).
JSON_ANSWER = "Answer with one JSON object that follows the schema."


@dataclass(frozen=True)
class Part:
    """One piece of a document as sent: text (a page's text layer, a sheet), a PDF, a PNG."""

    kind: Literal["text", "pdf", "png"]
    label: str
    text: str = ""
    data: bytes = b""


@dataclass(frozen=True)
class Prompt:
    """The system prompt, the instructions before the document, and the document's parts."""

    system: str
    instructions: str
    parts: tuple[Part, ...]


@dataclass
class Reply:
    """A provider's answer to one successful HTTP request, in provider-neutral terms.

    `text` is the JSON text the model produced (for a tool call, its input serialized);
    `output_tokens` excludes reasoning tokens, so the completion's use of its cap is
    ``output_tokens + reasoning_tokens`` on every provider.
    """

    text: str | None
    finish_reason: str | None
    truncated: bool = False
    refusal: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    note: str | None = None  # how the answer was read (e.g. "no tool call; read the text")
    # --cite native: the answer's text blocks with the provider's citations, as sent
    # ({"text", "citations": [...]}); None for every other answer.
    cited: list[dict[str, Any]] | None = None
    # What the answer cost as its answerer reported it (provider command's usage line);
    # None: priced from the tokens by the pricing table.
    cost_usd: float | None = None

    def to_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = {} if self.cited is None else {"cited": self.cited}
        if self.cost_usd is not None:
            extra["cost_usd"] = self.cost_usd
        return {
            "text": self.text,
            "finish_reason": self.finish_reason,
            "truncated": self.truncated,
            "refusal": self.refusal,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "reasoning_tokens": self.reasoning_tokens,
            "note": self.note,
            **extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reply:
        return cls(**data)


class ProviderFailure(Exception):
    """A request that produced no answer, classified so the harness knows what to do.

    `rate_limit`, `server`, `timeout` and `connection` are retried; `rejected` is final for
    this document only (a 400 about its content); `fatal` stops the run (bad key, unknown
    model, a reasoning level the model refuses): every further request would fail the same way.
    """

    def __init__(
        self,
        kind: FailureKind,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.retry_after = retry_after

    @property
    def transient(self) -> bool:
        return self.kind in TRANSIENT


def parse_retry_after(headers: Any) -> float | None:
    """Seconds to wait from `retry-after-ms` or `retry-after` (seconds, possibly fractional,
    or an HTTP date); None when absent or unreadable."""
    if headers is None:
        return None
    try:
        millis = headers.get("retry-after-ms")
        if millis is not None:
            return max(0.0, float(millis) / 1000)
        value = headers.get("retry-after")
    except (AttributeError, TypeError, ValueError):
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    from datetime import UTC, datetime
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(str(value))
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def transient_status(
    status: int, message: str, retry_after: float | None
) -> ProviderFailure | None:
    """The failure of a status worth retrying (429, 408, 409, 5xx), else None."""
    if status == 429:
        return ProviderFailure("rate_limit", message, status=status, retry_after=retry_after)
    if status in (408, 409) or status >= 500:
        return ProviderFailure("server", message, status=status, retry_after=retry_after)
    return None


def status_failure(
    status: int,
    message: str,
    retry_after: float | None,
    reasoning_words: tuple[str, ...],
    reasoning_sent: dict[str, Any],
    model: str,
) -> ProviderFailure:
    """Classify an HTTP error status the same way for every provider."""
    transient = transient_status(status, message, retry_after)
    if transient is not None:
        return transient
    if status in (401, 403):
        return ProviderFailure(
            "fatal", f"authentication refused ({status}): {message}", status=status
        )
    if status == 404:
        return ProviderFailure(
            "fatal", f"model {model!r} or endpoint not found (404): {message}", status=status
        )
    lowered = message.lower()
    if status == 400 and reasoning_sent and any(w in lowered for w in reasoning_words):
        return ProviderFailure(
            "fatal",
            f"model {model!r} rejected the reasoning setting {reasoning_sent} "
            f"(400): {message}; choose another --reasoning level or model",
            status=status,
        )
    return ProviderFailure("rejected", f"request rejected ({status}): {message}", status=status)


Client = TypeVar("Client")


class ClientPool(Generic[Client]):
    """A few SDK clients used in turn, each created on first use.

    httpx's connection pool looks at every idle connection each time it places a request, so
    one client holding 64 connections makes 64 socket probes per request; a client per 16
    requests in flight keeps that small. (Each client costs its TLS context, ~50 ms to make.)
    """

    PER_CLIENT = 16  # requests in flight per client

    def __init__(self, make: Callable[[], Client], concurrency: int) -> None:
        self._make = make
        self.size = max(1, -(-concurrency // self.PER_CLIENT))
        self.clients: list[Client] = []
        self._turn = 0

    def next(self) -> Client:
        if len(self.clients) < self.size:
            self.clients.append(self._make())
            return self.clients[-1]
        self._turn = (self._turn + 1) % self.size
        return self.clients[self._turn]


@dataclass(frozen=True)
class ApiSettings:
    """What a user chooses for an API run (every field is recorded in run.json)."""

    model: str
    reasoning: str = "default"
    base_url: str | None = None
    max_output_tokens: int | None = None  # None: the provider's default cap
    timeout_s: float = 600.0
    retries: int | None = None  # None: the provider's default budget
    input_mode: str = "native"
    image_dpi: int | None = None  # `--dpi`: pages of --input images rendered at (None: 150)
    delivered_dpi: int | None = None  # `--delivered-dpi`: a native PDF's pages reach the model at
    cite: str | None = None  # `--cite page|box|native`: ask for each value's evidence
    confidence: bool = False  # `--confidence`: ask for each value's confidence (0-1)
    extra: dict[str, Any] = field(default_factory=dict)
    # temperature, top_p, seed: only those given (None: the model's own), each sent as the
    # provider names it (`ApiProvider.sampling_names`)
    sampling: dict[str, float | int] = field(default_factory=dict)

    @property
    def evidence(self) -> str | None:
        """The evidence the strict schema asks for (page or box); None without --cite and
        with --cite native, whose citations come from a second request."""
        return self.cite if self.cite in ("page", "box") else None


def settings_from_options(options: dict[str, Any], **given: Any) -> ApiSettings:
    """The settings the command line's options (`Provider.from_options`) give, with the
    fields in `given` chosen by the provider itself (a program's run is named by its version,
    a model's endpoint may come from the environment)."""
    fields: dict[str, Any] = {
        "model": options.get("model") or "",
        "reasoning": options.get("reasoning") or "default",
        "base_url": options.get("base_url"),
        "max_output_tokens": options.get("max_output_tokens"),
        "timeout_s": float(600.0 if options.get("timeout") is None else options["timeout"]),
        "retries": options.get("retries"),
        "input_mode": options.get("input") or "native",
        "image_dpi": options.get("dpi"),
        "delivered_dpi": options.get("delivered_dpi"),
        "cite": options.get("cite"),
        "confidence": bool(options.get("confidence")),
        "sampling": dict(options.get("sampling") or {}),
    }
    return ApiSettings(**{**fields, **given})


# Each sampling parameter's option, for messages.
SAMPLING_OPTIONS = {"temperature": "--temperature", "top_p": "--top-p", "seed": "--sampling-seed"}


def check_sampling(provider: str, sampling: dict[str, float | int], names: dict[str, str]) -> None:
    """UsageError (one line) for a sampling parameter `provider` does not take, or a value
    out of its range."""
    for key, value in sampling.items():
        option = SAMPLING_OPTIONS[key]
        if key not in names:
            takes = ", ".join(SAMPLING_OPTIONS[k] for k in names) or "none"
            raise UsageError(
                f"{option}: provider {provider} takes no such parameter (it takes: {takes})"
            )
        if key == "temperature" and not (math.isfinite(value) and value >= 0):
            raise UsageError(f"--temperature must be 0 or more (got {value})")
        if key == "top_p" and not (math.isfinite(value) and 0 < value <= 1):
            raise UsageError(f"--top-p must be above 0 and at most 1 (got {value})")


def check_cite(cite: str | None) -> None:
    """Refuse an unknown `--cite` mode (UsageError, exit 2)."""
    from packetbench.benchmark.grounding.schema import CITE_MODES

    if cite is not None and cite not in CITE_MODES:
        raise UsageError(f"unknown --cite {cite!r}; choose {', '.join(CITE_MODES)}")


class ApiProvider(Provider):
    """A provider that calls a model API through its official SDK (imported lazily)."""

    sdk: ClassVar[str]  # the distribution name, for run.json's versions
    sdk_module: ClassVar[str]  # the package its SDK imports as (only this provider imports it)
    env_keys: ClassVar[tuple[str, ...]]  # where the API key may come from, in order
    # Where the SDK reads its endpoint when it is given none: without --base-url, the
    # endpoint it will use comes from there, and run.json (and the response cache's key)
    # records it: a run against a proxy or a local stub is not a run against the provider.
    base_url_env: ClassVar[str | None] = None
    default_max_output_tokens: ClassVar[int] = 32_000
    default_retries: ClassVar[int] = 6
    accepts_native_pdf: ClassVar[bool] = True
    page_tokens: ClassVar[int] = 1_000  # input tokens of one page image (for estimates)
    # Words of a 400 message that mean "this reasoning setting", per provider.
    reasoning_words: ClassVar[tuple[str, ...]] = ("reasoning", "effort", "thinking")
    # The sampling parameters the API takes: ours (temperature, top_p, seed) -> its name.
    sampling_names: ClassVar[dict[str, str]] = {}
    # Whether the API cites documents itself (`--cite native`: a second request per PDF).
    native_citations: ClassVar[bool] = False
    # Whether each answer reports its own cost (`Reply.cost_usd`): --max-cost then needs no
    # price in the pricing table.
    reports_cost: ClassVar[bool] = False

    def citation_request(self, prompt: Prompt, question: str) -> dict[str, Any]:
        """The second request of `--cite native` (providers with `native_citations`)."""
        raise NotImplementedError(f"provider {self.name} has no native citations")

    def __init__(self, settings: ApiSettings) -> None:
        if not settings.model:
            raise UsageError(f"--model is required for provider {self.name}")
        if settings.reasoning not in REASONING_LEVELS:
            raise UsageError(
                f"unknown reasoning level {settings.reasoning!r}; choose "
                f"{', '.join(REASONING_LEVELS)}"
            )
        if settings.input_mode not in INPUT_MODES:
            raise UsageError(
                f"unknown input {settings.input_mode!r}; choose {', '.join(INPUT_MODES)}"
            )
        if settings.max_output_tokens is not None and settings.max_output_tokens < 1:
            raise UsageError("--max-output-tokens must be at least 1")
        if not math.isfinite(settings.timeout_s) or settings.timeout_s <= 0:
            raise UsageError(
                f"--timeout must be a positive number of seconds (got {settings.timeout_s})"
            )
        if settings.retries is not None and settings.retries < 0:
            raise UsageError("--retries must be 0 or more")
        check_cite(settings.cite)
        if settings.cite == "native":
            if not self.native_citations:
                raise UsageError(
                    f"--cite native: provider {self.name} has no document citations of its own "
                    "(anthropic has); use --cite page or --cite box"
                )
            if settings.input_mode != "native":
                raise UsageError(
                    f"--cite native cites the PDF itself: it needs --input native "
                    f"(got --input {settings.input_mode})"
                )
        check_sampling(self.name, settings.sampling, self.sampling_names)
        # How the pages reach the model, recorded in run.json and scored at (docs/resolution.md).
        self.delivery = decide(
            self.name,
            settings.model,
            settings.input_mode,
            settings.image_dpi,
            settings.delivered_dpi,
            self.accepts_native_pdf,
        )
        self.settings = settings
        self.model = settings.model
        self.max_output_tokens = settings.max_output_tokens or self.default_max_output_tokens
        self.retries = self.default_retries if settings.retries is None else settings.retries
        self._key: str | None = None
        self.concurrency = 8  # requests in flight at most; the harness sets it before sending
        self._tls: Any = None

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Provider:
        return cls(
            settings_from_options(
                options, base_url=options.get("base_url") or cls.endpoint_from_environment()
            )
        )

    @classmethod
    def endpoint_from_environment(cls) -> str | None:
        """The endpoint the SDK reads from the environment (`base_url_env`), or None."""
        if cls.base_url_env is None:
            return None
        return os.environ.get(cls.base_url_env, "").strip() or None

    @property
    def image_dpi(self) -> int:
        """The resolution pages sent as images are rendered at (`--dpi`)."""
        dpi = self.delivery.dpi if self.delivery.input == "images" else None
        return DEFAULT_DPI if dpi is None else dpi

    # -- the key -----------------------------------------------------------------------------

    def api_key(self) -> str:
        """The API key from the environment; a local server (--base-url) may need none."""
        if self._key is None:
            for name in self.env_keys:
                value = os.environ.get(name, "").strip()
                if value:
                    self._key = value
                    break
            else:
                if self.settings.base_url is None:
                    raise UsageError(
                        f"provider {self.name} needs an API key in {' or '.join(self.env_keys)}"
                    )
                self._key = "unused"  # OpenAI-compatible local servers ignore it
        return self._key

    def tls(self) -> Any:
        """One TLS context for every client of this provider (each costs ~50 ms to build)."""
        if self._tls is None:
            import httpx2  # every SDK here depends on it

            self._tls = httpx2.create_ssl_context()
        return self._tls

    def secrets(self) -> list[str]:
        """Values that must never be written anywhere (the key, once read)."""
        return [self._key] if self._key and self._key != "unused" else []

    # -- what run.json records ---------------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        # `cite` appears only when asked for: a run without it records what it always did.
        cite: dict[str, Any] = {"cite": self.settings.cite} if self.settings.cite else {}
        if self.settings.confidence:
            cite["confidence"] = True
        return {
            "model": self.model,
            "simulator": False,
            # What tells two runs of one model apart, as reports and the results database show.
            "parameters": {
                "reasoning": self.settings.reasoning,
                "input": self.settings.input_mode,
                # only for page images: a run of another input records what it always did
                **({"dpi": self.delivery.dpi} if self.delivery.input == "images" else {}),
                "max_output_tokens": self.max_output_tokens,
                **cite,
                # only when given: a run without them records what it always did
                **({"sampling": self.settings.sampling} if self.settings.sampling else {}),
            },
            "reasoning": self.settings.reasoning,
            "reasoning_parameters": self.reasoning_parameters(),
            "base_url": self.settings.base_url,
            "api_key_from": list(self.env_keys),
            "input": self.settings.input_mode,
            "delivery": self.delivery.describe(),
            "max_output_tokens": self.max_output_tokens,
            "timeout_s": self.settings.timeout_s,
            "request": self.request_template(),
        }

    def sdk_version(self) -> str | None:
        try:
            return version(self.sdk)
        except PackageNotFoundError:
            return None

    def answer_instruction(self) -> str:
        """The prompt's last sentence: how to hand the answer back."""
        return JSON_ANSWER

    # -- what each provider implements -------------------------------------------------------

    @abstractmethod
    def reasoning_parameters(self) -> dict[str, Any]:
        """The request parameters the chosen --reasoning level adds ({} for default)."""

    def sampling_parameters(self) -> dict[str, Any]:
        """The sampling parameters given, under the names this provider's API uses."""
        return {self.sampling_names[k]: v for k, v in self.settings.sampling.items()}

    @abstractmethod
    def clean_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """The document schema as this provider is sent it."""

    @abstractmethod
    def build_request(
        self, prompt: Prompt, schema_name: str, schema: dict[str, Any]
    ) -> dict[str, Any]:
        """The exact keyword arguments of the SDK call for one document."""

    def document_request(
        self,
        prompt: Prompt,
        schema_name: str,
        schema: dict[str, Any],
        packet: Packet,
        doc: DocInfo,
    ) -> dict[str, Any]:
        """The request for one document of `packet` (a provider that hands over the file
        itself, not the prompt's parts, reads where it lies)."""
        return self.build_request(prompt, schema_name, schema)

    def request_template(self) -> dict[str, Any]:
        """The request with the document and prompt left out: what run.json records as the
        parameters sent (the schema appears as its name; its hash is under schemas_sent)."""
        empty = Prompt(
            system="<system prompt>",
            instructions="<instructions>",
            parts=(Part("text", "document", text="<document>"),),
        )
        return self.build_request(
            empty, "<schema>", {"<schema>": "the document schema; see schemas_sent"}
        )

    @abstractmethod
    async def send(self, request: dict[str, Any]) -> Reply:
        """Send one request; raise ProviderFailure for anything that is not an answer."""

    async def aclose(self) -> None:
        """Release the SDK client."""

    def extract(self, packet: Packet, doc: DocInfo) -> ExtractionRecord | None:
        raise NotImplementedError("API providers run through benchmark.harness")

    def finish(self, run: Path) -> None:
        return None


class PooledProvider(ApiProvider, Generic[Client]):
    """An API provider whose SDK clients live in a `ClientPool`, each made on first use."""

    _pool: ClientPool[Client] | None = None

    @abstractmethod
    def _new_client(self) -> Client:
        """One SDK client (no SDK retries: the harness retries, counts and logs)."""

    async def _close_client(self, client: Client) -> None:
        await cast(Any, client).close()

    def _connect(self) -> Client:
        if self._pool is None:
            self._pool = ClientPool(self._new_client, self.concurrency)
        return self._pool.next()

    async def aclose(self) -> None:
        if self._pool is not None:
            for client in self._pool.clients:
                await self._close_client(client)
            self._pool = None


Answer = TypeVar("Answer")


async def stainless_call(provider: ApiProvider, sdk: Any, call: Awaitable[Answer]) -> Answer:
    """Await a call of the OpenAI or Anthropic SDK (both generated by Stainless, with one
    error hierarchy), turning every error into the `ProviderFailure` the harness handles."""
    try:
        return await call
    except sdk.APITimeoutError:  # before APIConnectionError, its base class
        raise ProviderFailure(
            "timeout", f"no answer within {provider.settings.timeout_s:g} s"
        ) from None
    except sdk.APIConnectionError as error:
        raise ProviderFailure("connection", f"connection failed: {error.message}") from None
    except sdk.APIStatusError as error:
        raise status_failure(
            error.status_code,
            error_message(error),
            parse_retry_after(error.response.headers),
            provider.reasoning_words,
            provider.reasoning_parameters(),
            provider.model,
        ) from None
    except sdk.APIResponseValidationError as error:
        raise ProviderFailure("server", f"unreadable response: {error.message}") from None


def error_message(error: Any) -> str:
    """The API's own message from an SDK error's body, else the SDK's message."""
    body = getattr(error, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return str(inner["message"])
    return str(getattr(error, "message", error))


class ProviderStopped(BenchmarkError, InputError):
    """The provider refused every request (bad key, unknown model, refused setting): the run
    stopped, keeping every finished document for `--resume`."""
