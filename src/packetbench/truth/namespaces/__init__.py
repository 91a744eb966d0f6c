"""Schema namespaces: where the document model of a `schema` name comes from.

A document's schema (packet_truth `documents[].schema`) is ``name`` for packetbench's own
document types and ``namespace/name`` for schemas registered from elsewhere, such as the
reference corpus's own 26 schemas (``nightmare/acord_125``). Every namespace answers the same
question, "the document model of this schema, for the packet in this folder", so the scorer,
the results database and the audit look schemas up here and never ask where they come from.

A namespace whose JSON Schemas use shapes the document models do not (a list of strings, a
boolean leaf) also supplies a projection: a pure function from an instance of its own schema to
an instance of the model. Truth and extractions go through the same projection before they are
compared, so both are judged alike; the projected form is never written anywhere. For the
simulated extractor, which works on the model, it supplies the way back too (`emit`: an instance
of the model as one of its own schema) and the leaves its schema lets no answer leave empty.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from packetbench.core.errors import BadInput
from packetbench.core.leaves import DocModel
from packetbench.core.registry import Registry

DEFAULT = "packetbench"


def _same(data: Any) -> Any:
    return data


@dataclass(frozen=True)
class ScoredSchema:
    """The document model of one schema, and how an instance of the schema becomes one of
    the model (the identity for packetbench's own schemas). `emit` is the way back, for what
    `project` makes; `required` holds the leaf paths (list indices erased: ``claims[].status``)
    whose schema admits no null."""

    model: type[DocModel]
    project: Callable[[Any], Any] = _same
    emit: Callable[[Any], Any] = _same
    required: frozenset[str] = frozenset()


class Namespace(Protocol):
    def resolve(self, name: str, packet: Path) -> ScoredSchema | None:
        """The schema `name` of the packet in folder `packet`, or None when unknown."""


# Namespace name -> a factory of the namespace, importing its module only when first used.
NAMESPACES: Registry[Callable[[], Namespace]] = Registry("schema namespace")
namespace = NAMESPACES.register


class OwnNamespace:
    """packetbench's own schemas: the generator's document types, by name."""

    def resolve(self, name: str, packet: Path) -> ScoredSchema | None:
        from packetbench.generator.doctypes.base import DOC_TYPES

        doc_type = DOC_TYPES.get(name)
        return ScoredSchema(doc_type.model) if doc_type is not None else None


@namespace(DEFAULT)
@cache
def _own() -> Namespace:
    return OwnNamespace()


@namespace("nightmare")
@cache
def _nightmare() -> Namespace:
    from packetbench.truth.namespaces.nightmare import NAMESPACE

    return NAMESPACE


def split(schema: str) -> tuple[str, str]:
    """(namespace, name) of a schema reference: ``nightmare/sov`` -> (nightmare, sov);
    ``sov`` -> (packetbench, sov)."""
    space, _, name = schema.rpartition("/")
    return space or DEFAULT, name


def resolve(schema: str, packet: Path) -> ScoredSchema:
    """The scored schema `schema` of the packet folder `packet`; BadInput naming the packet
    when no namespace knows it."""
    space, name = split(schema)
    factory = NAMESPACES.get(space)
    scored = factory().resolve(name, packet) if factory is not None else None
    if scored is None:
        raise BadInput(f"{packet}: unknown schema {schema!r}")
    return scored
