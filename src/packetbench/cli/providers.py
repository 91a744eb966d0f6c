"""`packetbench providers`: the providers `--provider` takes, built in and plug-ins."""

from __future__ import annotations

import typer


def providers() -> None:
    """List every provider `extract --provider` and `run --provider` take: its name, its
    kind, and where it comes from (built in, or a plug-in's package and version).

    Plug-ins are the entry points of the group `packetbench.providers` (docs/own-system.md);
    each is imported to check it. A broken one (it does not import, is no provider class, or
    takes a built-in's name) is one line on stderr naming its entry point; the others are
    listed. Exit 0.
    """
    from packetbench.benchmark.providers import PROVIDERS, kind_name, plugins
    from packetbench.benchmark.providers.api import ApiProvider
    from packetbench.benchmark.providers.own import OwnSystem

    rows: list[tuple[str, str, str]] = []
    for name, spec in PROVIDERS.items():
        rows.append((name, spec.kind, "built in"))
    broken: list[str] = []
    for plugin in plugins.plugins():
        try:
            cls = plugin.load()
        except plugins.BrokenPlugin as error:
            broken.append(str(error))
            continue
        asks_model = issubclass(cls, ApiProvider) and not issubclass(cls, OwnSystem)
        kind = kind_name(cls.simulator, asks_model)
        rows.append((plugin.name, kind, f"plug-in: {plugin.origin} ({plugin.value})"))
    width = max(len(name) for name, _, _ in rows)
    kinds = max(len(kind) for _, kind, _ in rows)
    for name, kind, origin in rows:
        typer.echo(f"{name:<{width}}  {kind:<{kinds}}  {origin}")
    for line in broken:
        typer.echo(f"packetbench: {line}", err=True)


def register(app: typer.Typer) -> None:
    app.command("providers", short_help="List the providers: built in and plug-ins.")(providers)
