"""The universe: everything a reader can see in a packet, and whether a value is among it.

Built from the generator's files only (docs/design.md §4): every `value` and `rendered_as` of each
field_truth file, and every visible string of each rendered_universe file. Layout keys
(`locations`, `bbox`, `page`, ...), paths, kinds and hidden text are never read; they are only
counted, so the audit can show what was skipped. A value damaged past reading (field truth
`illegible: true`, docs/patterns.md rule 3b) is not in the universe either: nobody can see it. Its
value is kept apart, by document and path (`PacketUniverses.illegible`), for the scorer to tell
a guess at it right from wrong. The packet universe pools all documents of a
packet (customer facts are shared across documents); a document universe is one document's.
The scorer and the audit share this module.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from packetbench.core.packet_files import FieldEntry
from packetbench.truth import normalize
from packetbench.truth.packets import PacketFiles

_DIGIT = re.compile(r"\d")
_DATE_IN_TEXT = re.compile(r"\b\d{1,2}/\d{1,2}/\d{4}\b|\b\d{4}-\d{2}-\d{2}\b")
FIELD_KEYS_READ = ("value", "rendered_as")


@lru_cache(maxsize=1 << 17)
def _contribution(
    text: str,
) -> tuple[str, tuple[str, ...], frozenset[str], frozenset[float], frozenset[str]]:
    """What one visible text adds to a universe: its normalized form, tokens, id forms (of
    the whole text and of each word), numbers (whole and embedded) and ISO dates. Cached
    because the same texts recur on every page and in every document."""
    form = normalize.string(text)
    ids = {ident for chunk in {text, *text.split()} if (ident := normalize.id_form(chunk))}
    numbers: set[float] = set()
    dates: set[str] = set()
    if _DIGIT.search(text):  # numbers and dates need a digit
        whole = normalize.number(text)
        if whole is not None:
            numbers.add(whole)
        for match in normalize.NUMBER_IN_TEXT.finditer(text):
            found = normalize.number(match.group(0))
            if found is not None:
                numbers.add(found)
        dates = {
            iso
            for candidate in (text, *(m.group(0) for m in _DATE_IN_TEXT.finditer(text)))
            if (iso := normalize.date(candidate))
        }
    return form, tuple(form.split()), frozenset(ids), frozenset(numbers), frozenset(dates)


@dataclass
class Universe:
    """Normalized strings, id forms, tokens, numbers and ISO dates a reader can see."""

    strings: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    tokens: set[str] = field(default_factory=set)
    numbers: set[float] = field(default_factory=set)
    dates: set[str] = field(default_factory=set)

    def add(self, value: Any) -> None:
        """Add a value as seen on a page (a string or a number; booleans and None add nothing)."""
        if value is None or isinstance(value, bool):
            return
        if isinstance(value, int | float):
            self.numbers.add(float(value))
            return
        form, tokens, ids, numbers, dates = _contribution(str(value))
        if not form:
            return
        self.strings.add(form)
        self.tokens.update(tokens)
        self.ids.update(ids)
        self.numbers.update(numbers)
        self.dates.update(dates)

    @classmethod
    def of(cls, values: set[Any]) -> Universe:
        """The universe of a set of distinct values, built with set unions (many documents of
        thousands of values each make this the scorer's and the audit's hot path)."""
        texts = [_contribution(v) for v in values if isinstance(v, str)]
        numbers = {
            float(v) for v in values if isinstance(v, int | float) and not isinstance(v, bool)
        }
        return cls(
            strings={c[0] for c in texts if c[0]},
            ids=set().union(*(c[2] for c in texts)),
            tokens=set().union(*(c[1] for c in texts)),
            numbers=numbers.union(*(c[3] for c in texts)),
            dates=set().union(*(c[4] for c in texts)),
        )

    def update(self, other: Universe) -> None:
        self.strings |= other.strings
        self.ids |= other.ids
        self.tokens |= other.tokens
        self.numbers |= other.numbers
        self.dates |= other.dates

    # --- membership --------------------------------------------------------------------------

    def has_number(self, value: Any) -> bool:
        parsed = normalize.number(value)
        return parsed is not None and parsed in self.numbers

    def has_date(self, value: Any) -> bool:
        return isinstance(value, str) and normalize.date(value) in self.dates

    def has_string(self, value: str) -> bool:
        """Grounded string: its normalized form, its id form (>= 4 chars), or every one of its
        tokens is in the universe; one foreign token makes a composed string ungrounded."""
        form = normalize.string(value)
        if form in self.strings:
            return True
        ident = normalize.id_form(value)
        if ident is not None and ident in self.ids:
            return True
        words = form.split()
        return bool(words) and all(word in self.tokens for word in words)

    def foreign_tokens(self, value: str) -> list[str]:
        return [word for word in normalize.tokens(value) if word not in self.tokens]

    def size(self) -> dict[str, int]:
        return {
            "strings": len(self.strings),
            "ids": len(self.ids),
            "tokens": len(self.tokens),
            "numbers": len(self.numbers),
            "dates": len(self.dates),
        }


@dataclass
class PacketUniverses:
    """The packet universe, each document's universe, what building them skipped, and each
    document's illegible values (doc_id -> path -> value; docs/patterns.md rule 3b)."""

    packet: Universe
    documents: dict[str, Universe]
    skipped: Counter[str]
    illegible: dict[str, dict[str, Any]] = field(default_factory=dict)


def field_values(entries: list[FieldEntry]) -> Iterator[Any]:
    """The values a universe takes from field_truth entries: each legible entry's
    FIELD_KEYS_READ (an illegible entry's are nobody's to see)."""
    for entry in entries:
        if entry.get("illegible") is not True:
            for key in FIELD_KEYS_READ:
                value = entry.get(key)
                if not isinstance(value, dict | list):
                    yield value


def document_universe(
    packet: Path,
    doc_id: str,
    skipped: Counter[str] | None = None,
    unreadable: dict[str, Any] | None = None,
    files: PacketFiles | None = None,
) -> Universe:
    """The universe of one document, from its field_truth and rendered_universe files (read
    through `files` when given); its illegible values go to `unreadable` (path -> value)
    when given."""
    files = files if files is not None else PacketFiles(packet)
    skipped = skipped if skipped is not None else Counter()
    seen: set[Any] = set()  # each distinct value is added once (most recur many times)
    fields = files.field_truth(doc_id)
    skipped.update(key for key in fields if key != "fields")
    entries = fields["fields"]
    # Count skipped keys per distinct key set (entries share a handful of shapes).
    for keys, count in Counter(tuple(entry) for entry in entries).items():
        for key in keys:
            if key not in FIELD_KEYS_READ:
                skipped[key] += count
    seen.update(field_values(entries))
    if unreadable is not None:
        unreadable.update(
            (entry["path"], entry.get("value"))
            for entry in entries
            if entry.get("illegible") is True
        )
    rendered = files.rendered_universe(doc_id)
    for key in rendered:
        if key == "hidden":
            skipped["hidden"] += len(rendered["hidden"])
        elif key != "strings":
            skipped[key] += 1
    strings = rendered["strings"]
    for keys, count in Counter(tuple(entry) for entry in strings).items():
        for key in keys:
            if key != "text":
                skipped[key] += count
    seen.update(entry["text"] for entry in strings)
    return Universe.of(seen)


def packet_doc_ids(packet: Path) -> list[str]:
    """The doc ids packet_truth.json lists, each checked to be an id (it names files)."""
    return PacketFiles(packet).doc_ids()


def build(packet: Path, files: PacketFiles | None = None) -> PacketUniverses:
    """The packet universe and every document universe of the packet folder `packet` (its
    files read through `files` when given: read once, shared with the other readers)."""
    files = files if files is not None else PacketFiles(packet)
    skipped: Counter[str] = Counter()
    unreadable: dict[str, dict[str, Any]] = {}
    documents = {
        doc_id: document_universe(packet, doc_id, skipped, unreadable.setdefault(doc_id, {}), files)
        for doc_id in files.doc_ids()
    }
    pooled = Universe()
    for universe in documents.values():
        pooled.update(universe)
    return PacketUniverses(
        pooled, documents, skipped, {doc: found for doc, found in unreadable.items() if found}
    )
