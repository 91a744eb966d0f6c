"""Label every claim of a run with a judge, into ``RUN/judge/<judge_id>/``.

    judge.json                                  # judge, model, parameters, prompt and schema
                                                # hashes, batch size, the records digest
    labels/<packet_id>/<doc_id>/<batch>.json    # one record per request, written atomically
    labels.jsonl                                # every claim's label, in run order
    requests.jsonl                              # every attempt of a model judge's requests

A batch's record is written as soon as its answer is judged valid, so a killed verify keeps
every finished request and `--resume` asks for none of them again (a batch whose request
failed is asked again); a resumed verify must have the settings it started with (its
fingerprint). Only documents whose extraction is `ok` have claims, and of those only outputs
that are valid instances of their schema (as the scorer counts them under its default
`--invalid exclude`). A verify with a batch left unanswered (a request that failed after its
retries, `--max-cost`) is `incomplete`: it writes no labels.jsonl, calibration or estimate,
whose rates would silently leave claims out. When the run has a results database, it is
loaded again with the labels (`judge_labels`).
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson

from packetbench import __version__
from packetbench.benchmark import provenance
from packetbench.benchmark.documents import run_packets
from packetbench.benchmark.records import read_record, record_path, records_digest
from packetbench.benchmark.run_folder import listed_documents
from packetbench.benchmark.runs import read_run
from packetbench.benchmark.verify.calibration import CALIBRATION, calibrate, rows_of
from packetbench.benchmark.verify.claims import batches, claims_of
from packetbench.benchmark.verify.correction import (
    ESTIMATE,
    SAME,
    correct,
    usable_calibration,
)
from packetbench.benchmark.verify.judges import Judge, JudgeRequest, Labelled
from packetbench.benchmark.verify.prompt import check, template_hashes
from packetbench.core import ids, safe_read
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.writing import write_atomic, write_json
from packetbench.truth import namespaces, validate

JUDGE_DIR = "judge"
LABELS = "labels.jsonl"
BATCH_SIZE = 20
MIN_KAPPA = 0.6  # the default --min-kappa
# What must not change for `--resume` to continue a verify (judge.json's keys).
FINGERPRINT = ("judge", "model", "parameters", "prompt", "schema", "batch_size", "records")


def judge_id(judge: Judge) -> str:
    """The judge's folder name: `<judge>-<model>`, every character outside [A-Za-z0-9._-] a
    dash (a model name is the user's text; it never becomes a path part unchecked)."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", f"{judge.name}-{judge.model}").strip(".-")
    return ids.check(name, "judge id", "--judge/--model")


@dataclass(frozen=True)
class VerifySummary:
    folder: Path
    documents: int  # documents with an ok extraction
    claims: int
    requests: int  # batches judged by this invocation
    skipped: int  # batches finished before (--resume)
    by_verdict: dict[str, int]
    invalid: int = 0  # ok records whose output is not a valid instance of its schema
    calibration: dict[str, Any] | None = None  # against the run's truth (a scored run)
    estimate: dict[str, Any] | None = None  # the corrected rate (with --calibration)
    batches: int = 0  # every batch of the run
    unanswered: dict[str, int] | None = None  # batches without an ok record, by status
    labelled: Labelled | None = None  # what this invocation's requests came to
    truthless: bool = False  # a run of one's own documents (nothing to calibrate on)

    @property
    def complete(self) -> bool:
        return not self.unanswered


def _batch_path(folder: Path, packet_id: str, doc_id: str, index: int) -> Path:
    return ids.inside(folder, "labels", packet_id, doc_id, f"{index:04d}.json")


def _read_batch(path: Path) -> dict[str, Any] | None:
    """A batch record (None when absent or damaged: asked again)."""
    try:
        data = orjson.loads(safe_read.read_bytes(path, "record"))
    except (OSError, orjson.JSONDecodeError, safe_read.UnsafeFile):
        return None
    return data if isinstance(data, dict) else None


def _labels_of(record: dict[str, Any] | None, claims: int) -> list[dict[str, Any]] | None:
    """The labels of a finished batch's record, by claim number (None: not finished)."""
    if record is None or record.get("status") != "ok":
        return None
    answer = record.get("answer")
    if check(answer, claims) is not None:
        return None  # damaged: asked again
    assert isinstance(answer, dict)
    return sorted(answer["labels"], key=lambda label: label["claim"])


def _start(folder: Path, info: dict[str, Any], resume: bool, force: bool) -> None:
    record = folder / "judge.json"
    if resume and force:
        raise UsageError("--force starts the verify over; it cannot be combined with --resume")
    if record.exists():
        if resume:
            try:
                before = orjson.loads(safe_read.read_bytes(record, "run"))
            except (OSError, orjson.JSONDecodeError, safe_read.UnsafeFile) as error:
                raise BadInput(f"{record}: unreadable ({error})") from None
            for name in FINGERPRINT:
                if before.get(name) != info.get(name):
                    raise UsageError(
                        f"{record}: --resume with another {name} than the verify was "
                        "started with (use --force to start it over)"
                    )
            return
        if not force:
            raise UsageError(
                f"{folder}: this judge already labelled the run (continue with --resume, "
                "or start over with --force)"
            )
        shutil.rmtree(folder)
    elif resume:
        raise UsageError(f"{record}: missing, so there is no verify to resume")


def verify_run(
    run: Path,
    judge: Judge,
    packets_dir: Path | None = None,
    *,
    batch_size: int = BATCH_SIZE,
    resume: bool = False,
    force: bool = False,
    calibration: Path | None = None,
    min_kappa: float = MIN_KAPPA,
    progress: bool = False,
) -> VerifySummary:
    """Label every claim of the run folder `run` with `judge`; see the module docstring.

    When the run is scored, the labels are calibrated against its truth (calibration.json);
    with `calibration` (another run this judge calibrated on), the judge's raw rate is
    corrected with it (estimate.json), after refusing, before any request, a calibration of
    another judge or with a kappa below `min_kappa`. `progress` shows a bar on a terminal
    while the claims are read (the judge shows its own while it labels)."""
    from packetbench.core import progress as bars

    if batch_size < 1:
        raise UsageError(f"--claims-per-request must be at least 1 (got {batch_size})")
    info = read_run(run)
    if packets_dir is None:
        recorded = info.packets_dir
        if recorded is None:
            raise BadInput(f"{run / 'run.json'}: no packets_dir (give --packets)")
        packets_dir = Path(recorded)
    found = run_packets(info, run, packets_dir)
    selected = listed_documents(info, run, found.packets)
    # The judge reads the documents: they must be those the run was extracted from.
    provenance.verify(info, run, selected, hint="verify the run with the documents it was made of")
    folder = ids.inside(run, JUDGE_DIR, judge_id(judge))
    about = {
        **judge.describe(),
        **template_hashes(),
        "batch_size": batch_size,
        "records": records_digest(run),
        "run_id": info.run_id or run.resolve().name,
        **({"documents": found.source} if found.source else {}),
        "toolkit_version": __version__,
    }
    if calibration is not None:
        usable_calibration(calibration, folder.name, about, min_kappa)
    # Before --force clears the labels: a judge that cannot start keeps them.
    judge.prepare(run, selected)
    _start(folder, about, resume, force)
    write_json(folder / "judge.json", {**about, "status": "running"})
    work: list[JudgeRequest] = []
    documents = claims_total = invalid = 0
    with bars.bar("claims", "documents", len(selected), disable=not progress) as advance:
        for packet, doc in selected:
            advance(None)
            path = record_path(run, packet.packet_id, doc.doc_id)
            if not path.is_file():
                continue
            record = read_record(path)
            if record.status != "ok" or record.output is None:
                continue
            scored = namespaces.resolve(doc.schema, packet.path)
            output = scored.project(record.output)
            if validate.problem(scored.model, output) is not None:
                invalid += 1  # as the scorer leaves it out: its leaves are no claims of a schema
                continue
            documents += 1
            claims = claims_of(scored.model, output)
            claims_total += len(claims)
            for index, chunk in enumerate(batches(claims, batch_size)):
                target = _batch_path(folder, packet.packet_id, doc.doc_id, index)
                work.append(JudgeRequest(packet, doc, index, chunk, target))
    pending = [
        b for b in work if not resume or _labels_of(_read_batch(b.target), len(b.claims)) is None
    ]
    labelled = judge.label_all(pending, folder)
    rows: list[bytes] = []
    verdicts: Counter[str] = Counter()
    unanswered: Counter[str] = Counter()
    usage = Usage()
    for batch in work:
        batch_record = _read_batch(batch.target)
        usage.add(batch_record)
        labels = _labels_of(batch_record, len(batch.claims))
        if labels is None:
            unanswered[str((batch_record or {}).get("status") or "not requested")] += 1
            continue
        for claim, label in zip(batch.claims, labels, strict=True):
            verdicts[label["verdict"]] += 1
            rows.append(
                orjson.dumps(
                    {
                        "packet_id": batch.packet.packet_id,
                        "doc_id": batch.doc.doc_id,
                        "doc_type": batch.doc.doc_type,
                        "tier": batch.packet.tier,
                        "path": claim.path,
                        "kind": claim.kind,
                        "value": claim.value,
                        "verdict": label["verdict"],
                        "page": label["page"],
                        "quote": label["quote"],
                    },
                    option=orjson.OPT_SORT_KEYS,
                )
            )
    by_verdict = dict(sorted(verdicts.items()))
    counts = {
        "documents": documents,
        "claims": claims_total,
        "batches": len(work),
        "by_verdict": by_verdict,
        "usage": usage.totals(),
    }
    summary = VerifySummary(
        folder,
        documents,
        claims_total,
        labelled.requests,
        len(work) - len(pending),
        by_verdict,
        invalid,
        batches=len(work),
        unanswered=dict(sorted(unanswered.items())),
        labelled=labelled,
        truthless=bool(found.source),
    )
    if unanswered:
        # A partial labelling would give rates that silently leave claims out.
        (folder / LABELS).unlink(missing_ok=True)
        write_json(
            folder / "judge.json",
            {**about, "status": "incomplete", **counts, "unanswered": summary.unanswered},
        )
        return summary
    write_atomic(folder / LABELS, b"".join(row + b"\n" for row in rows))
    write_json(folder / "judge.json", {**about, "status": "complete", **counts})
    from packetbench.benchmark.results.database import DB_NAME

    calibrated = estimate = None
    if (run / DB_NAME).is_file():
        from packetbench.benchmark.results.load import load_run

        load_run(run, packets_dir)
        found_rows = rows_of(run, folder.name)
        if found_rows:
            identity = {name: about[name] for name in (*SAME, "run_id")}
            calibrated = calibrate(found_rows, {**identity, "judge_id": folder.name})
            write_json(folder / CALIBRATION, calibrated)
    if calibration is not None:
        estimate = correct(
            [orjson.loads(row) for row in rows], about, calibration, folder.name, min_kappa
        )
        write_json(folder / ESTIMATE, estimate)
    return replace(summary, calibration=calibrated, estimate=estimate)


class Usage:
    """Tokens and dollars of a judge's batches, summed from their records (failed requests
    included: they were paid for)."""

    NAMES = ("input_tokens", "output_tokens", "reasoning_tokens", "cost_usd")

    def __init__(self) -> None:
        self.sums: dict[str, float] = dict.fromkeys(self.NAMES, 0)

    def add(self, record: dict[str, Any] | None) -> None:
        found = (record or {}).get("usage") or {}
        for name in self.NAMES:
            value = found.get(name)
            if isinstance(value, int | float):
                self.sums[name] += value

    def totals(self) -> dict[str, Any]:
        return {
            name: round(value, 6) if name == "cost_usd" else int(value)
            for name, value in self.sums.items()
        }
