"""Extraction providers, registered by name and imported only when asked for.

Each entry of `PROVIDERS` is a factory that imports its provider's module when called, so a
provider's SDK is never loaded by a command that does not use it (`packetbench generate` loads
none). Adding a provider is adding a module and a factory here.
"""

from __future__ import annotations

from collections.abc import Callable

from packetbench.benchmark.providers.base import Provider
from packetbench.core.registry import Registry

PROVIDERS: Registry[Callable[[], type[Provider]]] = Registry("provider")
provider = PROVIDERS.register


@provider("anthropic")
def _anthropic() -> type[Provider]:
    from packetbench.benchmark.providers.anthropic import AnthropicProvider

    return AnthropicProvider


@provider("gemini")
def _gemini() -> type[Provider]:
    from packetbench.benchmark.providers.gemini import GeminiProvider

    return GeminiProvider


@provider("openai")
def _openai() -> type[Provider]:
    from packetbench.benchmark.providers.openai import OpenAIProvider

    return OpenAIProvider


@provider("sim")
def _sim() -> type[Provider]:
    from packetbench.benchmark.providers.sim import SimProvider

    return SimProvider


def provider_class(name: str) -> type[Provider]:
    """The provider class registered as `name` (`UnknownName`, exit 2, lists the others)."""
    return PROVIDERS[name]()
