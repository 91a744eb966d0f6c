"""The committed JSON Schemas and docs/design.md §5's strictness rules."""

from __future__ import annotations

from typing import Any

from tests.support.paths import ROOT

SCHEMAS = ROOT / "src" / "packetbench" / "schemas"


def strictness_problems(node: dict[str, Any], where: str) -> list[str]:
    """Every violation of docs/design.md §5 strictness under `node`."""
    problems: list[str] = []
    if "$ref" in node or "anyOf" in node or "oneOf" in node:
        problems.append(f"{where}: uses $ref/anyOf/oneOf")
    if not node.get("description"):
        problems.append(f"{where}: no description")
    kind = node.get("type")
    if kind == "object":
        if node.get("additionalProperties") is not False:
            problems.append(f"{where}: additionalProperties is not false")
        if node.get("required") != list(node.get("properties", {})):
            problems.append(f"{where}: required does not list every property in order")
        for name, child in node.get("properties", {}).items():
            problems += strictness_problems(child, f"{where}.{name}")
    elif kind == "array":
        problems += strictness_problems(node["items"], f"{where}[]")
    else:
        if not (
            isinstance(kind, list)
            and len(kind) == 2
            and kind[1] == "null"
            and kind[0] in ("string", "number", "integer", "boolean")
        ):
            problems.append(f"{where}: leaf type {kind!r} is not a nullable type union")
        if "enum" in node and node["enum"][-1] is not None:
            problems.append(f"{where}: nullable enum lacks null")
    return problems
