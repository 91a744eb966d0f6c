"""packet.* — traps across the documents of one packet (world phase).

Before any document is drawn, `plan` decides per packet (hash of packet id and pattern id, as
document patterns are chosen per document) which packet patterns it carries, and each one
acts on the packet's list of documents: it gives one document a *view* (the insured's name
spelled another way, a policy number in another format, a value that disagrees with another
document) or adds a document (last year's version, the same report at an earlier valuation
date), listed in packet_truth with ``superseded_by``. Each document's truth is what it shows;
the view's manifest record carries, per changed path, the canonical (world) value and the
shown one. A document type offers an earlier version through `DocType.prior`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from packetbench.core.leaves import DocModel, leaf_index, set_path
from packetbench.generator.doctypes.base import DocType, Variant
from packetbench.generator.patterns import base
from packetbench.generator.patterns.base import PATTERNS, Applied, Pattern, Staging, catalogue
from packetbench.generator.patterns.presets import PREFIX
from packetbench.generator.world.models import World

Change = Callable[[DocModel, random.Random], DocModel]


@dataclass
class View:
    """One packet pattern's change to one document's model."""

    pattern: Pattern
    change: Change
    seed: int
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class PacketDoc:
    """A document the packet renders, with the views packet patterns give it."""

    doc_type: DocType
    variant: Variant
    views: list[View] = field(default_factory=list)
    superseded_by: str | None = None

    @property
    def doc_id(self) -> str:
        return self.variant.doc_id


@dataclass
class Viewed:
    """A document's model after its views, and what each view changed."""

    doc: DocModel
    applied: list[Applied]


def apply_views(docs: PacketDoc, doc: DocModel) -> Viewed:
    """Apply `docs`'s views in order; each records the leaves it changed."""
    applied: list[Applied] = []
    for view in docs.views:
        before = leaf_index(doc)
        changed = view.change(doc, random.Random(view.seed))
        after = leaf_index(changed)
        record = Applied(view.pattern, details=dict(view.details))
        for path, (value, _) in after.items():
            old = before.get(path, (None, None))[0]
            if value != old:
                record.targets.append(path)
                record.delta[path] = {"canonical": old, "shown": value}
        doc = changed
        if record.targets or docs.superseded_by:
            applied.append(record)
    return Viewed(doc, applied)


def finish_views(viewed: Viewed, recorder: Any) -> list[dict[str, Any]]:
    """Manifest records of the views, restricted to the values the document really shows."""
    from packetbench.generator.patterns.engine import pages_of

    records = []
    for applied in viewed.applied:
        kept = [p for p in applied.targets if p in recorder.drawn]
        applied.delta = {p: applied.delta[p] for p in kept}
        applied.targets = kept
        if not kept and "superseded_by" not in applied.details:
            continue
        applied.pages = pages_of(recorder, kept) or {1}
        records.append(applied.record())
    return records


# --- choosing ----------------------------------------------------------------------------------

WorldAct = Callable[
    [list[PacketDoc], World, random.Random, "Callable[[str], int]", Mapping[str, Any]], bool
]
ACTS: dict[str, WorldAct] = {}


def _never(staging: Staging) -> bool:
    return False  # acts on the packet (ACTS), never on one document being drawn


def packet_pattern(
    id_: str, name: str, /, *, reference: str | None = None, description: str
) -> Callable[[WorldAct], WorldAct]:
    """Decorator: the decorated function is how packet pattern `id_` acts on the packet's
    list of documents (`plan` calls it through `ACTS`). As a pattern it is of the world phase
    (before any document is drawn), fits no document format (the engine never applies it to a
    document) and its truth is "value" (each document's truth is what it shows)."""
    declare = base.pattern(
        id_,
        name,
        phase="world",
        truth="value",
        formats=(),
        reference=reference,
        description=description,
    )

    def register_act(act: WorldAct) -> WorldAct:
        declare(_never)
        ACTS[id_] = act
        return act

    return register_act


def packet_docs(
    world: World, wanted: list[tuple[DocType, Variant]], knobs: dict[str, Any], packet: str
) -> list[PacketDoc]:
    """The documents of the packet, in order, with the packet patterns' views and additions."""
    from packetbench.generator.patterns.engine import _seed, _unit

    docs = [PacketDoc(t, v) for t, v in wanted]
    for pattern in catalogue():
        act = ACTS.get(pattern.id)
        probability = float(knobs.get(f"{PREFIX}{pattern.id}", 0.0))
        if act is None or probability <= 0.0:
            continue
        if _unit(packet, "packet", pattern.id, "select") >= probability:
            continue
        rng = random.Random(_seed(packet, "packet", pattern.id))

        def seed_of(doc_id: str, pattern_id: str = pattern.id) -> int:
            return _seed(packet, doc_id, pattern_id, "view")

        act(docs, world, rng, seed_of, knobs)
    return docs


def _insert_prior(
    docs: list[PacketDoc],
    pattern: Pattern,
    suffix: str,
    rng: random.Random,
    seed_of: Callable[[str], int],
    wanted: Callable[[PacketDoc], bool],
) -> bool:
    """Add an earlier version of one document that has one, right after it."""
    taken = {p.doc_id for p in docs}
    candidates = [
        p
        for p in docs
        if p.doc_type.prior is not None
        and p.superseded_by is None
        and wanted(p)
        and f"{p.doc_id}{suffix}" not in taken
    ]
    if not candidates:
        return False
    current = rng.choice(candidates)
    prior = current.doc_type.prior
    assert prior is not None
    doc_id = f"{current.doc_id}{suffix}"

    adapt = current.variant.adapt

    def change(doc: DocModel, rng: random.Random) -> DocModel:
        # Through the variant's own view again: a CSV export has no row for a policy term
        # whose claims all came in after the earlier version was run.
        return adapt(prior(doc, rng))

    older = PacketDoc(
        current.doc_type,
        replace(current.variant, doc_id=doc_id),
        [View(pattern, change, seed_of(doc_id), {"superseded_by": current.doc_id})],
        superseded_by=current.doc_id,
    )
    docs.insert(docs.index(current) + 1, older)
    return True


# The patterns below are declared in catalogue order, the order in which a document's
# patterns are chosen and applied: moving a declaration changes packets.


@packet_pattern(
    "packet.superseded",
    "Superseded document",
    reference="p52_stale_data",
    description="last year's version of a document beside this year's, listed as superseded",
)
def _superseded(
    docs: list[PacketDoc],
    world: World,
    rng: random.Random,
    seed_of: Callable[[str], int],
    knobs: Mapping[str, Any],
) -> bool:
    return _insert_prior(
        docs, PATTERNS["packet.superseded"], "_prior", rng, seed_of, lambda p: True
    )


# --- variants of one document ------------------------------------------------------------------


def _replace_strings(doc: DocModel, rewrite: Callable[[str, str], str | None]) -> DocModel:
    """A copy of `doc` with every string leaf `rewrite(path, value)` returns text for changed."""
    data = doc.model_dump(mode="json")
    for path, (value, _) in leaf_index(doc).items():
        if isinstance(value, str):
            new = rewrite(path, value)
            if new is not None and new != value:
                set_path(data, path, new)
    return type(doc).model_validate(data)


NAME_FORMS = (
    (r" Incorporated\b", " Inc."),
    (r" Inc\.", " Incorporated"),
    (r" Corporation\b", " Corp."),
    (r" Corp\.", " Corporation"),
    (r" LLC\b", " L.L.C."),
    (r" Company\b", " Co."),
    (r" Co\.", " Company"),
    (r" & ", " and "),
    (r",", ""),
)


def name_variant(name: str, rng: random.Random) -> str:
    """Another way a document spells an entity's name ("Inc." for "Incorporated")."""
    forms = [(pattern, new) for pattern, new in NAME_FORMS if re.search(pattern, name)]
    if not forms:
        return name.upper()
    pattern, new = rng.choice(forms)
    return re.sub(pattern, new, name, count=1)


STREET_FORMS = (
    (r"\bStreet\b", "St"),
    (r"\bSt\b\.?", "Street"),
    (r"\bAvenue\b", "Ave"),
    (r"\bAve\b\.?", "Avenue"),
    (r"\bRoad\b", "Rd"),
    (r"\bRd\b\.?", "Road"),
    (r"\bDrive\b", "Dr"),
    (r"\bDr\b\.?", "Drive"),
    (r"\bBoulevard\b", "Blvd"),
    (r"\bBlvd\b\.?", "Boulevard"),
    (r"\bSuite\b", "Ste"),
    (r"\bSte\b\.?", "Suite"),
    (r"\bNorth\b", "N"),
    (r"\bSouth\b", "S"),
    (r"\bEast\b", "E"),
    (r"\bWest\b", "W"),
)


def street_variant(street: str) -> str | None:
    for pattern, new in STREET_FORMS:
        if re.search(pattern, street):
            return re.sub(pattern, new, street, count=1)
    return None


def policy_variant(number: str, style: int) -> str:
    """Another way of writing a policy number: separators dropped, spaced, or dashed."""
    if style == 0:
        return re.sub(r"[^A-Za-z0-9]", "", number)
    if style == 1:
        return re.sub(r"[-/]", " ", re.sub(r"(?<=[A-Za-z])(?=\d)", " ", number, count=1))
    return re.sub(r"(?<=[A-Za-z])(?=\d)", "-", number, count=1)


def _view_one(
    docs: list[PacketDoc],
    pattern_id: str,
    rng: random.Random,
    seed_of: Callable[[str], int],
    change: Change,
    eligible: Callable[[PacketDoc], bool],
    details: dict[str, Any],
    percent: int = 0,
) -> bool:
    """Give `change` to documents of the packet that `eligible` accepts: one, or `percent` of
    those that could carry it (at least one); the first stays canonical, so another document
    always states what the variant departs from."""
    candidates = [p for p in docs if p.superseded_by is None and eligible(p)]
    if len(candidates) < 2:
        return False  # a variant needs another document stating the canonical form
    others = candidates[1:]
    count = max(1, round(len(others) * percent / 100))
    for index in sorted(rng.sample(range(len(others)), count)):
        target = others[index]
        target.views.append(
            View(PATTERNS[pattern_id], change, seed_of(target.doc_id), dict(details))
        )
    return True


def _fields_named(model: type[DocModel], *names: str) -> bool:
    """Whether a leaf path of `model` contains one of `names`."""
    from packetbench.core.leaves import leaf_patterns

    return any(any(n in path for n in names) for path in leaf_patterns(model))


@packet_pattern(
    "packet.name_variants",
    "Name variants",
    reference="p47_name_variant",
    description="the insured's name written another way in one document",
)
def _name_variants(
    docs: list[PacketDoc],
    world: World,
    rng: random.Random,
    seed_of: Callable[[str], int],
    knobs: Mapping[str, Any],
) -> bool:
    name = world.insured.name
    variant = name_variant(name, rng)

    def change(doc: DocModel, rng: random.Random) -> DocModel:
        return _replace_strings(doc, lambda path, value: variant if value == name else None)

    return _view_one(
        docs,
        "packet.name_variants",
        rng,
        seed_of,
        change,
        lambda p: _fields_named(p.doc_type.model, "insured", "applicant"),
        {"canonical": name, "variant": variant},
        knobs["variants.percent"],
    )


@packet_pattern(
    "packet.address_variants",
    "Address variants",
    reference="p48_address_mismatch",
    description="street lines abbreviated or spelled out differently in one document",
)
def _address_variants(
    docs: list[PacketDoc],
    world: World,
    rng: random.Random,
    seed_of: Callable[[str], int],
    knobs: Mapping[str, Any],
) -> bool:
    def change(doc: DocModel, rng: random.Random) -> DocModel:
        return _replace_strings(
            doc,
            lambda path, value: (
                street_variant(value) if path.rsplit(".", 1)[-1] in ("street", "line1") else None
            ),
        )

    return _view_one(
        docs,
        "packet.address_variants",
        rng,
        seed_of,
        change,
        lambda p: _fields_named(p.doc_type.model, "street"),
        {},
        knobs["variants.percent"],
    )


@packet_pattern(
    "packet.policy_number_formats",
    "Policy number formats",
    reference="p49_policy_format",
    description="policy numbers with other separators in one document",
)
def _policy_formats(
    docs: list[PacketDoc],
    world: World,
    rng: random.Random,
    seed_of: Callable[[str], int],
    knobs: Mapping[str, Any],
) -> bool:
    style = rng.randrange(3)

    def change(doc: DocModel, rng: random.Random) -> DocModel:
        return _replace_strings(
            doc,
            lambda path, value: (
                policy_variant(value, style) if "policy_number" in path.rsplit(".", 1)[-1] else None
            ),
        )

    return _view_one(
        docs,
        "packet.policy_number_formats",
        rng,
        seed_of,
        change,
        lambda p: _fields_named(p.doc_type.model, "policy_number"),
        {"style": ("no separators", "spaced", "dashed")[style]},
        knobs["variants.percent"],
    )


@packet_pattern(
    "packet.duplicate_document",
    "Duplicate at another valuation date",
    description="the same report twice, the earlier valuation superseded",
)
def _duplicate(
    docs: list[PacketDoc],
    world: World,
    rng: random.Random,
    seed_of: Callable[[str], int],
    knobs: Mapping[str, Any],
) -> bool:
    # The same report run twice: a type whose documents are valued as of a date.
    return _insert_prior(
        docs,
        PATTERNS["packet.duplicate_document"],
        "_earlier",
        rng,
        seed_of,
        lambda p: "valuation_date" in p.doc_type.model.model_fields,
    )


# Values two current documents may disagree on, and how one of them states it differently.
CONFLICTS: dict[str, Callable[[Any, random.Random], Any]] = {
    "year_built": lambda v, rng: v + rng.choice((-10, -9, -1, 1, 9, 10)),
    "square_feet": lambda v, rng: int(round(v * rng.choice((0.9, 1.1, 1.25)) / 100) * 100),
    "stories": lambda v, rng: v + 1,
    "construction_year": lambda v, rng: v + rng.choice((-1, 1)),
}


@packet_pattern(
    "packet.conflicting_values",
    "Conflicting values",
    description="two current documents disagree on a building's facts",
)
def _conflicting(
    docs: list[PacketDoc],
    world: World,
    rng: random.Random,
    seed_of: Callable[[str], int],
    knobs: Mapping[str, Any],
) -> bool:
    def change(doc: DocModel, rng: random.Random) -> DocModel:
        data = doc.model_dump(mode="json")
        found = [
            (path, value)
            for path, (value, _) in leaf_index(doc).items()
            if path.rsplit(".", 1)[-1] in CONFLICTS and isinstance(value, int)
        ]
        if not found:
            return doc
        for path, value in rng.sample(found, k=min(2, len(found))):
            new = CONFLICTS[path.rsplit(".", 1)[-1]](value, rng)
            if new != value and new > 0:
                set_path(data, path, new)
        return type(doc).model_validate(data)

    return _view_one(
        docs,
        "packet.conflicting_values",
        rng,
        seed_of,
        change,
        lambda p: _fields_named(p.doc_type.model, *CONFLICTS),
        {},
    )


@packet_pattern(
    "packet.phantom_reference",
    "Phantom reference",
    description="the application ticks an attachment the packet does not hold",
)
def _phantom(
    docs: list[PacketDoc],
    world: World,
    rng: random.Random,
    seed_of: Callable[[str], int],
    knobs: Mapping[str, Any],
) -> bool:
    """The application says a document is attached that the packet does not hold (a driver
    schedule "to follow", financial statements never sent). The tick is what the page shows,
    so it is the truth; the manifest names the document it refers to."""
    from packetbench.generator.doctypes.acord_125.build import ATTACHMENT_PREFIXES, yes_no

    held = {p.doc_id for p in docs}
    lacking = [
        (box, prefix)
        for box, prefix in ATTACHMENT_PREFIXES.items()
        if not any(doc_id.startswith(prefix) for doc_id in held)
    ]
    targets = [p for p in docs if p.superseded_by is None and p.doc_type.name == "acord_125"]
    if not lacking or not targets:
        return False
    box, prefix = rng.choice(lacking)

    def change(doc: DocModel, rng: random.Random) -> DocModel:
        data = doc.model_dump(mode="json")
        set_path(data, f"attachments.{box}", yes_no(True))
        return type(doc).model_validate(data)

    target = targets[0]
    target.views.append(
        View(
            PATTERNS["packet.phantom_reference"],
            change,
            seed_of(target.doc_id),
            {"refers_to": prefix.rstrip("_"), "reference": f"attachments.{box}"},
        )
    )
    return True
