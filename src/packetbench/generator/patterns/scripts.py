"""Right-to-left names: Hebrew and Arabic, and how they are drawn on a left-to-right page.

A PDF draws glyphs left to right; a right-to-left name is therefore written in visual order
(reversed), and Arabic letters in the contextual forms they take inside a word (the Arabic
Presentation Forms-B block). pdfium, like a person, reads it back in logical order, which is
the name's value. The forms are looked up from the Unicode database, not typed in.
"""

from __future__ import annotations

import unicodedata
from functools import cache

# Our own short lists of common given and family names.
HEBREW_GIVEN = ("דוד", "משה", "יוסף", "שרה", "רחל", "מרים", "אברהם", "נועה", "יעל", "אורי")
HEBREW_FAMILY = ("כהן", "לוי", "מזרחי", "פרץ", "ביטון", "פרידמן", "שפירא", "אזולאי")
ARABIC_GIVEN = ("محمد", "أحمد", "فاطمة", "عمر", "ليلى", "يوسف", "مريم", "خالد", "سارة", "حسن")
ARABIC_FAMILY = ("حداد", "منصور", "خوري", "نصار", "سليمان", "عيسى", "بكر", "حمدان")


@cache
def _forms() -> dict[str, dict[str, str]]:
    """Base Arabic letter -> {"isolated"|"final"|"initial"|"medial": presentation form}."""
    table: dict[str, dict[str, str]] = {}
    for code in range(0xFE70, 0xFEFF):
        decomposition = unicodedata.decomposition(chr(code)).split()
        if len(decomposition) == 2 and decomposition[0].startswith("<"):
            form = decomposition[0][1:-1]
            base = chr(int(decomposition[1], 16))
            table.setdefault(base, {})[form] = chr(code)
    return table


def _joins_forward(letter: str) -> bool:
    """Dual-joining letters connect to the letter after them; right-joining ones do not."""
    return "initial" in _forms().get(letter, {})


def shape(text: str) -> str:
    """Arabic letters of `text` in their contextual forms (logical order kept)."""
    forms = _forms()
    out = []
    for index, letter in enumerate(text):
        if letter not in forms:
            out.append(letter)
            continue
        before = text[index - 1] if index else ""
        after = text[index + 1] if index + 1 < len(text) else ""
        joined_before = before in forms and _joins_forward(before)
        joined_after = after in forms and _joins_forward(letter)
        form = (
            "medial"
            if joined_before and joined_after
            else "final"
            if joined_before
            else "initial"
            if joined_after
            else "isolated"
        )
        out.append(forms[letter].get(form) or forms[letter].get("isolated") or letter)
    return "".join(out)


def visual(text: str) -> str:
    """The glyph string a left-to-right page draws for right-to-left `text`."""
    return shape(text)[::-1]
