"""Extraction providers, registered by name and imported only when asked for.

A provider module is imported the first time its name is used, so a provider's SDK is never
loaded by a command that does not use it (`packetbench generate` loads none).
"""

from __future__ import annotations

import importlib

from packetbench.benchmark.errors import UsageError
from packetbench.benchmark.providers.base import Provider

# name -> "module:class"; adding a provider is adding a module and a line here.
REGISTRY: dict[str, str] = {
    "anthropic": "packetbench.benchmark.providers.anthropic:AnthropicProvider",
    "gemini": "packetbench.benchmark.providers.gemini:GeminiProvider",
    "openai": "packetbench.benchmark.providers.openai:OpenAIProvider",
    "sim": "packetbench.benchmark.providers.sim:SimProvider",
}


def provider_class(name: str) -> type[Provider]:
    target = REGISTRY.get(name)
    if target is None:
        raise UsageError(f"unknown provider {name!r}; available: {', '.join(sorted(REGISTRY))}")
    module, _, attribute = target.partition(":")
    cls: type[Provider] = getattr(importlib.import_module(module), attribute)
    return cls
