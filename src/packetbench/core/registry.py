"""One registry idiom for everything that comes in kinds.

Document types, presentation patterns, extraction providers and schema namespaces are each a
`Registry`: things register under a name (with `add`, or the `register(name)` decorator) when
their module is imported, and a registry that was given a package imports that package's
modules the first time it is asked for anything, so adding a kind of thing is adding a module.
An unknown name is answered with the names that are known.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Collection, Iterator
from typing import Generic, TypeVar

from packetbench.core.errors import InputError

T = TypeVar("T")


class UnknownName(InputError, LookupError):
    """A name no registry entry has (the message lists the known ones)."""


class Registry(Generic[T]):
    """Named things of one kind, in registration order.

    `discover` names a package whose public modules (not `skip`, not starting with "_") are
    imported, in name order, before the first lookup; each registers what it defines.
    """

    def __init__(self, kind: str, *, discover: str | None = None, skip: Collection[str] = ()):
        self.kind = kind
        self._items: dict[str, T] = {}
        self._discover = discover
        self._skip = frozenset(skip)

    def add(self, name: str, item: T) -> T:
        if name in self._items:
            raise ValueError(f"{self.kind} {name!r} registered twice")
        self._items[name] = item
        return item

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator: register the decorated object under `name` and return it unchanged."""

        def decorate(item: T) -> T:
            return self.add(name, item)

        return decorate

    def _loaded(self) -> dict[str, T]:
        package_name, self._discover = self._discover, None  # once, even while importing
        if package_name is not None:
            package = importlib.import_module(package_name)
            for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
                if module.name not in self._skip and not module.name.startswith("_"):
                    importlib.import_module(f"{package_name}.{module.name}")
        return self._items

    def __getitem__(self, name: str) -> T:
        items = self._loaded()
        if name not in items:
            raise UnknownName(f"unknown {self.kind} {name!r}; known: {', '.join(sorted(items))}")
        return items[name]

    def get(self, name: str) -> T | None:
        return self._loaded().get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._loaded()

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._loaded()))

    def __len__(self) -> int:
        return len(self._loaded())

    def names(self) -> list[str]:
        return list(self._loaded())

    def values(self) -> list[T]:
        return list(self._loaded().values())

    def items(self) -> list[tuple[str, T]]:
        return list(self._loaded().items())
