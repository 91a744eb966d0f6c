"""Visible text nobody accounted for: every word a PDF page's text layer carries must belong to
a located value, a declared label (a universe string that shows no value), or (on a page with an
OCR text layer) a misreading the universe lists as hidden.

The value check reads each truth value at its location; it cannot see the reverse, a value on
the page that no truth file mentions. That is what a truth leaf nulled in both truth files
looks like (its value stays on the page, and a model that reads it correctly is scored
`contradicted`), and what a label or stamp drawn without being declared looks like. Both are
findings here. The universe's strings that show a value name its truth leaf (`path`); they
account for nothing themselves (the field truth does), and one whose leaf the field truth does
not hold is named in the finding.

Words are compared as a multiset per page, stripped of the punctuation that joins neighbouring
fields in the text layer ("Walkertown," of "Walkertown, Seanbury"): a page may carry a word as
often as its values and strings draw it, twice where an OCR layer repeats the drawn text, and a
hidden misreading any number of times. Truncated text ("Squar…") is compared as drawn: the
location's own text, or the value's `rendered_as`.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from packetbench.benchmark.audit.files import Document

# Patterns whose text layer repeats the page's drawn text (an OCR layer over an image, or an
# invisible OCR layer over native text): each drawn word may be there twice.
OCR_LAYERS = frozenset({"scan.ocr_layer", "textlayer.invisible_ocr"})
_WORD = re.compile(r"\S+")
_PUNCTUATION = ",;:()\"'."
SHOWN = 8  # words named per finding


def words(text: Any) -> list[str]:
    """The words of `text` as a reader reads them (NFKC: a ligature reads as its letters),
    without the punctuation that glues neighbouring fields."""
    folded = unicodedata.normalize("NFKC", str(text))
    found = (raw.strip(_PUNCTUATION) for raw in _WORD.findall(folded))
    return [word for word in found if word]


def _pages(doc: Document, ids: Iterable[str]) -> set[int]:
    wanted = set(ids)
    pages: set[int] = set()
    for pattern in doc.manifest.get("patterns_applied") or []:
        if isinstance(pattern, dict) and pattern.get("id") in wanted:
            affected = pattern.get("pages_affected")
            if isinstance(affected, list):
                pages.update(p for p in affected if type(p) is int)
    return pages


def accounted(doc: Document) -> tuple[dict[int, Counter[str]], dict[int, set[str]]]:
    """Per page: the words the document's values and strings draw there (as a multiset), and
    the hidden misreadings its text layer may carry."""
    drawn: dict[int, Counter[str]] = defaultdict(Counter)
    for entry in doc.fields:
        for location in entry.get("locations") or []:
            if isinstance(location, dict) and type(location.get("page")) is int:
                text = location.get("text", entry.get("rendered_as", entry.get("value")))
                drawn[location["page"]].update(words(text))
    for entry in doc.strings:
        if type(entry.get("page")) is int and "path" not in entry:
            drawn[entry["page"]].update(words(entry.get("text", "")))
    hidden: dict[int, set[str]] = defaultdict(set)
    for entry in doc.hidden:
        if type(entry.get("page")) is int:
            hidden[entry["page"]].update(words(entry.get("text", "")))
    for page in _pages(doc, OCR_LAYERS):
        drawn[page] = drawn[page] + drawn[page]
    return drawn, hidden


def orphans(doc: Document) -> dict[int, list[str]]:
    """Per page, the truth leaves the universe's value strings name but the field truth does
    not hold (neither located nor illegible)."""
    held = {entry.get("path") for entry in doc.fields}
    held.update(entry.get("path") for entry in doc.illegible)
    lost: dict[int, list[str]] = defaultdict(list)
    for entry in doc.strings:
        path = entry.get("path")
        if path is not None and path not in held and type(entry.get("page")) is int:
            if str(path) not in lost[entry["page"]]:
                lost[entry["page"]].append(str(path))
    return lost


def unaccounted(page_text: str, drawn: Counter[str], hidden: set[str]) -> Counter[str]:
    """The words of a page's text layer beyond what its values, strings and hidden misreadings
    account for."""
    shown = Counter(word for word in words(page_text) if word not in hidden)
    return shown - drawn


def describe(left: Counter[str]) -> str:
    """"'Walkertown', 'Seanbury' x2 (+3 more)": the first words left over, in page order."""
    named = [f"{word!r}" + (f" x{n}" if n > 1 else "") for word, n in list(left.items())[:SHOWN]]
    more = len(left) - SHOWN
    return ", ".join(named) + (f" (+{more} more)" if more > 0 else "")
