"""Text as a reader compares it: what the generator settles and the audit checks alike."""

from __future__ import annotations

import unicodedata


def folded(text: str) -> str:
    """`text` with compatibility forms folded (NFKC: a ligature glyph as its letters) and no
    whitespace: two renderings of one value compare equal."""
    return "".join(unicodedata.normalize("NFKC", text).split())
