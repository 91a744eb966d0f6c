"""What the providers of a system of one's own share (`command`: a program; `http`: a service).

Such a system is handed the document itself and the JSON schema its answer follows (no
prompt), answers with that JSON object, may report what it spent (`USAGE`), and is known to
the response cache by its version string. The options that shape a model's request
(--reasoning, --input, --base-url, the sampling options) are refused; --cite page|box and
--confidence only change the schema it is handed.
"""

from __future__ import annotations

import asyncio
import json
import math
from abc import abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from packetbench.benchmark.providers.api import (
    ApiProvider,
    ApiSettings,
    Prompt,
    ProviderFailure,
    Reply,
    settings_from_options,
)
from packetbench.benchmark.providers.base import Provider
from packetbench.core.errors import UsageError
from packetbench.truth.packets import DocInfo, Packet

USAGE = "packetbench-usage"  # the name of the usage report (a stderr line's prefix, a header)
USAGE_KEYS = ("cost_usd", "input_tokens", "output_tokens", "reasoning_tokens")
# A document's format -> the content type it is sent as.
CONTENT_TYPES = {
    "pdf": "application/pdf",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "csv": "text/csv",
}


def parse_usage(text: str) -> tuple[dict[str, float], str | None]:
    """The numbers of one usage report (a JSON object, every key of `USAGE_KEYS` optional),
    and a note when it cannot be read (then no numbers)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return {}, f"usage report not JSON: {text[:80]!r}"
    if not isinstance(data, dict):
        return {}, "usage report not a JSON object"
    found: dict[str, float] = {}
    for name in USAGE_KEYS:
        value = data.get(name)
        if value is None:
            continue
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value < 0
        ):
            return {}, f"usage report: {name} is not a number of 0 or more"
        found[name] = float(value)
    return found, None


class OwnSystem(ApiProvider):
    """A system of one's own, driven by the request harness like a model API (concurrency,
    retries with back-off, resume, the cost cap, the response cache)."""

    env_keys: ClassVar[tuple[str, ...]] = ()
    default_max_output_tokens = 32_000
    reports_cost = True
    page_tokens = 0

    def __init__(self, settings: ApiSettings, version: str) -> None:
        for refused, option in (
            (settings.reasoning != "default", "--reasoning"),
            (settings.input_mode != "native", "--input"),
            (settings.base_url is not None, "--base-url"),
            (settings.image_dpi is not None, "--dpi"),
            (settings.delivered_dpi is not None, "--delivered-dpi"),
        ):
            if refused:
                raise UsageError(
                    f"{option} is for model providers: provider {self.name} hands the document "
                    "file itself to your system"
                )
        super().__init__(settings)
        self.version = version

    def own_description(self, parameters: dict[str, Any]) -> dict[str, Any]:
        """run.json's description, with `parameters` (what identifies the system) and its
        version in place of a model's parameters."""
        described = super().describe()
        described["parameters"] = {
            **parameters,
            "version": self.version,
            **{k: v for k, v in described["parameters"].items() if k in ("cite", "confidence")},
        }
        described["api_key_from"] = []
        return described

    def api_key(self) -> str:
        return ""  # a system of one's own holds its own keys, if any

    def secrets(self) -> list[str]:
        return []

    def sdk_version(self) -> str | None:
        return self.version

    def reasoning_parameters(self) -> dict[str, Any]:
        return {}

    def clean_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        return schema

    def build_request(
        self, prompt: Prompt, schema_name: str, schema: dict[str, Any]
    ) -> dict[str, Any]:
        # The request template (run.json's "request", the cache key's parameters): what
        # identifies the system and its version decide an answer; no prompt is sent.
        return {**self.identity(), "version": self.version}

    def identity(self) -> dict[str, Any]:
        """What tells this system from another (the program's words, the service's URL)."""
        raise NotImplementedError

    def no_document(self) -> ProviderFailure:
        """The failure of a question with no document (the classifier's)."""
        return ProviderFailure(
            "fatal",
            f"provider {self.name} answers documents of a known type only: give each its "
            "type (--schema or --schema-map)",
        )


@dataclass(frozen=True)
class Document:
    """One document as a `SystemProvider` is handed it."""

    path: Path  # the file (pdf, xlsx or csv)
    schema: dict[str, Any]  # the JSON schema the answer follows
    document_type: str  # the schema's name, e.g. sov
    document_id: str
    packet_id: str
    format: str  # pdf, xlsx or csv


@dataclass(frozen=True)
class Answer:
    """An answer with what it cost (`SystemProvider.answer` may return the bare answer)."""

    value: dict[str, Any] | str  # the JSON object, or its text
    cost_usd: float | None = None
    input_tokens: int = 0
    output_tokens: int = 0


class SystemProvider(OwnSystem):
    """The base of a provider in Python (a plug-in): implement `answer`, set `version`.

    `answer` runs in a worker thread, `--concurrency` at a time; raising
    `ProviderFailure("server", message)` asks for a retry with back-off, any other exception
    is that document's error record (its type and first line). Its version keys the response
    cache: `--system-version` when given, else the class's `version`.
    """

    sdk = "plugin"  # run.json's versions: the provider's version under this name
    sdk_module = "packetbench"
    default_retries = 2
    version: str = ""  # the class's; an instance's is the one chosen (--system-version)

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Provider:
        version = (options.get("system_version") or "").strip() or cls.version
        if not version:
            raise UsageError(
                f"provider {cls.name} states no version: give it with --system-version"
            )
        # The run's name on reports and boards: --model when given, else the version.
        return cls(settings_from_options(options, model=options.get("model") or version), version)

    @abstractmethod
    def answer(self, document: Document) -> dict[str, Any] | str | Answer:
        """The answer to one document: a JSON object that follows `document.schema`."""

    def identity(self) -> dict[str, Any]:
        return {"provider": self.name}

    def describe(self) -> dict[str, Any]:
        return self.own_description(self.identity())

    def document_request(
        self,
        prompt: Prompt,
        schema_name: str,
        schema: dict[str, Any],
        packet: Packet,
        doc: DocInfo,
    ) -> dict[str, Any]:
        return {
            "document": Document(
                (packet.path / doc.file).resolve(),
                schema,
                doc.doc_type,
                doc.doc_id,
                packet.packet_id,
                doc.format,
            )
        }

    async def send(self, request: dict[str, Any]) -> Reply:
        if "document" not in request:  # a question with no document (the classifier's)
            raise self.no_document()
        try:
            given = await asyncio.to_thread(self.answer, request["document"])
        except ProviderFailure:
            raise
        except Exception as error:  # a third party's code: its error is one record's line
            said = str(error).strip().splitlines()
            raise ProviderFailure(
                "rejected", f"{type(error).__name__}" + (f": {said[0][:300]}" if said else "")
            ) from None
        answer = given if isinstance(given, Answer) else Answer(given)
        value = answer.value
        return Reply(
            text=value if isinstance(value, str) else json.dumps(value, ensure_ascii=False),
            finish_reason="returned",
            input_tokens=answer.input_tokens,
            output_tokens=answer.output_tokens,
            cost_usd=answer.cost_usd,
        )
