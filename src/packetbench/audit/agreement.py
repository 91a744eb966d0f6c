"""Whether a field's `value` is what its `rendered_as` shows.

The readers confirm `rendered_as` on the page; the scorer compares extractions with `value`.
A value that drifted from the drawn text would blame a model for the page being right, so
the audit holds them equal under the normalization of the field's kind (docs/design.md §7).
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta
from decimal import Decimal
from functools import lru_cache
from typing import Any

from packetbench.core import codes
from packetbench.generator.render.sheetlook import EXCEL_EPOCH
from packetbench.truth import normalize

_CODE_LISTS = tuple(code_list.name for code_list in codes.ALL)


def agrees(value: Any, rendered_as: str, kind: str, reading: dict[str, Any] | None = None) -> bool:
    """Whether `value` is what `rendered_as` shows; `reading` is how a presentation pattern
    says the shown text is read (its manifest delta), checked here by its own rule."""
    if isinstance(value, list | dict):
        return False  # a drawn leaf is a scalar
    if reading is not None:
        return _read(value, rendered_as, kind, reading)
    if kind != "checkbox" and value == rendered_as:
        return True  # equal text is equal under every normalization
    return _agrees(value, rendered_as, kind)


def _scaled(rendered_as: str, factor: int) -> Decimal | None:
    number = normalize.number(rendered_as)
    if number is None:
        return None
    return Decimal(repr(number)) * factor


def _read(value: Any, rendered_as: str, kind: str, reading: dict[str, Any]) -> bool:
    """The conventions of docs/patterns.md data.* and overlay.* patterns, each read exactly."""
    rule = reading.get("reading")
    if reading.get("shown") not in (None, rendered_as) or reading.get("canonical") != value:
        return False  # the delta must describe this very drawing
    if rule == "currency_code":
        code, _, amount = rendered_as.partition(" ")
        return len(code) == 3 and code.isalpha() and _agrees(value, amount, kind)
    if rule == "dash_zero":
        return rendered_as in ("\u2014", "\u2013", "-") and value == 0
    if rule in ("thousands", "fraction"):
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        scaled = _scaled(rendered_as, 1000 if rule == "thousands" else 100)
        return scaled is not None and scaled == Decimal(repr(float(value)))
    if rule == "as_text":  # a number stored in a text cell, written as a number is
        number = normalize.number(rendered_as)
        return (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and number is not None
            and Decimal(repr(number)) == Decimal(repr(float(value)))
        )
    if rule == "serial":  # a date stored as its bare Excel serial number
        return (
            rendered_as.isdigit()
            and isinstance(value, str)
            and normalize.date(value) == (EXCEL_EPOCH + timedelta(int(rendered_as))).isoformat()
        )
    if rule == "line_breaks":  # a text broken over lines inside its cell
        return isinstance(value, str) and rendered_as.split() == value.split()
    if rule == "european":  # 1.234,56: dots group thousands, the comma marks decimals
        return _agrees(value, rendered_as.replace(".", "").replace(",", "."), kind)
    if rule == "marker":
        marker = reading.get("marker")
        return (
            isinstance(marker, str)
            and bool(marker)
            and rendered_as.endswith(marker)
            and agrees(value, rendered_as[: -len(marker)], kind)
        )
    if rule == "legend":
        legend = reading.get("legend")
        return isinstance(legend, dict) and legend.get(rendered_as) == value
    if rule == "nfkc":
        return isinstance(value, str) and (
            unicodedata.normalize("NFKC", rendered_as) == unicodedata.normalize("NFKC", value)
        )
    return False


@lru_cache(maxsize=1 << 16)
def _agrees(value: Any, rendered_as: str, kind: str) -> bool:
    if kind == "checkbox":
        # A ticked box shows its mark ("X"); an unticked one shows nothing and means "No".
        shown = "No" if not rendered_as.strip() else normalize.checkbox(rendered_as)
        return shown is not None and shown == normalize.checkbox(value)
    if kind == "enum" and isinstance(value, str):
        # A layout may draw a code list's abbreviation ("MNC") for the full name.
        return normalize.string(value) == normalize.string(rendered_as) or any(
            normalize.enum(rendered_as, name) == normalize.enum(value, name) for name in _CODE_LISTS
        )
    return normalize.equal(rendered_as, value, kind)
