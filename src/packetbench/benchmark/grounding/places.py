"""Where the truth shows each value: field_truth locations by path, read once per document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from packetbench.benchmark.packets import read_json


def truth_places(packet: Path, doc_id: str) -> dict[str, list[dict[str, Any]]]:
    """path -> the locations field_truth_<doc_id>.json gives for the value at that path."""
    fields = read_json(packet / f"field_truth_{doc_id}.json")
    return {
        str(entry["path"]): list(entry.get("locations") or [])
        for entry in fields.get("fields", [])
        if isinstance(entry, dict) and "path" in entry
    }
