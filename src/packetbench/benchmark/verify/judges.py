"""Judges: what labels a batch of claims. Registered by name in `JUDGES`.

`openai`, `anthropic` and `gemini` (and any OpenAI-compatible server, `--base-url`) are
models asked through the extraction harness (`verify.api_judge`). `sim` is a simulated
judge, not a model: it reads the scorer's exact verdict of each claim
(``RUN/scores/claims.parquet``, so the run must be scored first; on a run of your own
documents, the verdicts of their claims against the packets they were copied from,
`verify.oracle`) and mislabels it at the configured rates, seeded per claim, so the same run
and settings give the same labels:

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

from packetbench.benchmark.config import ModelOptions
from packetbench.benchmark.grounding.places import truth_places
from packetbench.benchmark.providers import api_providers
from packetbench.benchmark.score.verdicts import VERDICTS
from packetbench.benchmark.verify.claims import Claim
from packetbench.benchmark.verify.prompt import check
from packetbench.core import stopping
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.registry import Registry, UnknownName
from packetbench.core.writing import write_json
from packetbench.truth.packets import DocInfo, Packet

SIM_LABEL = "SIMULATED JUDGE - not a model; seeded confusion rates for testing the verifier"


@dataclass(frozen=True)
class JudgeRequest:
    """One judge request: a few claims of one document, and the file its record goes to."""

    packet: Packet
    doc: DocInfo
    index: int
    claims: list[Claim]
    target: Path

    def title(self) -> str:
        return str(self.doc.doc_type).replace("_", " ")

    def about(self) -> dict[str, Any]:
        """What the batch's record says of it (its answer aside)."""
        return {
            "packet_id": self.packet.packet_id,
            "doc_id": self.doc.doc_id,
            "batch": self.index,
            "claims": [{"path": c.path, "kind": c.kind, "value": c.value} for c in self.claims],
        }


@dataclass(frozen=True)
class Answer:
    """A judge's answer: an object following ``templates/judge/labels.schema.json``."""

    labels: dict[str, Any]
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass
class Labelled:
    """What one invocation's requests came to."""

    requests: int = 0  # batches asked (sent, or answered by the response cache)
    sent: int = 0  # HTTP requests, retries included
    retries: int = 0
    cached: int = 0
    spent_usd: float = 0.0
    stopped: str | None = None  # "fatal" or "max-cost": requests stopped early
    fatal: str | None = None  # why the provider refused every request


class Judge(ABC):
    name: str
    simulator: ClassVar[bool] = False

    def __init__(self, model: str) -> None:
        self.model = model

    @abstractmethod
    def describe(self) -> dict[str, Any]:
        """What judge.json records: the judge's identity and every setting of its labels."""

    def prepare(self, run: Path, selected: list[tuple[Packet, DocInfo]]) -> None:  # noqa: B027
        """Read what the judge needs before the first batch (BadInput if absent); the run's
        documents are `selected`."""

    @abstractmethod
    def label_all(self, batches: list[JudgeRequest], folder: Path) -> Labelled:
        """Label `batches`, writing each one's record (`JudgeRequest.target`) as it finishes;
        `folder` is the judge's folder of the run (its request log goes there)."""


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

    def __init__(
        self,
        model: str,
        sensitivity: float,
        specificity: float,
        seed: int,
        truth: Path | None = None,
        progress: bool = False,
    ) -> None:
        super().__init__(model or "sim")
        self.progress = progress  # a bar on a terminal while it labels
        self.sensitivity = _rate("sensitivity", sensitivity)
        self.specificity = _rate("specificity", specificity)
        if seed < 0:
            raise UsageError(f"--judge-seed must be 0 or more (got {seed})")
        self.seed = seed
        self.truth = truth  # the packets a run of one's own documents was copied from
        self._truth: dict[tuple[str, str, str], str] = {}
        self._paths: dict[tuple[str, str, str], str] = {}
        # (packet_id, doc_id) -> (packet folder, doc_id) whose truth locates its values
        self._where: dict[tuple[str, str], tuple[Path, str]] = {}
        self._places: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = {}

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
            # Not a parameter: the same judge reads the verdicts wherever they come from.
            **({"truth_for_simulation": str(self.truth.resolve())} if self.truth else {}),
        }

    def prepare(self, run: Path, selected: list[tuple[Packet, DocInfo]]) -> None:
        from packetbench.benchmark.documents import is_documents

        if selected and is_documents(selected[0][0]):
            self._prepare_documents(run, selected)
            return
        import duckdb  # only a sim judge reads the scores

        path = run / "scores" / "claims.parquet"
        if not path.is_file():
            raise BadInput(
                f"{path}: missing (the sim judge reads the scorer's verdicts: "
                "run `packetbench score` first)"
            )
        try:
            with stopping.watch(duckdb.connect()) as con:
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
        for packet, doc in selected:
            self._where[(packet.packet_id, doc.doc_id)] = (packet.path, doc.doc_id)

    def _prepare_documents(self, run: Path, selected: list[tuple[Packet, DocInfo]]) -> None:
        """A run of one's own documents has no truth: the simulated judge needs the packets
        they were copied from (`truth`), and scores the run's claims against them."""
        from packetbench.benchmark.verify.oracle import oracle_verdicts

        if self.truth is None:
            raise UsageError(
                f"{run}: a run of your own documents has no truth, and the sim judge only "
                "simulates judging claims whose verdict it knows: give --judge-truth PACKETS "
                "(the packets the documents were copied from), or a model as --judge"
            )
        for found in oracle_verdicts(run, selected, self.truth):
            key = (found.packet_id, found.doc_id, found.source)
            self._truth[key] = found.verdict
            self._paths[key] = found.path
            self._where[(found.packet_id, found.doc_id)] = found.where

    def _span(self, batch: JudgeRequest, claim: Claim) -> tuple[int | None, str | None]:
        key = (batch.packet.packet_id, batch.doc.doc_id)
        if key not in self._places:
            folder, doc_id = self._where[key]
            self._places[key] = truth_places(folder, doc_id)
        where = self._paths[(*key, claim.path)]
        pages = [p["page"] for p in self._places[key].get(where, []) if "page" in p]
        return (int(pages[0]) if pages else None), str(claim.value)

    def label(self, batch: JudgeRequest) -> Answer:
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

    def label_all(self, batches: list[JudgeRequest], folder: Path) -> Labelled:
        from packetbench.core import progress

        with progress.bar("judge sim", "requests", len(batches), not self.progress) as advance:
            for batch in batches:
                self._label_one(batch)
                advance(None)
        return Labelled(requests=len(batches))

    def _label_one(self, batch: JudgeRequest) -> None:
        """Label one batch and write its record."""
        answer = self.label(batch)
        problem = check(answer.labels, len(batch.claims))
        if problem is not None:  # a bug of the simulator, not of a model
            raise BadInput(f"{batch.target}: the judge's answer is invalid ({problem})")
        record = {
            **batch.about(),
            "status": "ok",
            "answer": answer.labels,
            "attempts": 1,
            "latency_s": 0.0,
            "usage": {"input_tokens": 0, "output_tokens": 0, "reasoning_tokens": 0},
            "finish_reason": None,
            "error": None,
        }
        write_json(batch.target, record)


@JUDGES.register("sim")
def _sim(
    api: ModelOptions,
    *,
    sensitivity: float,
    specificity: float,
    seed: int,
    truth: Path | None = None,
    progress: bool = False,
) -> Judge:
    return SimJudge(api.model or "sim", sensitivity, specificity, seed, truth, progress)


def _api(name: str) -> Callable[..., Judge]:
    def make(
        api: ModelOptions, *, truth: Path | None = None, progress: bool = False, **_: Any
    ) -> Judge:
        from packetbench.benchmark.verify.api_judge import ApiJudge

        return ApiJudge(name, api, truth, progress)

    return make


def judge_names() -> list[str]:
    """Every judge: the simulated one, and every provider that asks a model."""
    return sorted({*JUDGES.names(), *api_providers()})


def make_judge(
    name: str,
    api: ModelOptions,
    *,
    sensitivity: float = 0.9,
    specificity: float = 0.95,
    seed: int = 0,
    truth: Path | None = None,
    progress: bool = False,
) -> Judge:
    """The judge registered as `name` (UnknownName, exit 2, lists the others), asking its
    model with `api` (the sim judge: its confusion rates and seed)."""
    factory = JUDGES.get(name)
    if factory is None:
        if name not in api_providers():
            raise UnknownName(f"unknown judge {name!r}; known: {', '.join(judge_names())}")
        factory = _api(name)
    return factory(
        api,
        sensitivity=sensitivity,
        specificity=specificity,
        seed=seed,
        truth=truth,
        progress=progress,
    )
