"""Judges: what labels a batch of claims. Registered by name in `JUDGES`.

`sim` is a simulated judge, not a model: it reads the scorer's exact verdict of each claim
(``RUN/scores/claims.parquet``, so the run must be scored first) and mislabels it at the
configured rates, seeded per claim, so the same run and settings give the same labels:

- a claim whose true verdict is not `supported` (a hallucinated claim) is flagged with
  probability `sensitivity`, and then gets its true verdict; otherwise it is labelled
  `supported`;
- a `supported` claim keeps its label with probability `specificity`; otherwise it gets one of
  the four other verdicts, uniformly.

So its sensitivity and specificity for "hallucinated" are the configured ones, and a
calibration on packets must recover them within its intervals.
"""

from __future__ import annotations

import hashlib
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from packetbench.benchmark.errors import BadInput, UsageError
from packetbench.benchmark.grounding.places import truth_places
from packetbench.benchmark.packets import DocInfo, Packet
from packetbench.benchmark.score.verdicts import VERDICTS
from packetbench.benchmark.verify.claims import Claim
from packetbench.registry import Registry

SIM_LABEL = "SIMULATED JUDGE - not a model; seeded confusion rates for testing the verifier"


@dataclass(frozen=True)
class Batch:
    """One judge request: a few claims of one document."""

    packet: Packet
    doc: DocInfo
    index: int
    claims: list[Claim]


@dataclass(frozen=True)
class Answer:
    """A judge's answer: an object following ``templates/judge/labels.schema.json``."""

    labels: dict[str, Any]
    input_tokens: int = 0
    output_tokens: int = 0


class Judge(ABC):
    name: ClassVar[str]
    simulator: ClassVar[bool] = False

    def __init__(self, model: str) -> None:
        self.model = model

    @abstractmethod
    def describe(self) -> dict[str, Any]:
        """What judge.json records: the judge's identity and every setting of its labels."""

    def prepare(self, run: Path) -> None:  # noqa: B027 (optional hook)
        """Read what the judge needs from the run before the first batch (BadInput if absent)."""

    @abstractmethod
    def label(self, batch: Batch, prompt: str) -> Answer:
        """The labels of one batch."""


JUDGES: Registry[Callable[..., Judge]] = Registry("judge")


def _rate(name: str, value: float) -> float:
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise UsageError(f"--{name} must be a number from 0 to 1 (got {value})")
    return value


def _draw(*parts: object) -> random.Random:
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class SimJudge(Judge):
    name = "sim"
    simulator = True

    def __init__(self, model: str, sensitivity: float, specificity: float, seed: int) -> None:
        super().__init__(model or "sim")
        self.sensitivity = _rate("sensitivity", sensitivity)
        self.specificity = _rate("specificity", specificity)
        if seed < 0:
            raise UsageError(f"--seed must be 0 or more (got {seed})")
        self.seed = seed
        self._truth: dict[tuple[str, str, str], str] = {}
        self._places: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = {}
        self._paths: dict[tuple[str, str, str], str] = {}

    def describe(self) -> dict[str, Any]:
        return {
            "judge": self.name,
            "model": self.model,
            "simulator": True,
            "label": SIM_LABEL,
            "parameters": {
                "sensitivity": self.sensitivity,
                "specificity": self.specificity,
                "seed": self.seed,
            },
        }

    def prepare(self, run: Path) -> None:
        import duckdb  # only a sim judge reads the scores

        path = run / "scores" / "claims.parquet"
        if not path.is_file():
            raise BadInput(
                f"{path}: missing (the sim judge reads the scorer's verdicts: "
                "run `packetbench score` first)"
            )
        try:
            with duckdb.connect() as con:
                rows = con.execute(
                    "SELECT packet_id, doc_id, source, path, verdict FROM read_parquet(?)",
                    [str(path)],
                ).fetchall()
        except duckdb.Error as error:
            raise BadInput(f"{path}: unreadable ({' '.join(str(error).split())})") from None
        for packet_id, doc_id, source, where, verdict in rows:
            if source is None:
                raise BadInput(f"{path}: claims without their output path (score the run again)")
            self._truth[(packet_id, doc_id, source)] = verdict
            self._paths[(packet_id, doc_id, source)] = where

    def _span(self, batch: Batch, claim: Claim) -> tuple[int | None, str | None]:
        key = (batch.packet.packet_id, batch.doc.doc_id)
        if key not in self._places:
            self._places[key] = truth_places(batch.packet.path, batch.doc.doc_id)
        where = self._paths[(*key, claim.path)]
        pages = [p["page"] for p in self._places[key].get(where, []) if "page" in p]
        return (int(pages[0]) if pages else None), str(claim.value)

    def label(self, batch: Batch, prompt: str) -> Answer:
        labels = []
        for number, claim in enumerate(batch.claims, 1):
            key = (batch.packet.packet_id, batch.doc.doc_id, claim.path)
            truth = self._truth.get(key)
            if truth is None:
                raise BadInput(
                    f"scores/claims.parquet: no verdict for {key[0]}/{key[1]} {claim.path} "
                    "(score the run again)"
                )
            rng = _draw(self.seed, *key)
            said: str
            if truth == "supported":
                others = [v for v in VERDICTS if v != "supported"]
                said = "supported" if rng.random() < self.specificity else rng.choice(others)
            else:
                said = truth if rng.random() < self.sensitivity else "supported"
            page, quote = self._span(batch, claim) if said != "unlinked" else (None, None)
            labels.append({"claim": number, "verdict": said, "page": page, "quote": quote})
        return Answer({"labels": labels})


@JUDGES.register("sim")
def _sim(model: str, *, sensitivity: float, specificity: float, seed: int, **_: Any) -> Judge:
    return SimJudge(model, sensitivity, specificity, seed)


def make_judge(name: str, model: str, **options: Any) -> Judge:
    """The judge registered as `name` (UnknownName, exit 2, lists the others)."""
    return JUDGES[name](model, **options)
