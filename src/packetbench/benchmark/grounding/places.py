"""Where the truth shows each value: field_truth locations by path, read once per document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from packetbench.core.packet_files import FieldTruthFile, read_field_truth


def truth_places(
    packet: Path, doc_id: str, fields: FieldTruthFile | None = None
) -> dict[str, list[dict[str, Any]]]:
    """path -> the locations field_truth_<doc_id>.json (`fields`, when it was read already)
    gives for the value at that path."""
    found = fields if fields is not None else read_field_truth(packet, doc_id)
    return {entry["path"]: [dict(at) for at in entry["locations"]] for entry in found["fields"]}
