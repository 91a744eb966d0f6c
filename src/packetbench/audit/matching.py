"""When OCR's reading of hidden text proves nothing: the rules by which the audit discounts a
hidden string that OCR reads on a page because it misread a shown value
(`misread_everywhere`), because the page shows those words in their own right
(`shown_elsewhere`), or because one OCR confusion turns a shown word into it
(`confusable_shown`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from packetbench.generator.render.attack import CONFUSIONS
from packetbench.reading.page import OcrPage, folded_word, whole_words
from packetbench.reading.text import folded


def misread_everywhere(scan: OcrPage, text: str, misreadings: Counter[str]) -> bool:
    """Whether every time OCR reads `text` on the page, it reads it in the box of a value the
    page shows otherwise (`misreadings`: folded OCR readings of the page's boxes that did not
    match their values). An invisible OCR layer's false words are OCR-style confusions of
    the words they cover ("$3,001" -> "$8,001"); tesseract can make the same confusion on
    the image, which proves nothing about the hidden text being visible."""
    form = folded(text)
    return bool(form) and 0 < scan.count(text) <= misreadings[form]


def shown_elsewhere(text: str, strings: Sequence[str]) -> int:
    """How many times `text` occurs as whole words in the strings a page shows. A hidden tail
    may be a word the page also shows in its own right (a clipped "Preventive" beside the
    visible "Preventive maintenance every ..."): OCR reading it that often proves nothing."""
    form = folded(text)
    if not form:
        return 0
    pattern = whole_words(form)
    # Each shown word folded as OCR's words are (`folded_word`), side by side as one phrase.
    return sum(
        len(pattern.findall(" " + " ".join(folded_word(w) for w in shown.split()) + " "))
        for shown in strings
    )


def confusable_shown(text: str, strings: Sequence[str]) -> int:
    """How many words the page shows that one OCR confusion turns into `text` (a single
    word): an invisible OCR layer's false word is such a confusion of a word it covers
    ("limit" -> "lirnit", `generator.render.attack.CONFUSIONS`), and tesseract makes the same
    confusion on the image now and then, which proves nothing about the hidden word."""
    target = folded(text)
    if not target or " " in target:
        return 0
    count = 0
    for shown in strings:
        for word in shown.split():
            variants = {
                word[:i] + right + word[i + len(wrong) :]
                for wrong, right in CONFUSIONS
                for i in range(len(word))
                if word.startswith(wrong, i)
            }
            count += any(folded(variant) == target for variant in variants)
    return count
