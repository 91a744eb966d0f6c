"""Document types and their rendered variants, registered by name.

A document type is one pydantic model (its schema), a builder that projects the world onto
it, and one or more variants that render it (PDF, XLSX, CSV). Adding a type is adding a module
that calls `register`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from generator.leaves import DocModel
from generator.render.fmt import PLAIN, Style
from generator.render.record import Recorder
from generator.world.models import World

Format = Literal["pdf", "xlsx", "csv"]
EXTENSIONS: dict[str, str] = {"pdf": "pdf", "xlsx": "xlsx", "csv": "csv"}


@dataclass(frozen=True)
class Output:
    data: bytes
    pages: int  # PDF pages, XLSX sheets, 1 for CSV


Builder = Callable[[World, random.Random, dict[str, Any]], DocModel]
Renderer = Callable[[Any, Recorder], Output]
Adapter = Callable[[Any], DocModel]


def same(doc: DocModel) -> DocModel:
    return doc


@dataclass(frozen=True)
class Variant:
    """One rendering of a document type: its doc_id in the packet, format and renderer.

    `tables` names the lists (indices erased: ``policies[].claims``) the renderer draws as
    tables through `Flow.table` or `generator.render.table.Table`; table patterns act on them.
    `omits` lists the leaf patterns (``totals.tiv``, ``policies[].claims[].status``) this
    format does not show; their truth is null in this variant. Any other undrawn value is an
    error. `adapt` derives the variant's own view of the document where a format cannot show
    a whole record (a claims CSV has no row for a policy without claims).
    """

    doc_id: str
    format: Format
    render: Renderer
    style: Style = PLAIN
    omits: frozenset[str] = field(default_factory=frozenset)
    adapt: Adapter = same
    tables: tuple[str, ...] = ()


@dataclass(frozen=True)
class DocType:
    name: str  # doc_type and schema name
    title: str
    model: type[DocModel]
    build: Builder
    variants: tuple[Variant, ...]


REGISTRY: dict[str, DocType] = {}


def register(doc_type: DocType) -> DocType:
    if doc_type.name in REGISTRY:
        raise ValueError(f"document type {doc_type.name!r} registered twice")
    REGISTRY[doc_type.name] = doc_type
    return doc_type


def variants() -> dict[str, tuple[DocType, Variant]]:
    """Every registered variant by doc_id."""
    return {v.doc_id: (t, v) for t in REGISTRY.values() for v in t.variants}
