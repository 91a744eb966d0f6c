"""Keeping API keys out of every file, record and message the harness writes.

A server may echo the key it was sent (in an error body, a proxy's message); every string the
harness writes passes through `Redactor.clean` first.
"""

from __future__ import annotations

from typing import Any

import orjson

MASK = "[REDACTED]"


class Redactor:
    def __init__(self, secrets: list[str]) -> None:
        # Short values would mask ordinary words; real keys are long.
        self.secrets = sorted({s for s in secrets if len(s) >= 8}, key=len, reverse=True)
        # A secret JSON writes unescaped can be looked for in the serialized data first.
        self._plain = all(c not in '"\\' and c >= " " for s in self.secrets for c in s)

    def text(self, value: str) -> str:
        for secret in self.secrets:
            if secret in value:
                value = value.replace(secret, MASK)
        return value

    def clean(self, data: Any) -> Any:
        """`data` with every secret masked (the same object when it holds none)."""
        if not self.secrets:
            return data
        if isinstance(data, str):
            return self.text(data)
        if self._plain:
            try:
                serialized = orjson.dumps(data).decode("utf-8")
            except TypeError:  # not JSON data (a non-string key): walk it
                return self._walk(data)
            if not any(secret in serialized for secret in self.secrets):
                return data
        return self._walk(data)

    def _walk(self, data: Any) -> Any:
        if isinstance(data, str):
            return self.text(data)
        if isinstance(data, dict):
            return {self._walk(k): self._walk(v) for k, v in data.items()}
        if isinstance(data, list | tuple):
            return [self._walk(v) for v in data]
        return data
