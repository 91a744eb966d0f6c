"""Presentation patterns: named, reusable ways a real submission makes extraction hard.

A pattern (docs/patterns.md) has an id ``family.name``, a phase, the formats and document types it
applies to, a declared effect on the truth, the nearest pattern id of the reference corpus and
the patterns it cannot be combined with. It acts on the layer it belongs to, through a
`Staging` handed to it before the document is drawn: the document model's shown values and
fonts, the looks of its tables and the labels of its boxes (all in a `Presentation`), and
callbacks that draw over the finished pages. It never reaches into a renderer.

Every application is recorded (`Applied`) with the truth paths it touched, the pages they
landed on and its ground-truth delta, and is dropped again when the drawn document shows that
it had no effect (a continuation header on a table that never continued).
"""

from __future__ import annotations

import fnmatch
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

from packetbench.core.leaves import DocModel, Leaf, leaf_index, path_pattern
from packetbench.core.registry import Registry
from packetbench.generator.doctypes.base import Format
from packetbench.generator.render.fmt import PLAIN, Style
from packetbench.generator.render.presentation import Presentation

_ITEM = re.compile(r"\[\d+\]")
Phase = Literal["world", "document", "layout", "overlay", "emit", "post", "scan", "sheet", "csv"]
# What a pattern does to the truth (docs/patterns.md rules 1-3):
#   none   - truth unchanged (only the look changes)
#   shown  - rendered_as differs, value stays canonical (a reader can derive it)
#   value  - the value is what is shown (truth follows the page)
#   hidden - drawn but invisible or covered: out of truth, into rendered_universe.hidden
#   illegible - drawn visibly but damaged past reading (rule 3b): null where no location of
#               the document is legible, into rendered_universe.illegible
Truth = Literal["none", "shown", "value", "hidden", "illegible"]
FAMILIES = ("table", "data", "overlay", "textlayer", "scan", "hand", "sheet", "csv", "packet")


@dataclass(frozen=True)
class Subject:
    """The document a pattern is about to act on."""

    doc_id: str
    doc_type: str
    format: str
    doc: DocModel
    style: Style = PLAIN  # the document's own number and date conventions

    def leaves(self) -> dict[str, tuple[Any, Leaf]]:
        return self._leaves

    @cached_property
    def _leaves(self) -> dict[str, tuple[Any, Leaf]]:
        return leaf_index(self.doc)

    @cached_property
    def _records(self) -> dict[str, dict[str, None]]:
        """Record path -> None for every list item, keyed by its list's erased path: e.g.
        ``policies[].claims`` -> {``policies[0].claims[0]``, ...} (in model order)."""
        found: dict[str, dict[str, None]] = {}
        for path in self._leaves:
            for match in _ITEM.finditer(path):
                record = path[: match.end()]
                found.setdefault(path_pattern(record)[:-2], {})[record] = None
        return found

    @property
    def tables(self) -> list[str]:
        """The lists a renderer may draw as tables (indices erased: ``policies[].claims``),
        those holding records first; which of them were drawn as tables the table engine
        reports (`drawn` events), and table patterns keep only those."""
        return list(self._records)

    def rows(self, name: str) -> list[str]:
        """Record paths of list `name` (indices erased): ``policies[2].claims[0]``, ..."""
        return list(self._records.get(name, {}))

    def lists(self, name: str) -> list[str]:
        """Concrete list paths of `name` that hold records: ``policies[2].claims``, ..."""
        return list(dict.fromkeys(row[: row.rindex("[")] for row in self.rows(name)))

    def values(self, *kinds: str) -> list[tuple[str, Any, Leaf]]:
        """Non-null leaves of the given kinds (all kinds when none is given), in model order."""
        return [
            (path, value, leaf)
            for path, (value, leaf) in self.leaves().items()
            if value is not None and (not kinds or leaf.kind in kinds)
        ]


@dataclass
class Applied:
    """One application of a pattern to a document, as the manifest records it."""

    pattern: Pattern
    targets: list[str] = field(default_factory=list)  # truth paths (or subtrees) touched
    delta: dict[str, Any] = field(default_factory=dict)  # per path: canonical and shown
    pages: set[int] = field(default_factory=set)
    details: dict[str, Any] = field(default_factory=dict)  # how it was applied
    confirmed: bool | None = None  # set by checks run on the drawn document

    def record(self) -> dict[str, Any]:
        return {
            "id": self.pattern.id,
            "name": self.pattern.name,
            "family": self.pattern.family,
            "phase": self.pattern.phase,
            "truth": self.pattern.truth,
            "reference": self.pattern.reference,
            "pages_affected": sorted(self.pages),
            "targets": self.targets,
            "ground_truth_delta": self.delta,
            "details": self.details,
        }


@dataclass
class Staging:
    """What a pattern may change about one document before it is drawn."""

    subject: Subject
    rng: random.Random
    presentation: Presentation
    applied: Applied
    values: dict[str, Any]  # path -> new value of the document model (truth = shown)
    checks: list[Callable[[Any], bool]] = field(default_factory=list)

    def show(self, path: str, text: str, canonical: Any, **reading: Any) -> None:
        """Draw `text` for `path` while its value stays `canonical` (truth "shown")."""
        self.presentation.shown[path] = text
        self.applied.targets.append(path)
        self.applied.delta[path] = {"canonical": canonical, "shown": text, **reading}

    def set_value(self, path: str, value: Any, canonical: Any) -> None:
        """The document shows `value` at `path` instead of the world's `canonical` (truth
        "value": the document's truth is what it shows)."""
        self.values[path] = value
        self.applied.targets.append(path)
        self.applied.delta[path] = {"canonical": canonical, "shown": value}

    def confirm(self, check: Callable[[Any], bool]) -> None:
        """After drawing, keep this application only if `check(recorder)` holds."""
        self.checks.append(check)

    def after_layout(self, hook: Callable[[Any], None]) -> None:
        self.presentation.after_layout.append(hook)


def with_doc(subject: Subject, doc: DocModel) -> Subject:
    return replace(subject, doc=doc)


def always(subject: Subject) -> bool:
    return True


@dataclass(frozen=True)
class Pattern:
    id: str
    name: str
    phase: Phase
    truth: Truth
    description: str
    apply: Callable[[Staging], bool]  # False: found nothing to act on in this document
    formats: frozenset[str] = frozenset({"pdf"})
    doc_types: frozenset[str] | None = None  # None: any document type
    reference: str | None = None  # nearest pattern id of the reference corpus
    incompatible: tuple[str, ...] = ()  # ids or globs
    applies: Callable[[Subject], bool] = always
    # Out of every tier's draw, and out of the knobs a manifest records until a --set names it
    # (so adding one changes no packet): the harder scan levels added after the tiers were set.
    opt_in: bool = False

    @property
    def family(self) -> str:
        return self.id.split(".", 1)[0]

    def fits(self, subject: Subject) -> bool:
        return (
            subject.format in self.formats
            and (self.doc_types is None or subject.doc_type in self.doc_types)
            and self.applies(subject)
        )

    def conflicts(self, other: Pattern) -> bool:
        return any(fnmatch.fnmatchcase(other.id, glob) for glob in self.incompatible) or any(
            fnmatch.fnmatchcase(self.id, glob) for glob in other.incompatible
        )


# Every pattern, by id, in declaration order; the first lookup imports each family module.
PATTERNS: Registry[Pattern] = Registry(
    "pattern",
    discover="packetbench.generator.patterns",
    skip={"base", "catalogue", "engine", "presets", "scripts", "vocabulary"},
)
Apply = Callable[[Staging], bool]


def pattern(
    id_: str,
    name: str,
    /,
    *,
    phase: Phase,
    truth: Truth,
    description: str,
    formats: tuple[Format, ...] = ("pdf",),
    doc_types: tuple[str, ...] | None = None,
    reference: str | None = None,
    incompatible: tuple[str, ...] = (),
    applies: Callable[[Subject], bool] = always,
    opt_in: bool = False,
) -> Callable[[Apply], Apply]:
    """Decorator: the decorated function is how pattern `id_` (``family.name``) acts on a
    document; the pattern, with what docs/patterns.md says of it, is added to `PATTERNS`.

    `formats` and `doc_types` (None: any) say which documents it fits, `applies` whether one of
    them holds anything for it to act on; `incompatible` lists ids or globs it never shares a
    document with; `opt_in` keeps it out of every tier's draw and knobs until a --set names
    it. Within a family, patterns are applied in declaration order."""
    family, _, rest = id_.partition(".")
    if family not in FAMILIES or not rest:
        raise ValueError(f"pattern id {id_!r} is not family.name with a known family")

    def declare(apply: Apply) -> Apply:
        PATTERNS.add(
            id_,
            Pattern(
                id=id_,
                name=name,
                phase=phase,
                truth=truth,
                description=description,
                apply=apply,
                formats=frozenset(formats),
                doc_types=frozenset(doc_types) if doc_types is not None else None,
                reference=reference,
                incompatible=incompatible,
                applies=applies,
                opt_in=opt_in,
            ),
        )
        return apply

    return declare


def catalogue() -> list[Pattern]:
    """Every pattern, by family (FAMILIES order) and then in declaration order: the order in
    which they are chosen and applied, so it decides every packet's bytes."""
    order = {family: index for index, family in enumerate(FAMILIES)}
    return sorted(PATTERNS.values(), key=lambda p: order[p.family])


def matching(globs: Iterable[str]) -> list[str]:
    """Registered ids matching any of `globs` (exact ids or fnmatch globs)."""
    wanted = list(globs)
    return [p.id for p in catalogue() if any(fnmatch.fnmatchcase(p.id, g) for g in wanted)]


def list_paths(subject: Subject) -> list[str]:
    """The list-of-records paths of a document, indices erased (``policies[].claims``)."""
    found: dict[str, None] = {}
    for path in subject.leaves():
        pattern = path_pattern(path)
        if "[]" in pattern:
            found[pattern[: pattern.rindex("[]")]] = None
    return list(found)
