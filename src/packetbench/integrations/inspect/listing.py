"""What an inspect_ai log of ``packetbench/extract`` read: the packet entries its task recorded
(the sha256 of every document and truth file), cut to the documents it has a sample of. Used
to check a log against a release (`leaderboard --check`) without making a run of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from packetbench.core.errors import BadInput
from packetbench.integrations.inspect.convert import _read


def log_listing(log: Path) -> tuple[str, Any, dict[str, set[str]]]:
    """(model, the task's packet entries as recorded, packet id -> doc ids with a sample)."""
    evaluation = _read(log)
    meta = (evaluation.eval.metadata or {}).get("packetbench")
    if not isinstance(meta, dict):
        raise BadInput(f"{log}: records no packetbench metadata (not a log of packetbench/extract)")
    asked: dict[str, set[str]] = {}
    for sample in evaluation.samples or []:
        metadata = sample.metadata or {}
        asked.setdefault(str(metadata.get("packet_id")), set()).add(str(metadata.get("doc_id")))
    if not asked:
        raise BadInput(f"{log}: holds no samples")
    return str(evaluation.eval.model), meta.get("packets"), asked
