"""Document types and their rendered variants, registered by name.

A document type is one pydantic model (its schema), a builder that projects the world onto
it, and one or more variants that render it (PDF, XLSX, CSV). Adding a type is adding a module
that calls `register`: the registry imports every module of this package on its first lookup.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from packetbench.core import codes
from packetbench.core.leaves import DocModel
from packetbench.core.registry import Registry
from packetbench.generator.render.fmt import PLAIN, Style
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.world.models import World

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


# Where a type sits in a packet, as a broker assembles one: the application, the line
# sections, schedules, loss history, financials, then certificates and correspondence.
SECTIONS: tuple[str, ...] = (
    "application",
    "line",
    "schedule",
    "history",
    "financial",
    "certificate",
    "correspondence",
)


def always(world: World) -> bool:
    return True


@dataclass(frozen=True)
class DocType:
    """A document type: its model, builder and variants, and when a packet carries it.

    A packet carries the type when the world carries any line of `lines` (every packet when
    `lines` is empty: the application, loss runs, financials) and `applies` holds for the
    world (an overflow schedule only when the main form overflows). Packets order their
    documents by `section` (see SECTIONS), then by type name.
    """

    name: str  # doc_type and schema name
    title: str
    model: type[DocModel]
    build: Builder
    variants: tuple[Variant, ...]
    section: str = "line"
    lines: frozenset[str] = frozenset()
    applies: Callable[[World], bool] = always
    # An earlier version of a document of this type (last year's, an earlier valuation): a
    # type that has one may appear twice in a packet, the older one superseded
    # (packet.superseded, packet.duplicate_document).
    prior: Callable[[Any, random.Random], DocModel] | None = None

    def __post_init__(self) -> None:
        if self.section not in SECTIONS:
            raise ValueError(f"{self.name}: unknown section {self.section!r}")
        unknown = self.lines - set(codes.LINE_IDS)
        if unknown:
            raise ValueError(f"{self.name}: unknown line(s) {sorted(unknown)}")

    def carried_by(self, world: World) -> bool:
        """Whether a packet of `world` carries this type."""
        lines_ok = not self.lines or any(world.carries(line) for line in self.lines)
        return lines_ok and self.applies(world)


# Every document type, by name; the first lookup imports each module of this package.
DOC_TYPES: Registry[DocType] = Registry(
    "document type", discover="packetbench.generator.doctypes", skip={"base", "common"}
)


def register(doc_type: DocType) -> DocType:
    """Register `doc_type` under its name (each type's package calls this when imported)."""
    return DOC_TYPES.add(doc_type.name, doc_type)


def _ordered() -> list[DocType]:
    return sorted(DOC_TYPES.values(), key=lambda t: (SECTIONS.index(t.section), t.name))


def variants() -> dict[str, tuple[DocType, Variant]]:
    """Every registered variant by doc_id, in packet order."""
    return {v.doc_id: (t, v) for t in _ordered() for v in t.variants}


def compose(world: World, candidates: Iterable[str]) -> list[tuple[DocType, Variant]]:
    """The documents a packet of `world` renders: the `candidates` (doc ids) whose type the
    world carries, in packet order."""
    wanted = set(candidates)
    return [
        (t, v) for doc_id, (t, v) in variants().items() if doc_id in wanted and t.carried_by(world)
    ]
