"""Text as a reader compares it, in one place: as OCR reads it (`folded`, for the audit, the
difficulty measure and the generator's OCR-style attacks alike; `same_text`, whether a reading
is an expected text), and as a PDF text layer gives it (`layer_text`, `layer_folded`, for the
character reading of a page's text layer). Both build on `core.text.folded`'s NFKC and
`normalize.string`."""

from __future__ import annotations

import unicodedata

from packetbench.truth import normalize

# Tokens with a digit are identifiers or numbers: a letter O, I or l in one is drawn like the
# digit beside it in Helvetica ("O25896314"), and OCR reads it as that digit.
_AS_DIGIT = str.maketrans({"o": "0", "i": "1", "l": "1"})


def folded(text: str) -> str:
    """`normalize.string` without what tesseract's English model cannot read apart.

    Its alphabet has no accented letters (it reads "Simön" as "Simon" or "Sim6n"; both are
    legible to a person); a capital I and a small l are one glyph in Helvetica; in a token
    with a digit, O/I/l are drawn like 0/1. The audit asks whether a scan is legible, so
    these are folded on both sides; anything else still has to match.
    """
    plain = normalize.string(
        "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    )
    return " ".join(
        t.translate(_AS_DIGIT) if any(c.isdigit() for c in t) else t.replace("l", "i")
        for t in plain.split()
    )


def same_text(read: str, expected: str) -> bool:
    """Whether OCR's `read` is `expected`, spaces aside (OCR drops and adds them), with or
    without folding: folding goes by token, and OCR glues "0646 Logan" into one."""
    return any(
        form(read).replace(" ", "") == form(expected).replace(" ", "")
        for form in (folded, normalize.string)
    )


# What joins a drawn text to its neighbours on a page: a text layer's text is compared without
# it at the text's ends.
PUNCTUATION = ",;:()[]\"'.-–—/|*•·_"


def layer_text(text: object) -> str:
    """NFKC (a ligature reads as its letters), and the hyphen pdfium reports as U+FFFE where a
    line's words were set apart by position instead of spaces read as a hyphen."""
    return unicodedata.normalize("NFKC", str(text)).replace("\ufffe", "-")


def layer_folded(text: object) -> str:
    """`text` as the character reading of a text layer compares it: `layer_text`, no
    whitespace, without PUNCTUATION at its ends."""
    return "".join(layer_text(text).split()).strip(PUNCTUATION)
