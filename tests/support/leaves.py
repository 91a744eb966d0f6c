"""Truth documents flattened to their leaves."""

from __future__ import annotations

from typing import Any


def leaves(data: Any, prefix: str = "") -> dict[str, Any]:
    found: dict[str, Any] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            found.update(leaves(value, f"{prefix}.{key}" if prefix else key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found.update(leaves(value, f"{prefix}[{index}]"))
    else:
        found[prefix] = data
    return found
