"""The committed schema files: what `_build_schemas.py` writes and checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.json_schema import document_schema


def all_schemas() -> dict[str, dict[str, Any]]:
    """Schema name -> strict JSON Schema, for every registered document type."""
    return {name: document_schema(name, DOC_TYPES[name].model) for name in sorted(DOC_TYPES)}


def schema_bytes(schema: dict[str, Any]) -> bytes:
    return (json.dumps(schema, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def stale(folder: Path) -> list[str]:
    """Why the schema files in `folder` differ from the models (empty when they are current)."""
    problems: list[str] = []
    expected = {f"{name}.schema.json": schema_bytes(s) for name, s in all_schemas().items()}
    for file, content in expected.items():
        path = folder / file
        if not path.exists():
            problems.append(f"{path}: missing")
        elif path.read_bytes() != content:
            problems.append(f"{path}: differs from the document model")
    for path in sorted(folder.glob("*.schema.json")):
        if path.name not in expected:
            problems.append(f"{path}: no document type has this schema")
    return problems


def write(folder: Path) -> list[Path]:
    """Write every schema into `folder` and remove schema files no model produces."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    expected = {f"{name}.schema.json": schema_bytes(s) for name, s in all_schemas().items()}
    for file, content in expected.items():
        (folder / file).write_bytes(content)
        written.append(folder / file)
    for path in folder.glob("*.schema.json"):
        if path.name not in expected:
            path.unlink()
    return written
