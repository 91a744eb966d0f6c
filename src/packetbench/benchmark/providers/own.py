"""What the providers of a system of one's own share (`command`: a program; `http`: a service).

Such a system is handed the document itself and the JSON schema its answer follows (no
prompt), answers with that JSON object, may report what it spent (`USAGE`), and is known to
the response cache by its version string. The options that shape a model's request
(--reasoning, --input, --base-url, the sampling options) are refused; --cite page|box and
--confidence only change the schema it is handed.
"""

from __future__ import annotations

import json
import math
from typing import Any, ClassVar

from packetbench.benchmark.providers.api import ApiProvider, ApiSettings, Prompt, ProviderFailure
from packetbench.core.errors import UsageError

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
