"""The universe audit: nothing enters the universe that a reader of the pages cannot see.

The universe (truth.universe, shared with the scorer) must never hold coordinates, hashes, file
names, seeds or versions, nor hidden text (docs/design.md §4). This module lists those forbidden
values for a packet and compares them with the universe it builds: strings by exact normalized form,
numbers only for non-integral coordinates (small integers are real values too often).

A forbidden-looking value is a leak only if a reader failed to confirm one of its sources on the
page: "$459.95" read back from a loss run is a claim amount that happens to equal a bbox
coordinate, and is reported as a coincidence instead. A value on a page nobody could check
(OCR needed, no --ocr) is neither; the audit already fails for the unchecked page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from packetbench.audit.result import (
    HIDDEN_LEAK,
    LEAK,
    Coincidence,
    DocumentAudit,
    Finding,
)
from packetbench.truth import normalize
from packetbench.truth.documents import TRUTH_KINDS, PacketDocuments
from packetbench.truth.universe import Universe

MAX_SOURCES = 5  # sources listed per coincidence


@dataclass(frozen=True)
class Forbidden:
    strings: dict[str, str]  # normalized form -> what it is
    numbers: dict[float, str]  # non-integral coordinate -> what it is

    def __len__(self) -> int:
        return len(self.strings) + len(self.numbers)


def _number_text(value: float | int) -> str:
    """A coordinate as its JSON number text ("459.95", "39.0"): the shortest repr."""
    return repr(value)


def forbidden_values(packet: PacketDocuments) -> Forbidden:
    """Hashes, file names, doc ids, packet id, seed, versions and layout coordinates."""
    strings: dict[str, str] = {}
    numbers: dict[float, str] = {}

    def add(text: Any, what: str) -> None:
        if isinstance(text, str | int) and not isinstance(text, bool):
            form = normalize.string(str(text))
            if form:
                strings.setdefault(form, what)

    add(packet.packet_id, "the packet id")
    for source in (packet.truth, *(doc.manifest for doc in packet.documents)):
        seed = source.get("seed")
        add(seed, "the seed")
        if isinstance(seed, int) and not isinstance(seed, bool):
            add(f"{seed:06d}", "the seed")  # as written in the packet id
    add(packet.truth.get("generator_version"), "the generator version")
    bboxes: set[tuple[Any, ...]] = set()
    cells: set[str] = set()
    for doc in packet.documents:
        manifest = doc.manifest
        add(manifest.get("sha256"), f"the sha256 of {doc.file.name}")
        add(manifest.get("file"), "a file name")
        add(Path(str(manifest.get("file"))).stem, "a file stem")
        add(doc.doc_id, "a doc_id")
        for kind in TRUTH_KINDS:
            add(doc.truth_file(kind).name, "a truth file name")
        for name, version in sorted((manifest.get("versions") or {}).items()):
            add(version, f"the {name} version")
        for entry in doc.fields:
            for location in entry.get("locations") or []:
                if isinstance(location, dict):
                    if isinstance(location.get("bbox"), list):
                        bboxes.add(tuple(location["bbox"]))
                    if isinstance(location.get("cell"), str):
                        cells.add(location["cell"])
    coordinates = {
        v for bbox in bboxes for v in bbox if isinstance(v, int | float) and not isinstance(v, bool)
    }
    for bbox in sorted(bboxes, key=repr):
        # The normalized JSON text of the list is its numbers' texts, space-separated.
        add(" ".join(_number_text(v) for v in bbox), "a bbox")
    for value in sorted(coordinates):
        add(_number_text(value), "a bbox coordinate")
        if not float(value).is_integer():
            numbers.setdefault(float(value), "a bbox coordinate")
    for cell in sorted(cells):
        add(cell, "a cell reference")
    return Forbidden(strings, numbers)


CONFIRMED, UNCONFIRMED, UNCHECKED = "confirmed", "unconfirmed", "unchecked"


@dataclass(frozen=True)
class _Source:
    """One value the universe is built from, where it came from, and what the readers said."""

    audit: DocumentAudit
    file: str
    path: str
    state: str  # CONFIRMED, UNCONFIRMED or UNCHECKED (on a page that needs --ocr)
    text: Any


def _state(index: int, unconfirmed: set[int], unchecked: set[int]) -> str:
    if index in unconfirmed:
        return UNCONFIRMED
    return UNCHECKED if index in unchecked else CONFIRMED


def _sources(
    packet: PacketDocuments, audits: dict[str, DocumentAudit]
) -> Iterator[tuple[Any, Callable[[], _Source]]]:
    """(value, a maker of its `_Source`) for every universe value of the packet; the source
    itself is only built for the few values that match a forbidden one."""
    for doc in packet.documents:
        audit = audits[doc.doc_id]
        fields_file = doc.truth_file("field_truth").name
        for index, entry in enumerate(doc.fields):
            for key in ("value", "rendered_as"):
                yield (
                    entry.get(key),
                    partial(
                        _Source,
                        audit,
                        fields_file,
                        f"{entry['path']} ({key})",
                        _state(index, audit.unconfirmed_fields, audit.unchecked_fields),
                        entry.get(key),
                    ),
                )
        strings_file = doc.truth_file("rendered_universe").name
        for index, entry in enumerate(doc.strings):
            yield (
                entry["text"],
                partial(
                    _Source,
                    audit,
                    strings_file,
                    f"strings[{index}]",
                    _state(index, audit.unconfirmed_strings, audit.unchecked_strings),
                    entry["text"],
                ),
            )


def audit_leaks(
    packet: PacketDocuments,
    universe: Universe,
    audits: dict[str, DocumentAudit],
    forbidden: Forbidden,
) -> tuple[list[Finding], list[Coincidence]]:
    """Leaks (forbidden values from unconfirmed sources) and coincidences (confirmed ones)."""
    whole: dict[str, str] = {}  # normalized form -> what it is
    tokens: dict[str, str] = {}  # hashes: never part of a real phrase, so also as a token
    for form, what in forbidden.strings.items():
        if form in universe.strings:
            whole[form] = what
        if what.startswith("the sha256") and form in universe.tokens:
            tokens[form] = what
    numbers = {n: what for n, what in forbidden.numbers.items() if n in universe.numbers}
    if not (whole or tokens or numbers):
        return [], []
    # Every spelling of a number holds its shortest repr: looked for first, then parsed.
    spelled = [(repr(number), number, what) for number, what in numbers.items()]
    matched: dict[tuple[str, str], list[_Source]] = {}
    for value, make_source in _sources(packet, audits):
        keys: list[tuple[str, str]] = []
        if isinstance(value, str):
            form = normalize.string(value)
            if form in whole:
                keys.append((form, whole[form]))
            keys.extend((t, tokens[t]) for t in form.split() if t in tokens)
            for shortest, number, what in spelled:
                if shortest in value:
                    seen = Universe()
                    seen.add(value)
                    if number in seen.numbers:
                        keys.append((shortest, what))
        elif (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and float(value) in numbers
        ):
            keys.append((repr(float(value)), numbers[float(value)]))
        for key in keys:
            matched.setdefault(key, []).append(make_source())
    findings: list[Finding] = []
    coincidences: list[Coincidence] = []
    reported: set[tuple[str, str]] = set()  # a value matching two forbidden forms: one leak
    suspects = [
        *((f, w) for f, w in whole.items()),
        *((t, w) for t, w in tokens.items()),
        *((repr(n), w) for n, w in numbers.items()),
    ]
    for shown, what in sorted(suspects):
        sources = matched.get((shown, what), [])
        leaked = [s for s in sources if s.state == UNCONFIRMED]
        for source in leaked:
            if (source.file, source.path) not in reported:
                reported.add((source.file, source.path))
                findings.append(
                    Finding(
                        LEAK,
                        source.audit.doc_id,
                        source.file,
                        source.path,
                        got=str(source.text),
                        detail=f"equals {what} and is not confirmed on the page",
                    )
                )
        if sources and all(s.state == CONFIRMED for s in sources):
            coincidences.append(
                Coincidence(
                    shown, what, tuple(f"{s.file}: {s.path}" for s in sources[:MAX_SOURCES])
                )
            )
        elif not sources:
            findings.append(
                Finding(
                    LEAK,
                    "",
                    "",
                    "",
                    got=shown,
                    detail=f"the universe holds {what} but no truth entry does",
                )
            )
    return findings, coincidences


def audit_hidden(
    packet: PacketDocuments, universe: Universe, audits: dict[str, DocumentAudit]
) -> list[Finding]:
    """Hidden text must stay out of the universe unless the page also shows it visibly."""
    visible: set[str] = set()
    for doc in packet.documents:
        for entry in doc.fields:
            for key in ("value", "rendered_as"):
                if isinstance(entry.get(key), str):
                    visible.add(normalize.string(entry[key]))
        visible.update(normalize.string(entry["text"]) for entry in doc.strings)
    findings: list[Finding] = []
    for doc in packet.documents:
        audit = audits[doc.doc_id]
        for index, entry in enumerate(doc.hidden):
            form = normalize.string(entry["text"])
            if form in universe.strings and form not in visible:
                findings.append(
                    Finding(
                        HIDDEN_LEAK,
                        doc.doc_id,
                        doc.truth_file("rendered_universe").name,
                        f"hidden[{index}]",
                        got=entry["text"],
                        detail="hidden text is in the visible universe",
                    )
                )
            else:
                audit.hidden += 1
    return findings
