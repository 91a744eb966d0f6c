"""Visible text nobody accounted for: everything a PDF page's text layer carries must belong to
a located value, a declared label (a universe string that shows no value), or (on a page with an
OCR text layer) a misreading the universe lists as hidden; every visible cell of a workbook or
CSV file must be a located value or a declared string (`declared_cells`).

The value check reads each truth value at its location; it cannot see the reverse, a value on
the page that no truth file mentions. That is what a truth leaf nulled in both truth files
looks like (its value stays on the page, and a model that reads it correctly is scored
`contradicted`), and what a label or stamp drawn without being declared looks like. Both are
findings here. The universe's strings that show a value name its truth leaf (`path`); they
account for text only while the field truth holds that leaf, and one whose leaf it does not
hold is named in the finding.

Two readings compare the page with what is accounted for, and text is unaccounted only when
both leave some over (each alone is defeated by something the generator does on purpose):
- by words (NFKC-folded runs of letters and digits, so "2-story", the value "2" and the
  string "-story", is "2" and "story"), as a multiset: a page may carry a word as often as its
  values and labels draw it, and a word left over that is two or more accounted words run
  together, each with allowance to spare, is those words; a kerned line (no spaces) defeats
  it;
- by characters: the page's text and every accounted text folded and stripped of whitespace
  (an accounted text also of the punctuation at its ends), each accounted text taking one
  occurrence of itself, longest first (a value drawn twice must be on the page twice), first
  where the occurrence begins and ends at a word's edge (whitespace or punctuation), then
  anywhere; a stacked header or white text read between other lines can defeat it. What is
  left, cut at whitespace and where text was taken, are the pieces named in the finding;
  pieces without a letter or digit (rules, bullets, punctuation) are not text.
Hidden text (a redacted value under its bar, a misreading) may be there any number of times.

A page with an OCR layer (`scan.ocr_layer`, `textlayer.invisible_ocr`) is compared by words
alone: its layer spells the page word by word, some misread (listed as hidden), so a drawn
string rarely survives whole; each drawn word may be there twice (glyphs and layer). Pages
whose text layer a pattern garbles on purpose (`textlayer.cmap_*`) are not read: the attack
audit holds them to their claims.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from packetbench.reading.text import PUNCTUATION, layer_folded, layer_text
from packetbench.truth.documents import Document

# Patterns whose text layer repeats the page's drawn text (an OCR layer over an image, or an
# invisible OCR layer over native text): each drawn text may be there twice.
OCR_LAYERS = frozenset({"scan.ocr_layer", "textlayer.invisible_ocr"})
# Patterns whose text layer says something else than the glyphs on purpose.
GARBLED = frozenset({"textlayer.cmap_scramble", "textlayer.cmap_gaps"})
_WORD = re.compile(r"[^\W_]+")
SHOWN = 8  # pieces named per finding


def pages_of(doc: Document, ids: Iterable[str]) -> set[int]:
    """The pages the manifest's patterns `ids` affected."""
    wanted = set(ids)
    pages: set[int] = set()
    for pattern in doc.manifest.get("patterns_applied") or []:
        if isinstance(pattern, dict) and pattern.get("id") in wanted:
            affected = pattern.get("pages_affected")
            if isinstance(affected, list):
                pages.update(p for p in affected if type(p) is int)
    return pages


def accounted(doc: Document) -> tuple[dict[int, Counter[str]], dict[int, set[str]]]:
    """Per page: the texts the document's values and labels draw there (with how often), and
    the hidden text its text layer may carry, as drawn (`unaccounted` folds them).

    A value counts by the lines its strings record (a wrapped cell's lines may be read apart,
    between its neighbours' lines) when its leaf is in the field truth, else by its
    `rendered_as` at each location; a value string whose leaf the field truth lacks counts
    for nothing."""
    held = {entry.get("path") for entry in doc.fields}
    held.update(entry.get("path") for entry in doc.illegible)
    drawn: dict[int, Counter[str]] = defaultdict(Counter)
    lined: set[tuple[int, str]] = set()
    for entry in doc.strings:
        page, path = entry.get("page"), entry.get("path")
        if type(page) is not int or (path is not None and path not in held):
            continue
        drawn[page][str(entry.get("text", ""))] += 1
        if path is not None:
            lined.add((page, str(path)))
    for entry in doc.fields:
        for location in entry.get("locations") or []:
            page = location.get("page") if isinstance(location, dict) else None
            if type(page) is int and (page, str(entry.get("path"))) not in lined:
                text = location.get("text", entry.get("rendered_as", entry.get("value")))
                drawn[page][str(text)] += 1
    hidden: dict[int, set[str]] = defaultdict(set)
    for entry in doc.hidden:
        if type(entry.get("page")) is int:
            hidden[entry["page"]].add(str(entry.get("text", "")))
    return drawn, hidden


def words(text: str) -> list[str]:
    """The words of `text` as the word reading compares them: runs of letters and digits, so
    punctuation never joins a value to its neighbour ("2-story" is "2" and "story")."""
    return _WORD.findall(layer_text(text))


def declared_cells(doc: Document) -> dict[int, set[str]]:
    """Per page (a sheet, or a CSV file's one page): the whitespace-normalized texts a cell
    off every location may show, the universe's strings that show no value (labels, titles,
    tab names) and the hidden text (a redacted cell keeps its value under its bar). A
    workbook or CSV cell is compared whole: a value is at its location, every other cell is
    one of these (a value string declares no other cell: a total equal to a lost value must
    not account for it)."""
    texts: dict[int, set[str]] = defaultdict(set)
    for entry in (*doc.strings, *doc.hidden):
        page = entry.get("page")
        if type(page) is int and entry.get("path") is None:
            texts[page].add(" ".join(str(entry.get("text", "")).split()))
    return texts


def orphans(doc: Document) -> dict[int, list[str]]:
    """Per page, the truth leaves the universe's value strings name but the field truth does
    not hold (neither located nor illegible)."""
    held = {entry.get("path") for entry in doc.fields}
    held.update(entry.get("path") for entry in doc.illegible)
    lost: dict[int, list[str]] = defaultdict(list)
    for entry in doc.strings:
        path = entry.get("path")
        page = entry.get("page")
        if path is None or path in held or type(page) is not int:
            continue
        if str(path) not in lost[page]:
            lost[page].append(str(path))
    return lost


def _split(token: str, spare: Counter[str], free: set[str]) -> list[str] | None:
    """`token` as two or more accounted words with allowance to spare (or misreadings, `free`),
    run together ("BUILT" and "STORIES" read as one word where a layer set them side by side),
    or None."""

    def rest(at: int) -> list[str] | None:
        if at == len(token):
            return []
        for end in range(len(token), at, -1):
            head = token[at:end]
            if head in free:
                tail = rest(end)
                if tail is not None:
                    return [head, *tail]
            elif spare[head] > 0:
                spare[head] -= 1
                tail = rest(end)
                if tail is not None:
                    return [head, *tail]
                spare[head] += 1
        return None

    found = rest(0)
    if found is not None and len(found) < 2:
        if found[0] not in free:
            spare[found[0]] += 1
        return None
    return found


def _by_words(page_text: str, drawn: Counter[str], hidden: set[str], copies: int) -> Counter[str]:
    allowed: Counter[str] = Counter()
    for text, count in drawn.items():
        for word in words(text):
            allowed[word] += copies * count
    misread = {word for text in hidden for word in words(text)}
    shown = Counter(w for w in words(page_text) if w not in misread)
    left, spare = shown - allowed, allowed - shown
    for token in list(left):
        for _ in range(left[token]):
            if _split(token, spare, misread) is None:
                break
            left[token] -= 1
    return +left


def _fold_with_bounds(text: str) -> tuple[str, set[int], set[int]]:
    """The page's text without whitespace; the positions in it where whitespace was (and both
    ends); and the positions where a word may begin or end: those, and either side of
    punctuation (an accounted text is compared without the punctuation at its ends)."""
    parts = layer_text(text).split()
    spaces, position = {0}, 0
    for part in parts:
        position += len(part)
        spaces.add(position)
    page = "".join(parts)
    bounds = set(spaces)
    for index, char in enumerate(page):
        if char in PUNCTUATION:
            bounds.update((index, index + 1))
    return page, spaces, bounds


def _by_characters(page_text: str, drawn: Counter[str], hidden: set[str]) -> Counter[str]:
    page, spaces, bounds = _fold_with_bounds(page_text)
    used = bytearray(len(page))
    wanted: dict[str, int] = {}  # folded text -> occurrences it accounts for (-1: any number)
    for text, count in drawn.items():
        if layer_folded(text):
            wanted[layer_folded(text)] = wanted.get(layer_folded(text), 0) + count
    for text in hidden:
        if layer_folded(text):
            wanted[layer_folded(text)] = -1
    order = sorted(wanted, key=lambda t: (-len(t), t))
    # Occurrences that begin and end where the page has whitespace first (a cell's "3" is
    # its own word, not the end of "13"), then anywhere (prose: "2" of "2-story").
    for aligned in (True, False):
        for text in order:
            start = 0
            while wanted[text] != 0:
                at = page.find(text, start)
                if at < 0:
                    break
                end = at + len(text)
                if (not aligned or (at in bounds and end in bounds)) and not any(used[at:end]):
                    used[at:end] = b"\x01" * len(text)
                    wanted[text] -= 1
                    start = end
                else:
                    start = at + 1
    pieces: Counter[str] = Counter()
    piece: list[str] = []
    for index, char in enumerate(page + " "):
        if index in spaces or index == len(page) or used[index]:
            word = "".join(piece).strip(PUNCTUATION)
            if any(c.isalnum() for c in word):
                pieces[word] += 1
            piece = []
        if index < len(page) and not used[index]:
            piece.append(char)
    return pieces


def unaccounted(
    page_text: str, drawn: Counter[str], hidden: set[str], ocr_layer: bool = False
) -> Counter[str]:
    """The pieces of a page's text layer that its values, labels and hidden text leave over,
    with how often each is left.

    Text is unaccounted when both readings leave something: by words (which a kerned line or
    a value run into its label's words defeats) and by characters (which a stacked header or
    white text read in between other lines can defeat); the pieces named are the characters'
    reading. A page with an OCR layer is read by words alone, each drawn word allowed twice."""
    if ocr_layer:
        return _by_words(page_text, drawn, hidden, copies=2)
    if not _by_words(page_text, drawn, hidden, copies=1):
        return Counter()
    return _by_characters(page_text, drawn, hidden)


def describe(left: Counter[str]) -> str:
    """ "'Walkertown', 'Seanbury' x2 (+3 more)": the first pieces left over, in page order."""
    named = [f"{piece!r}" + (f" x{n}" if n > 1 else "") for piece, n in list(left.items())[:SHOWN]]
    more = len(left) - SHOWN
    return ", ".join(named) + (f" (+{more} more)" if more > 0 else "")
