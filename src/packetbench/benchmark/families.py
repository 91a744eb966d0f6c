"""Schema families: where the document model of a `schema` name comes from.

A document's schema (packet_truth `documents[].schema`) is ``name`` for packetbench's own
document types and ``family/name`` for a family registered from elsewhere, such as the
reference corpus's own 26 schemas (``nightmare/acord_125``). Every family answers the same
question, "the document model of this schema, for the packet in this folder", so the scorer,
the results database and the audit look schemas up here and never ask which family they hold.

A family whose JSON Schemas use shapes the document models do not (a list of strings, a
boolean leaf) also supplies a projection: a pure function from an instance of its own schema to
an instance of the model. Truth and extractions go through the same projection before they are
compared, so both are judged alike; the projected form is never written anywhere.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from packetbench.benchmark.errors import BadInput
from packetbench.generator.leaves import DocModel

DEFAULT = "packetbench"


def _same(data: Any) -> Any:
    return data


@dataclass(frozen=True)
class ScoredSchema:
    """The document model of one schema, and how an instance of the schema becomes one of
    the model (the identity for packetbench's own schemas)."""

    model: type[DocModel]
    project: Callable[[Any], Any] = _same


class Family(Protocol):
    def resolve(self, name: str, packet: Path) -> ScoredSchema | None:
        """The schema `name` of the packet in folder `packet`, or None when unknown."""


# Family name -> module defining ``FAMILY`` (imported on first use, like the providers).
MODULES: dict[str, str] = {
    DEFAULT: "packetbench.benchmark.families_own",
    "nightmare": "packetbench.benchmark.importers.nightmare.family",
}
_LOADED: dict[str, Family] = {}


def split(schema: str) -> tuple[str, str]:
    """(family, name) of a schema reference: ``nightmare/sov`` -> (nightmare, sov);
    ``sov`` -> (packetbench, sov)."""
    family, _, name = schema.rpartition("/")
    return family or DEFAULT, name


def family(name: str) -> Family | None:
    if name not in _LOADED:
        module = MODULES.get(name)
        if module is None:
            return None
        _LOADED[name] = importlib.import_module(module).FAMILY
    return _LOADED[name]


def resolve(schema: str, packet: Path) -> ScoredSchema:
    """The scored schema `schema` of the packet folder `packet`; BadInput naming the packet
    when no family knows it."""
    family_name, name = split(schema)
    found = family(family_name)
    scored = found.resolve(name, packet) if found is not None else None
    if scored is None:
        raise BadInput(f"{packet}: unknown schema {schema!r}")
    return scored
