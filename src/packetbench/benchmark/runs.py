"""run.json: the typed record of one run, read and written as a file format of its own.

    runs/<run_id>/
      run.json                                   this record (`RunInfo`)
      extractions/<packet_id>/<doc_id>.json      one record per document (`records`)
      scores/                                    written by `packetbench score`
      repeats/r1 .. rK/                          a repeated run's repeats, each a run

Every writer of run.json (extract's simulator and API harness, repeats, the importers) builds
a `RunInfo` and writes it with `write_run`; every reader gets one from `read_run`, checked
once, so no command reads a key another one spells otherwise. The file carries
`format_version` (`FORMAT_VERSION`); one without it was written before the format had a
number and reads as version 1. A file of a newer version, or with a key this version does
not know, is refused in one line naming it. A key a writer sets is written; a key it leaves
unset is absent (`selection` of an unfiltered run, `cite` of a run without citations), so a
run records what it always did.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError

from packetbench.core import safe_read
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.writing import write_json

RUN_FILE = "run.json"
FORMAT_VERSION = 1  # of run.json; bump it when a key is added or changes meaning
REPEATS_FOLDER = "repeats"  # RUN/repeats/r1 ...

RunStatus = Literal["running", "complete", "incomplete"]


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    def to_json(self) -> dict[str, Any]:
        """The part as written: every key a writer set, none it left unset."""
        data: dict[str, Any] = self.model_dump(mode="json", exclude_unset=True)
        return data


class PacketEntry(_Part):
    """What a run was extracted from, per packet (`provenance.packet_entry`)."""

    packet_id: str
    tier: str | None = None
    generator_version: str | None = None
    packet_truth_sha256: str | None = None  # a listing's sha256 for one's own documents
    documents: list[str] | None = None
    sha256: dict[str, dict[str, str]] | None = None  # doc_id -> file/truth kind -> sha256
    own_documents: dict[str, Any] | None = None  # a folder of one's own documents


class DocumentCounts(_Part):
    expected: int
    written: int
    by_status: dict[str, int]


class Git(_Part):
    commit: str | None
    dirty: bool | None


class Invocation(_Part):
    """One invocation of an API run (a new run, each --resume or --retry-failed)."""

    started_at: str
    mode: str
    requested: int
    git: Git | None = None
    finished_at: str | None = None
    by_status: dict[str, int] | None = None
    cached: int | None = None
    requests: int | None = None
    retries: int | None = None
    batches: int | None = None
    spent_usd: float | None = None
    not_started: int | None = None
    stopped: str | None = None
    fatal: str | None = None
    inputs_prepared_in: str | None = None


class RepeatOf(_Part):
    """Which repeat of a repeated run this run is."""

    index: int
    count: int


class RepeatRun(_Part):
    folder: str
    run_id: str
    parameters: dict[str, Any] | None = None


class Repeats(_Part):
    """A repeated run's repeats (its own run.json has no packets: its repeats are the runs)."""

    count: int
    runs: list[RepeatRun]


class Batching(_Part):
    log: str
    poll_interval_s: float
    batch_size: int | None


class Cache(_Part):
    enabled: bool
    folder: str | None


class UsageTotals(_Part):
    input_tokens: int
    output_tokens: int
    reasoning_tokens: int
    cost_usd: float


class RunInfo(_Part):
    """run.json. The keys of every writer, in one place; those a writer leaves unset are
    absent from its file."""

    format_version: int = FORMAT_VERSION
    run_id: str
    provider: str
    # What the extractor is (`Provider.describe`): the simulator's or an API model's.
    model: str | None = None
    simulator: bool = False
    label: str | None = None
    parameters: dict[str, Any] | None = None  # what tells two runs of one model apart
    pattern_factors: dict[str, float] | None = None  # sim
    citations: dict[str, Any] | None = None  # --cite: the mode and its conventions
    confidences: dict[str, Any] | None = None  # --confidence
    # The sim on one's own documents: the packets it reads the truth of (--sim-truth).
    truth_for_simulation: str | None = None
    reasoning: str | None = None
    reasoning_parameters: dict[str, Any] | None = None
    base_url: str | None = None
    api_key_from: list[str] | None = None
    input: str | None = None
    # How the pages reached the model (`benchmark.delivery`); absent: the file's resolution.
    delivery: dict[str, Any] | None = None
    max_output_tokens: int | None = None
    timeout_s: float | None = None
    request: dict[str, Any] | None = None  # the request template, document left out
    # Repeats (--repeats): a repeat says which it is; the repeated run lists them.
    repeat: RepeatOf | None = None
    repeats: Repeats | None = None
    # How an API run was driven.
    retry: dict[str, Any] | None = None
    selection: dict[str, Any] | None = None  # --tiers, --doc-types, --formats, --limit
    concurrency: int | None = None
    max_cost_usd: float | None = None
    batch: Batching | None = None
    pricing: dict[str, Any] | None = None
    cache: Cache | None = None
    # Where the run came from when it was not extracted here.
    imported_from: dict[str, Any] | None = None
    inspect: dict[str, Any] | None = None
    # What it was extracted from, with what.
    packets_dir: str | None = None
    packets: list[PacketEntry] | None = None
    schemas: dict[str, str] | None = None
    prompts: dict[str, str] | None = None
    schemas_sent: dict[str, str] | None = None
    request_log: str | None = None
    toolkit_version: str | None = None
    versions: dict[str, str | None] | None = None
    git: Git | None = None
    invocations: list[Invocation] | None = None
    # How it went.
    status: RunStatus | None = None
    documents: DocumentCounts | None = None
    usage: UsageTotals | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as written: every key a writer set, none it left unset."""
        data: dict[str, Any] = self.model_dump(mode="json", exclude_unset=True)
        data.pop("format_version", None)
        return {"format_version": FORMAT_VERSION, **data}

    def configuration(self) -> dict[str, Any]:
        """What the run was configured with, as reports and the results database show it:
        the record without its packet list and without the file's own format number."""
        data = self.to_json()
        data.pop("format_version")
        data.pop("packets", None)
        return data


def write_run(run: Path, info: RunInfo, clean: Callable[[Any], Any] | None = None) -> None:
    """Write `info` as RUN/run.json, atomically; `clean` masks secrets in what is written."""
    data = info.to_json()
    write_json(run / RUN_FILE, clean(data) if clean is not None else data)


def _no_constant(name: str) -> Any:
    """json's NaN, Infinity and -Infinity are no JSON: refused (a NaN cost cap is no cap)."""
    raise ValueError(f"{name} is not a JSON number")


def _parsed(path: Path) -> RunInfo:
    try:
        raw = safe_read.read_bytes(path, "run")
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error})") from None
    try:
        # orjson reads the run.json of a 1,000-packet run (14 MB) in a third of json's time,
        # and refuses NaN and Infinity as json's parse_constant hook below does
        data = safe_read.parse_json(raw)
    except orjson.JSONDecodeError:
        try:  # json's words for the problem
            data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError) as error:
            raise BadInput(f"{path}: unreadable ({error})") from None
        except RecursionError:
            depth = safe_read.MAX_DEPTH
            raise BadInput(f"{path}: unreadable (nested deeper than {depth} levels)") from None
    except ValueError as error:  # nested past what a reader of it may walk
        raise BadInput(f"{path}: unreadable ({error})") from None
    if not isinstance(data, dict):
        raise BadInput(f"{path}: not a run's record (not a JSON object)")
    version = data.get("format_version", 1)
    if type(version) is not int or version < 1:
        raise BadInput(f"{path}: not a run's record (format_version {version!r})")
    if version > FORMAT_VERSION:
        raise BadInput(
            f"{path}: written by a newer packetbench (run format {version}; this one reads "
            f"up to {FORMAT_VERSION}): read it with that version"
        )
    try:
        return RunInfo.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        raise BadInput(f"{path}: not a run's record ({where}: {first['msg']})") from None


def read_run(run: Path, repeats: bool = False) -> RunInfo:
    """run.json of `run`, after checking the folders a run keeps are folders. A repeated
    run's (`--repeats`: its repeats are the runs) is refused in one line unless `repeats`."""
    path = run / RUN_FILE
    if path.is_dir():
        raise BadInput(f"{path}: is a folder, not a run's record")
    if not path.is_file():
        raise BadInput(f"{path}: missing (not a run folder)")
    for name in ("extractions", "scores"):
        if (run / name).exists() and not (run / name).is_dir():
            raise BadInput(f"{run / name}: not a folder (a run keeps its {name} there)")
    info = _parsed(path)
    if info.repeats is not None and not repeats:
        raise refusal(run, info.repeats.count, "score, report or sql")
    return info


def is_run(folder: Path) -> bool:
    return (folder / RUN_FILE).is_file()


# -- repeated runs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Repeat:
    """Which repeat of a repeated run an extraction is (recorded in its run.json)."""

    index: int  # 1-based
    count: int
    run_id: str  # of this repeat: "<parent run_id>-r<index>"

    def describe(self) -> RepeatOf:
        return RepeatOf(index=self.index, count=self.count)


def repeat_folder(run: Path, index: int) -> Path:
    return run / REPEATS_FOLDER / f"r{index}"


def recorded_repeats(run: Path) -> RunInfo | None:
    """run.json of `run` when it is a repeated run's (it has `repeats`), else None (also when
    it is unreadable: the reader of a run says what is wrong with it)."""
    if not is_run(run):
        return None
    try:
        info = _parsed(run / RUN_FILE)
    except (BadInput, safe_read.UnsafeFile):
        return None
    return info if info.repeats is not None else None


def repeat_runs(run: Path) -> list[Path] | None:
    """The repeat folders of a repeated run `run`, in order; None when `run` is not one.
    BadInput naming run.json when its `repeats` is damaged."""
    info = recorded_repeats(run)
    if info is None or info.repeats is None:
        return None
    if info.repeats.count < 1:
        raise BadInput(f"{run / RUN_FILE}: repeats has no count of at least 1")
    return [repeat_folder(run, i) for i in range(1, info.repeats.count + 1)]


def refusal(run: Path, count: int, commands: str) -> UsageError:
    """The one line refusing a repeated run where a command reads one run."""
    return UsageError(
        f"{run}: a run of {count} repeats, each a run of its own ({run / REPEATS_FOLDER}/r1 .. "
        f"r{count}); give one of them, or give {run} to {commands}"
    )


def expand(runs: list[Path]) -> tuple[list[Path], list[tuple[Path, list[Path]]]]:
    """`runs` with every repeated run replaced by its repeats, and (repeated run, its
    repeats) for each of them."""
    flat: list[Path] = []
    groups: list[tuple[Path, list[Path]]] = []
    for run in runs:
        found = repeat_runs(run)
        if found is None:
            flat.append(run)
        else:
            flat += found
            groups.append((run, found))
    return flat, groups


def check_resume(out: Path, count: int) -> None:
    """UsageError when `out` holds a run made with another number of repeats (a plain run
    is a run of one)."""
    if not is_run(out):
        return
    before = len(repeat_runs(out) or [out])
    if before != count:
        raise UsageError(
            f"{out}: cannot continue a run of {before} repeat{'s' if before != 1 else ''} with "
            f"--repeats {count} (a run keeps its number of repeats); use a new --out, or "
            "--force to start over"
        )
