"""The token-cap audit: completions that came within a margin (5 %) of their output cap.

A completion that used 95 % or more of `max_output_tokens` (visible output plus reasoning) may
have been cut short or squeezed, so its score says as much about the cap as about the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packetbench.benchmark.records import read_record
from packetbench.benchmark.runs import read_run
from packetbench.core.errors import BadInput

MARGIN = 0.05


@dataclass(frozen=True)
class NearCap:
    packet_id: str
    doc_id: str
    status: str
    finish_reason: str | None
    used: int  # output + reasoning tokens
    cap: int

    @property
    def share(self) -> float:
        return self.used / self.cap

    def to_json(self) -> dict[str, Any]:
        return {
            "packet_id": self.packet_id,
            "doc_id": self.doc_id,
            "status": self.status,
            "finish_reason": self.finish_reason,
            "tokens_used": self.used,
            "cap": self.cap,
            "share_of_cap": round(self.share, 4),
        }


@dataclass(frozen=True)
class TokenAudit:
    run: Path
    cap: int
    completions: int  # records with usage
    near: list[NearCap]

    def to_json(self) -> dict[str, Any]:
        return {
            "run": str(self.run),
            "cap": self.cap,
            "margin": MARGIN,
            "completions": self.completions,
            "near_cap": [n.to_json() for n in self.near],
        }


def audit_tokens(run: Path, margin: float = MARGIN) -> TokenAudit:
    info = read_run(run)
    cap = info.max_output_tokens
    if cap is None or cap <= 0:
        raise BadInput(
            f"{run / 'run.json'}: records no output-token cap (provider "
            f"{info.provider!r}); the audit needs an API run"
        )
    near: list[NearCap] = []
    completions = 0
    for path in sorted((run / "extractions").glob("*/*.json")):
        record = read_record(path)
        used = record.usage.output_tokens + record.usage.reasoning_tokens
        if record.finish_reason is None and used == 0:
            continue  # no completion (the request failed)
        completions += 1
        if used >= cap * (1 - margin):
            near.append(
                NearCap(
                    record.packet_id, record.doc_id, record.status, record.finish_reason, used, cap
                )
            )
    near.sort(key=lambda n: (-n.share, n.packet_id, n.doc_id))
    return TokenAudit(run, cap, completions, near)
