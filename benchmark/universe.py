"""The universe: everything a reader can see in a packet, and whether a value is among it.

Built from the generator's files only (DESIGN §4): every `value` and `rendered_as` of each
field_truth file, and every visible string of each rendered_universe file. Layout keys
(`locations`, `bbox`, `page`, ...), paths, kinds and hidden text are never read; they are only
counted, so the audit can show what was skipped. The packet universe pools all documents of a
packet (customer facts are shared across documents); a document universe is one document's.
The scorer and the audit share this module.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmark.errors import BadInput
from benchmark.score import normalize

_DATE_IN_TEXT = re.compile(r"\b\d{1,2}/\d{1,2}/\d{4}\b|\b\d{4}-\d{2}-\d{2}\b")
FIELD_KEYS_READ = ("value", "rendered_as")


@dataclass
class Universe:
    """Normalized strings, id forms, tokens, numbers and ISO dates a reader can see."""

    strings: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    tokens: set[str] = field(default_factory=set)
    numbers: set[float] = field(default_factory=set)
    dates: set[str] = field(default_factory=set)

    def add(self, value: Any) -> None:
        """Add a value as seen on a page (a string, a number, or a boolean-free scalar)."""
        if value is None or isinstance(value, bool):
            return
        if isinstance(value, int | float):
            self.numbers.add(float(value))
            return
        text = str(value)
        form = normalize.string(text)
        if not form:
            return
        self.strings.add(form)
        self.tokens.update(form.split())
        for chunk in {text, *text.split()}:
            ident = normalize.id_form(chunk)
            if ident:
                self.ids.add(ident)
        whole = normalize.number(text)
        if whole is not None:
            self.numbers.add(whole)
        for match in normalize.NUMBER_IN_TEXT.finditer(text):
            found = normalize.number(match.group(0))
            if found is not None:
                self.numbers.add(found)
        iso = normalize.date(text)
        if iso:
            self.dates.add(iso)
        for match in _DATE_IN_TEXT.finditer(text):
            found_date = normalize.date(match.group(0))
            if found_date:
                self.dates.add(found_date)

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
        return {"strings": len(self.strings), "ids": len(self.ids), "tokens": len(self.tokens),
                "numbers": len(self.numbers), "dates": len(self.dates)}


@dataclass
class PacketUniverses:
    """The packet universe, each document's universe, and what building them skipped."""

    packet: Universe
    documents: dict[str, Universe]
    skipped: Counter[str]


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadInput(f"{path}: missing") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BadInput(f"{path}: unreadable ({error})") from None


def document_universe(packet: Path, doc_id: str, skipped: Counter[str] | None = None) -> Universe:
    """The universe of one document, from its field_truth and rendered_universe files."""
    skipped = skipped if skipped is not None else Counter()
    universe = Universe()
    fields = _read(packet / f"field_truth_{doc_id}.json")
    for key in fields:
        if key != "fields":
            skipped[key] += 1
    for entry in fields.get("fields", []):
        for key in entry:
            if key in FIELD_KEYS_READ:
                universe.add(entry[key])
            else:
                skipped[key] += 1
    rendered = _read(packet / f"rendered_universe_{doc_id}.json")
    for key in rendered:
        if key == "hidden":
            skipped["hidden"] += len(rendered["hidden"])
        elif key != "strings":
            skipped[key] += 1
    for entry in rendered.get("strings", []):
        for key in entry:
            if key == "text":
                universe.add(entry["text"])
            else:
                skipped[key] += 1
    return universe


def packet_doc_ids(packet: Path) -> list[str]:
    truth = _read(packet / "packet_truth.json")
    try:
        return [doc["doc_id"] for doc in truth["documents"]]
    except (KeyError, TypeError):
        raise BadInput(f"{packet / 'packet_truth.json'}: no documents list") from None


def build(packet: Path) -> PacketUniverses:
    """The packet universe and every document universe of the packet folder `packet`."""
    skipped: Counter[str] = Counter()
    documents = {doc_id: document_universe(packet, doc_id, skipped)
                 for doc_id in packet_doc_ids(packet)}
    pooled = Universe()
    for universe in documents.values():
        pooled.update(universe)
    return PacketUniverses(pooled, documents, skipped)
