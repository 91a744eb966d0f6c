"""Extraction providers, registered by name and imported only when asked for.

A provider is one module of this package (its class, with what it is: an API provider's SDK,
its keys' environment variables, its batch API) and one registration below, which names the
module and class without importing them, so a provider's SDK is never loaded by a command
that does not use it (`packetbench generate` loads none) and the command line's help reads the
names at no cost. Everything that lists providers takes the list from here: the judges of
`packetbench verify` (every API provider is one), the stub servers (`harness.stub`: the wire
protocol each speaks), the help texts and the messages naming the providers with a batch API.
Adding a provider is adding its module and its registration (and, for a wire protocol no stub
speaks yet, that protocol's stub API). A provider of another package is a plug-in
(`plugins`): found by `provider_class` when no provider here has its name.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from packetbench.core.registry import Registry, UnknownName

if TYPE_CHECKING:
    from packetbench.benchmark.providers.base import Provider


@dataclass(frozen=True)
class ProviderSpec:
    name: str
    module: str  # a module of this package, or a dotted path (a provider of one's own)
    cls: str
    # The simulator: no model, no key, no request (every other provider is an API provider).
    simulator: bool = False
    # The wire protocol its stub server speaks (harness.stub.apis): its own name unless it
    # speaks another's (an OpenAI-compatible service speaks openai's).
    speaks: str | None = None
    about: str = ""  # what the help texts say of it after its name
    # Whether it asks a model API (a judge of `verify`, with a stub server): not the
    # simulator, nor a program of one's own (`command`).
    asks_model: bool = True

    def load(self) -> type[Provider]:
        path = self.module if "." in self.module else f"{__name__}.{self.module}"
        module = importlib.import_module(path)
        found: type[Provider] = getattr(module, self.cls)
        return found

    @property
    def protocol(self) -> str:
        return self.speaks or self.name

    @property
    def kind(self) -> str:
        """What `packetbench providers` calls it: simulator, model API or your system."""
        return kind_name(self.simulator, self.asks_model)


def kind_name(simulator: bool, asks_model: bool) -> str:
    return "simulator" if simulator else "model API" if asks_model else "your system"


PROVIDERS: Registry[ProviderSpec] = Registry("provider")


def register(spec: ProviderSpec) -> ProviderSpec:
    return PROVIDERS.add(spec.name, spec)


register(ProviderSpec("anthropic", "anthropic", "AnthropicProvider"))
register(ProviderSpec("gemini", "gemini", "GeminiProvider"))
register(
    ProviderSpec(
        "openai", "openai", "OpenAIProvider", about="(any OpenAI-compatible server: --base-url)"
    )
)
register(
    ProviderSpec(
        "command",
        "command",
        "CommandProvider",
        asks_model=False,
        about='(a program of your own: --command "CMD {file} {schema}")',
    )
)
register(
    ProviderSpec(
        "http",
        "http",
        "HttpProvider",
        asks_model=False,
        about="(a service of your own: --url URL)",
    )
)
register(
    ProviderSpec(
        "sim",
        "sim",
        "SimProvider",
        simulator=True,
        about="(the SIMULATED extractor: no API key, not a model)",
    )
)


def provider_class(name: str) -> type[Provider]:
    """The provider class registered as `name`, built in or a plug-in's (`UnknownName`,
    exit 2, lists the others; a broken plug-in is one line naming its entry point)."""
    spec = PROVIDERS.get(name)
    if spec is not None:
        return spec.load()
    from packetbench.benchmark.providers import plugins

    plugin = plugins.find(name)
    if plugin is None:
        known = sorted({*PROVIDERS.names(), *(p.name for p in plugins.plugins())})
        raise UnknownName(f"unknown provider {name!r}; known: {', '.join(known)}")
    return plugin.load()


def api_providers() -> list[str]:
    """The names of the providers that ask a model (not the simulator, not a program)."""
    return [name for name, spec in PROVIDERS.items() if spec.asks_model and not spec.simulator]


def batch_providers() -> list[str]:
    """The names of the providers with a batch API (their classes say so: imports them)."""
    from packetbench.benchmark.providers.batch import BatchProvider

    return [name for name in api_providers() if issubclass(provider_class(name), BatchProvider)]


def listed(names: list[str] | None = None, with_about: bool = True) -> str:
    """`names` (default: every provider) as help texts list them: "openai (...), anthropic,
    gemini or sim (...)"."""
    chosen = list(PROVIDERS.names()) if names is None else names
    words = [
        f"{name} {PROVIDERS[name].about}" if with_about and PROVIDERS[name].about else name
        for name in chosen
    ]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
