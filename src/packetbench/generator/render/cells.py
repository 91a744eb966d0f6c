"""The text of a spreadsheet or CSV cell, as a reader gets it back.

For XLSX and CSV, a field's `rendered_as` is the cell's stored content in this canonical text
form (a date cell reads back as its ISO date, a number as its shortest decimal form); number
formats only decorate the display. The audit reads cells back and applies the same function.
"""

from __future__ import annotations

import datetime as dt
from typing import Any


def cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0, 0):
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)
