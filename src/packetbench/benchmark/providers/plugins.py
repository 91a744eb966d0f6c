"""Providers of other packages: plug-ins registered in the entry-point group
`packetbench.providers` (docs/own-system.md, "A provider in Python").

Each entry point is a provider: its name is the name `--provider` takes, its object a class
implementing `base.Provider` (most simply a subclass of `own.SystemProvider`). Entry points
are read only when a name is not a built-in provider's, or when they are listed; a plug-in's
module is imported only then, so no other command imports any (`packetbench generate` reads
not even the list). A broken plug-in (its module does not import, its object is not a
provider class, its name is a built-in's or another plug-in's) is one line naming its entry
point, never a traceback, and spoils nothing but itself.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

from packetbench.core.errors import UsageError

if TYPE_CHECKING:
    from packetbench.benchmark.providers.base import Provider

GROUP = "packetbench.providers"


class BrokenPlugin(UsageError):
    """A plug-in that cannot be used (the message names its entry point and why)."""


@dataclass(frozen=True)
class Plugin:
    """One entry point of `GROUP`, not yet loaded."""

    name: str
    value: str  # module:attribute
    distribution: str | None
    version: str | None

    @property
    def origin(self) -> str:
        """Where it comes from: its package and version."""
        if self.distribution is None:
            return "an unknown package"
        return f"{self.distribution} {self.version}" if self.version else self.distribution

    @property
    def entry(self) -> str:
        """Its entry point as a user reads it in a message."""
        return f"plug-in provider {self.name!r} ({self.name} = {self.value}, from {self.origin})"

    def load(self) -> type[Provider]:
        """The provider class (BrokenPlugin, one line, when it is none), loaded once."""
        if self not in _LOADED:
            _LOADED[self] = self._load()
        return _LOADED[self]

    def _load(self) -> type[Provider]:
        from packetbench.benchmark.providers import PROVIDERS
        from packetbench.benchmark.providers.base import Provider

        if self.name in PROVIDERS:
            raise BrokenPlugin(f"{self.entry}: ignored, a built-in provider has that name")
        module_name, _, attribute = self.value.partition(":")
        try:
            module = importlib.import_module(module_name.strip())
            found: object = module
            for part in attribute.strip().split(".") if attribute.strip() else []:
                found = getattr(found, part)
        except Exception as error:  # whatever a third party's import raises: one line
            why = str(error).strip().splitlines()
            detail = f": {why[0]}" if why else ""
            raise BrokenPlugin(
                f"{self.entry}: cannot be loaded ({type(error).__name__}{detail})"
            ) from None
        if not (isinstance(found, type) and issubclass(found, Provider)):
            raise BrokenPlugin(
                f"{self.entry}: {self.value} is not a provider class (a subclass of "
                "packetbench.benchmark.providers.base.Provider)"
            )
        if getattr(found, "__abstractmethods__", None):
            missing = ", ".join(sorted(found.__abstractmethods__))
            raise BrokenPlugin(f"{self.entry}: {self.value} does not implement {missing}")
        if getattr(found, "name", None) != self.name:
            # Known by its entry point's name: run.json, the cache and the messages say it.
            found = type(
                found.__name__, (found,), {"name": self.name, "__module__": found.__module__}
            )
        return found


# Each plug-in's class, once loaded (its subclass named after the entry point is made once).
_LOADED: dict[Plugin, type[Provider]] = {}


def _plugin(entry: EntryPoint) -> Plugin:
    dist = entry.dist
    return Plugin(
        name=entry.name,
        value=entry.value,
        distribution=None if dist is None else dist.metadata["Name"],
        version=None if dist is None else dist.version,
    )


def plugins() -> list[Plugin]:
    """Every entry point of the group, by name (reading them imports no plug-in)."""
    return sorted((_plugin(e) for e in entry_points(group=GROUP)), key=lambda p: p.name)


def find(name: str) -> Plugin | None:
    """The plug-in named `name` (BrokenPlugin when two packages register that name)."""
    found = [p for p in plugins() if p.name == name]
    if len(found) > 1:
        raise BrokenPlugin(
            f"plug-in provider {name!r} is registered by {len(found)} packages "
            f"({', '.join(p.origin for p in found)}); uninstall all but one"
        )
    return found[0] if found else None
