"""Label every claim of a run with a judge, into ``RUN/judge/<judge_id>/``.

    judge.json                                  # judge, model, parameters, prompt and schema
                                                # hashes, batch size, the records digest
    labels/<packet_id>/<doc_id>/<batch>.json    # one record per request, written atomically
    labels.jsonl                                # every claim's label, in run order

A batch's record is written as soon as its answer is judged valid, so a killed verify keeps
every finished request and `--resume` asks for none of them again; a resumed verify must have
the settings it started with (its fingerprint). Only documents whose extraction is `ok` have
claims, and of those only outputs that are valid instances of their schema (as the scorer
counts them under its default `--invalid exclude`). When the run has a results database, it
is loaded again with the labels (`judge_labels`).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import orjson
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from packetbench import __version__, ids, safe_read
from packetbench.benchmark import namespaces
from packetbench.benchmark.errors import BadInput, UsageError
from packetbench.benchmark.packets import find_packets
from packetbench.benchmark.runs import (
    listed_documents,
    read_record,
    read_run,
    record_path,
    records_digest,
    write_atomic,
    write_json,
)
from packetbench.benchmark.score import validate
from packetbench.benchmark.verify.calibration import CALIBRATION, calibrate, rows_of
from packetbench.benchmark.verify.claims import Claim, batches, claims_of
from packetbench.benchmark.verify.correction import (
    ESTIMATE,
    SAME,
    correct,
    usable_calibration,
)
from packetbench.benchmark.verify.judges import Batch, Judge
from packetbench.resources import resource_dir

JUDGE_DIR = "judge"
LABELS = "labels.jsonl"
BATCH_SIZE = 20
MIN_KAPPA = 0.6  # the default --min-kappa
# What must not change for `--resume` to continue a verify (judge.json's keys).
FINGERPRINT = ("judge", "model", "parameters", "prompt", "schema", "batch_size", "records")


def _folder() -> Path:
    return resource_dir("templates") / "judge"


@cache
def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(_folder()),
        undefined=StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@cache
def label_schema() -> dict[str, Any]:
    """The strict JSON Schema of a judge's answer (``templates/judge/labels.schema.json``)."""
    data: dict[str, Any] = json.loads((_folder() / "labels.schema.json").read_text("utf-8"))
    return data


@cache
def _validator() -> jsonschema.protocols.Validator:
    schema = label_schema()
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)  # once: checking it per answer cost most of a verify
    return validator(schema)


def template_hashes() -> dict[str, str]:
    return {
        name: hashlib.sha256((_folder() / file).read_bytes()).hexdigest()
        for name, file in (("prompt", "prompt.j2"), ("schema", "labels.schema.json"))
    }


def render(title: str, claims: list[Claim]) -> str:
    """The judge's instructions for one batch (the document is sent beside them)."""
    listed = [{"path": c.path, "value": json.dumps(c.value, ensure_ascii=False)} for c in claims]
    return _environment().get_template("prompt.j2").render(title=title, claims=listed).strip()


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


def check(answer: dict[str, Any], claims: int) -> str | None:
    """Why `answer` is not a label of each of `claims` claims (None when it is)."""
    error = jsonschema.exceptions.best_match(_validator().iter_errors(answer))
    if error is not None:
        return f"schema-invalid: {error.message}"
    numbers = [label["claim"] for label in answer["labels"]]
    if sorted(numbers) != list(range(1, claims + 1)):
        return f"labels claims {sorted(numbers)}, not 1 to {claims} once each"
    return None


def _batch_path(folder: Path, packet_id: str, doc_id: str, index: int) -> Path:
    return ids.inside(folder, "labels", packet_id, doc_id, f"{index:04d}.json")


def _read_batch(path: Path) -> dict[str, Any] | None:
    """A finished batch record, or None (absent or damaged: asked again)."""
    try:
        data = orjson.loads(safe_read.read_bytes(path, "record"))
    except (OSError, orjson.JSONDecodeError, safe_read.UnsafeFile):
        return None
    return data if isinstance(data, dict) and data.get("status") == "ok" else None


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
) -> VerifySummary:
    """Label every claim of the run folder `run` with `judge`; see the module docstring.

    When the run is scored, the labels are calibrated against its truth (calibration.json);
    with `calibration` (another run this judge calibrated on), the judge's raw rate is
    corrected with it (estimate.json), after refusing, before any request, a calibration of
    another judge or with a kappa below `min_kappa`."""
    if batch_size < 1:
        raise UsageError(f"--batch must be at least 1 (got {batch_size})")
    info = read_run(run)
    if packets_dir is None:
        recorded = info.get("packets_dir")
        if not isinstance(recorded, str):
            raise BadInput(f"{run / 'run.json'}: no packets_dir (give --packets)")
        packets_dir = Path(recorded)
    selected = listed_documents(info, run, find_packets(packets_dir))
    folder = ids.inside(run, JUDGE_DIR, judge_id(judge))
    about = {
        **judge.describe(),
        **template_hashes(),
        "batch_size": batch_size,
        "records": records_digest(run),
        "run_id": info.get("run_id") or run.resolve().name,
        "toolkit_version": __version__,
    }
    if calibration is not None:
        usable_calibration(calibration, folder.name, about, min_kappa)
    judge.prepare(run)  # before --force clears the labels: a judge that cannot start keeps them
    _start(folder, about, resume, force)
    write_json(folder / "judge.json", {**about, "status": "running"})
    rows: list[bytes] = []
    verdicts: Counter[str] = Counter()
    documents = claims_total = requests = skipped = invalid = 0
    for packet, doc in selected:
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
        title = str(doc.doc_type).replace("_", " ")
        for index, chunk in enumerate(batches(claims, batch_size)):
            target = _batch_path(folder, packet.packet_id, doc.doc_id, index)
            done = _read_batch(target) if resume else None
            if done is not None:
                skipped += 1
                labels = done["labels"]
            else:
                answer = judge.label(Batch(packet, doc, index, chunk), render(title, chunk))
                problem = check(answer.labels, len(chunk))
                if problem is not None:
                    raise BadInput(f"{target}: the judge's answer is invalid ({problem})")
                labels = sorted(answer.labels["labels"], key=lambda label: label["claim"])
                write_json(
                    target,
                    {
                        "packet_id": packet.packet_id,
                        "doc_id": doc.doc_id,
                        "batch": index,
                        "status": "ok",
                        "claims": [
                            {"path": c.path, "kind": c.kind, "value": c.value} for c in chunk
                        ],
                        "labels": labels,
                        "usage": {
                            "input_tokens": answer.input_tokens,
                            "output_tokens": answer.output_tokens,
                        },
                    },
                )
                requests += 1
            for claim, label in zip(chunk, labels, strict=True):
                verdicts[label["verdict"]] += 1
                rows.append(
                    orjson.dumps(
                        {
                            "packet_id": packet.packet_id,
                            "doc_id": doc.doc_id,
                            "doc_type": doc.doc_type,
                            "tier": packet.tier,
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
    write_atomic(folder / LABELS, b"".join(row + b"\n" for row in rows))
    by_verdict = dict(sorted(verdicts.items()))
    write_json(
        folder / "judge.json",
        {
            **about,
            "status": "complete",
            "documents": documents,
            "claims": claims_total,
            "by_verdict": by_verdict,
        },
    )
    from packetbench.benchmark.results.database import DB_NAME

    calibrated = estimate = None
    if (run / DB_NAME).is_file():
        from packetbench.benchmark.results.load import load_run

        load_run(run, packets_dir)
        found = rows_of(run, folder.name)
        if found:
            identity = {name: about[name] for name in (*SAME, "run_id")}
            calibrated = calibrate(found, {**identity, "judge_id": folder.name})
            write_json(folder / CALIBRATION, calibrated)
    if calibration is not None:
        estimate = correct(
            [orjson.loads(row) for row in rows], about, calibration, folder.name, min_kappa
        )
        write_json(folder / ESTIMATE, estimate)
    return VerifySummary(
        folder,
        documents,
        claims_total,
        requests,
        skipped,
        by_verdict,
        invalid,
        calibrated,
        estimate,
    )
