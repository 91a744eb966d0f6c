"""A provider of one's own for the registry's test: an OpenAI-compatible service with a key
of its own (`tests/benchmark/providers/test_registry.py`)."""

from __future__ import annotations

from typing import ClassVar

from packetbench.benchmark.providers.openai import OpenAIProvider


class AcmeProvider(OpenAIProvider):
    name = "acme"
    env_keys: ClassVar[tuple[str, ...]] = ("ACME_API_KEY",)
