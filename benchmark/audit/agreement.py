"""Whether a field's `value` is what its `rendered_as` shows.

The readers confirm `rendered_as` on the page; the scorer compares extractions with `value`.
A value that drifted from the drawn text would blame a model for the page being right, so
the audit holds them equal under the normalization of the field's kind (DESIGN §7).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from benchmark.score import normalize
from generator import codes

_CODE_LISTS = tuple(code_list.name for code_list in codes.ALL)


def agrees(value: Any, rendered_as: str, kind: str) -> bool:
    if kind != "checkbox" and value == rendered_as:
        return True  # equal text is equal under every normalization
    if isinstance(value, list | dict):
        return False  # a drawn leaf is a scalar
    return _agrees(value, rendered_as, kind)


@lru_cache(maxsize=1 << 16)
def _agrees(value: Any, rendered_as: str, kind: str) -> bool:
    if kind == "checkbox":
        # A ticked box shows its mark ("X"); an unticked one shows nothing and means "No".
        shown = "No" if not rendered_as.strip() else normalize.checkbox(rendered_as)
        return shown is not None and shown == normalize.checkbox(value)
    if kind == "enum" and isinstance(value, str):
        # A layout may draw a code list's abbreviation ("MNC") for the full name.
        return (normalize.string(value) == normalize.string(rendered_as)
                or any(normalize.enum(rendered_as, name) == normalize.enum(value, name)
                       for name in _CODE_LISTS))
    return normalize.equal(rendered_as, value, kind)
