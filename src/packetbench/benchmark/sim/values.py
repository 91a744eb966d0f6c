"""Values the simulated extractor writes: fabricated ones the packet never shows, and true
ones written differently.

Fabricated values are drawn until the packet universe does not contain them, so their
outcome (ungrounded, hallucinated) holds by construction. Reformatted values stay equal to
the truth under normalization, so they must score as correct.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

from packetbench.truth import normalize
from packetbench.truth.universe import Universe

_CONSONANTS = "bcdfgklmnprstvz"
_VOWELS = "aeiou"


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_CONSONANTS) + rng.choice(_VOWELS) for _ in range(3)) + rng.choice(
        _CONSONANTS
    )


def foreign_word(rng: random.Random, universe: Universe) -> str:
    """A capitalized made-up word whose normalized token is not in the universe."""
    while True:
        word = _word(rng)
        if word not in universe.tokens:
            return word.capitalize()


def fabricate(kind: str, json_type: str, rng: random.Random, universe: Universe) -> Any:
    """A value of `kind` that the packet shows nowhere (None when the kind cannot be faked
    without breaking the schema: enums and checkboxes)."""
    if kind in ("enum", "checkbox"):
        return None
    if json_type == "integer":
        while True:
            whole = rng.randint(10_000, 99_999)
            if not universe.has_number(whole):
                return whole
    if json_type == "number":
        while True:
            amount = rng.randint(1_000_000, 99_999_999) / 100
            if not universe.has_number(amount):
                return amount
    if kind == "date":
        while True:
            day = dt.date(1990, 1, 1) + dt.timedelta(days=rng.randint(0, 14_000))
            if not universe.has_date(day.isoformat()):
                return day.isoformat()
    if kind == "id":
        while True:
            code = f"{rng.choice('QXZ')}{rng.randint(1000, 9999)}{_word(rng)[:3].upper()}"
            if not universe.has_string(code):
                return code
    words = f"{foreign_word(rng, universe)} {foreign_word(rng, universe)}"
    return words


def reformat(value: Any, kind: str) -> Any | None:
    """The same value written differently but equal under normalization (None if there is
    no such spelling for this kind)."""
    if not isinstance(value, str):
        return None
    if kind == "id":
        plain = re.sub(r"[^0-9A-Za-z]", "", value)
        return plain if plain != value and normalize.id_form(plain) else None
    if kind == "date":
        iso = normalize.date(value)
        return dt.date.fromisoformat(iso).strftime("%m/%d/%Y") if iso else None
    if kind in ("string", "text"):
        # Upper case, punctuation turned into spaces: "L.L.C." -> "L L C" (not "LLC", which
        # normalizes differently).
        written = re.sub(r"[.,&'/-]", " ", value).upper()
        return written if written != value else None
    return None
