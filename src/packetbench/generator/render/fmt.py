"""How a leaf value is written on a page.

Formatting never loses information: a money value with cents keeps them even in a document
styled for whole dollars, because the truth must equal what a reader can read.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from packetbench.core.leaves import Leaf


@dataclass(frozen=True)
class Style:
    """A document's number and date conventions."""

    cents: bool = False  # always show cents on money
    currency: bool = True  # prefix money with "$"
    thousands: bool = True  # 1,250,000 rather than 1250000
    date: str = "%m/%d/%Y"
    abbreviate: bool = False  # draw enum values by their ACORD abbreviation where one exists
    checkbox_mark: str = "X"


PLAIN = Style()


def money(value: float, style: Style = PLAIN) -> str:
    cents = round(abs(value) * 100)
    whole, fraction = divmod(cents, 100)
    digits = f"{whole:,}" if style.thousands else str(whole)
    if style.cents or fraction:
        digits = f"{digits}.{fraction:02d}"
    text = f"${digits}" if style.currency else digits
    return f"({text})" if value < 0 else text


def number(value: float, leaf: Leaf, style: Style = PLAIN) -> str:
    if leaf.fmt == "year" or not style.thousands:
        return _plain(value)
    if float(value).is_integer():
        return f"{int(value):,}"
    whole, _, fraction = _plain(abs(value)).partition(".")
    return f"{'-' if value < 0 else ''}{int(whole):,}.{fraction}"


def _plain(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def percent(value: float) -> str:
    return f"{_plain(value)}%"


def date(value: str, style: Style = PLAIN) -> str:
    return dt.date.fromisoformat(value).strftime(style.date)


def render(value: Any, leaf: Leaf, style: Style = PLAIN) -> str:
    """The string drawn for `value` of `leaf` under `style` (value must not be None)."""
    kind = leaf.kind
    if kind == "money":
        return money(value, style)
    if kind == "number":
        return number(value, leaf, style)
    if kind == "percent":
        return percent(value)
    if kind == "date":
        return date(value, style)
    if kind == "checkbox":
        if leaf.fmt == "yn":  # a Y/N answer written as text, as ACORD "...Code" fields are
            return "Y" if value == "Yes" else "N"
        return style.checkbox_mark if value == "Yes" else ""
    if kind == "enum" and style.abbreviate and leaf.codes is not None:
        return leaf.codes.abbreviation(value)
    return str(value)
