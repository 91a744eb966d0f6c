"""Repeated runs (`--repeats K`): K independent extractions of the same documents, each a
complete run of its own, scored as K runs, so the spread between them can be shown.

    RUN/run.json               the repeated run: what its repeats share, and `repeats`
    RUN/repeats/r1/ .. rK/     one complete run per repeat (run.json, extractions/, scores/,
                               results.duckdb), which every command reads as a run
    RUN/scores/repeats.json    written by `score RUN`: the spread between the repeats

Repeat i of a simulated run injects its errors with seed `repeat_seed(sim_seed, i)`; repeat
1's is the sim seed itself, so repeat 1 is the run made without `--repeats`. An API run asks
for every document K times: each repeat's requests have a response-cache key of their own (a
repeat is never answered from another repeat's entry), and a `--sampling-seed` is derived the
same way per repeat (K requests with one seed would be one draw asked K times). A run keeps
its number of repeats: `--resume` with another K is refused.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from packetbench import safe_read
from packetbench.benchmark.errors import BadInput, UsageError
from packetbench.generator.seeds import MAX_SEED

if TYPE_CHECKING:
    from packetbench.benchmark.extract import ExtractSummary, HarnessOptions
    from packetbench.benchmark.providers.base import Provider

FOLDER = "repeats"  # RUN/repeats/r1 ...
SPREAD = "repeats.json"  # RUN/scores/repeats.json


@dataclass(frozen=True)
class Repeat:
    """Which repeat of a repeated run an extraction is (recorded in its run.json)."""

    index: int  # 1-based
    count: int
    run_id: str  # of this repeat: "<parent run_id>-r<index>"

    def describe(self) -> dict[str, Any]:
        return {"index": self.index, "count": self.count}


def check_count(count: int) -> None:
    if count < 1:
        raise UsageError(f"--repeats must be at least 1 (got {count})")


def repeat_seed(seed: int, index: int) -> int:
    """The seed of repeat `index` (1-based) of a run given `seed`: `seed` itself for the
    first, a seed derived from both for the others (never a neighbour: repeat 2 of seed 0 is
    not the run of seed 1)."""
    if index == 1:
        return seed
    digest = hashlib.sha256(f"packetbench-repeat:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (MAX_SEED + 1)


def repeat_settings(settings: dict[str, Any], index: int) -> dict[str, Any]:
    """A provider's options (`Provider.from_options`) for repeat `index`: the sim seed and a
    sampling seed given derived for it (`repeat_seed`), everything else as given."""
    out = dict(settings)
    if isinstance(out.get("seed"), int):
        out["seed"] = repeat_seed(out["seed"], index)
    sampling = dict(out.get("sampling") or {})
    if isinstance(sampling.get("seed"), int):
        sampling["seed"] = repeat_seed(int(sampling["seed"]), index)
        out["sampling"] = sampling
    return out


def folder(run: Path, index: int) -> Path:
    return run / FOLDER / f"r{index}"


def recorded(run: Path) -> dict[str, Any] | None:
    """run.json of `run` when it is a repeated run's (it has `repeats`), else None."""
    path = run / "run.json"
    if not path.is_file():
        return None
    try:
        data = orjson.loads(safe_read.read_bytes(path, "run"))
    except (OSError, ValueError, safe_read.UnsafeFile):
        return None  # not a repeated run's: the reader of a run says what is wrong with it
    if not isinstance(data, dict) or "repeats" not in data:
        return None
    return data


def repeat_runs(run: Path) -> list[Path] | None:
    """The repeat folders of a repeated run `run`, in order; None when `run` is not one.
    BadInput naming run.json when its `repeats` is damaged."""
    info = recorded(run)
    if info is None:
        return None
    repeats = info["repeats"]
    count = repeats.get("count") if isinstance(repeats, dict) else None
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise BadInput(f"{run / 'run.json'}: repeats has no count of at least 1")
    return [folder(run, i) for i in range(1, count + 1)]


def refusal(run: Path, count: int, commands: str) -> UsageError:
    """The one line refusing a repeated run where a command reads one run."""
    return UsageError(
        f"{run}: a run of {count} repeats, each a run of its own ({run / FOLDER}/r1 .. "
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
    if not (out / "run.json").is_file():
        return
    before = len(repeat_runs(out) or [out])
    if before != count:
        raise UsageError(
            f"{out}: cannot continue a run of {before} repeat{'s' if before != 1 else ''} with "
            f"--repeats {count} (a run keeps its number of repeats); use a new --out, or "
            "--force to start over"
        )


@dataclass(frozen=True)
class RepeatsSummary:
    run: Path
    repeats: list[ExtractSummary]

    @property
    def documents(self) -> int:
        return sum(s.documents for s in self.repeats)

    @property
    def written(self) -> int:
        return sum(s.written for s in self.repeats)

    @property
    def by_status(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for summary in self.repeats:
            for status, n in summary.by_status.items():
                total[status] = total.get(status, 0) + n
        return dict(sorted(total.items()))

    @property
    def ok(self) -> int:
        return sum(s.ok for s in self.repeats)

    @property
    def stopped(self) -> str | None:
        return next((s.stopped for s in self.repeats if s.stopped), None)

    @property
    def not_started(self) -> int:
        return sum(s.not_started for s in self.repeats)

    @property
    def failures(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for summary in self.repeats:
            for status, n in summary.failures.items():
                total[status] = total.get(status, 0) + n
        return total


def extract_repeats(
    make: Callable[[int], Provider],
    packets_dir: Path,
    out: Path,
    count: int,
    force: bool,
    options: HarnessOptions,
) -> RepeatsSummary:
    """Extract the packets of `packets_dir` `count` times into the repeated run `out`: repeat
    i by provider `make(i)` into RUN/repeats/r<i>, each a run as `extract` writes one. `out`
    is held throughout, and each repeat's folder while it is written."""
    from packetbench.benchmark import extract as extraction
    from packetbench.benchmark.runs import write_json
    from packetbench.locking import hold

    check_count(count)
    continuing = options.resume or options.retry_failed
    if continuing and force:
        raise UsageError("--force starts the run over; it cannot be combined with --resume")
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    providers = [make(i) for i in range(1, count + 1)]  # bad settings fail before any write
    extraction.check_harness(providers[0], options)
    with hold(out):
        if continuing:
            if not (out / "run.json").is_file():
                raise UsageError(
                    f"{out}: no run to continue (no run.json); start it without --resume / "
                    "--retry-failed"
                )
            check_resume(out, count)
        else:
            extraction.prepare_run(out, force)
        run_id = out.resolve().name
        first = providers[0].describe()
        info: dict[str, Any] = {
            "run_id": run_id,
            "provider": providers[0].name,
            **{k: v for k, v in first.items() if k != "parameters"},
            "repeats": {
                "count": count,
                "runs": [
                    {
                        "folder": f"{FOLDER}/r{i}",
                        "run_id": f"{run_id}-r{i}",
                        "parameters": provider.describe().get("parameters"),
                    }
                    for i, provider in enumerate(providers, 1)
                ],
            },
            "packets_dir": str(packets_dir.resolve()),
            **({"selection": chosen} if (chosen := options.selection.describe()) else {}),
            "status": "running",
        }
        if continuing:
            # Each repeat checks its own continuation; a refused one changes nothing here.
            before = recorded(out) or {}
            for key in ("provider", "model", "repeats", "selection"):
                if before.get(key) != info.get(key):
                    raise UsageError(
                        f"{out}: cannot continue a run made with different settings ({key} "
                        "differs); use a new --out or --force"
                    )
        else:
            write_json(out / "run.json", info)
        summaries: list[ExtractSummary] = []
        for index, provider in enumerate(providers, 1):
            target = folder(out, index)
            started = (target / "run.json").is_file()
            repeat = Repeat(index, count, f"{run_id}-r{index}")
            summary = extraction.extract(
                provider,
                packets_dir,
                target,
                options=dataclasses.replace(
                    options,
                    resume=options.resume and started,
                    retry_failed=options.retry_failed and started,
                    repeat=repeat,
                ),
            )
            summaries.append(summary)
            if summary.stopped:  # --max-cost: the next repeats are not started
                break
        done = len(summaries) == count and all(
            s.written == s.documents and not s.stopped for s in summaries
        )
        info.update(status="complete" if done else "incomplete")
        write_json(out / "run.json", info)
    return RepeatsSummary(out, summaries)


def write_spread(run: Path, repeats: list[Path]) -> dict[str, Any]:
    """Write RUN/scores/repeats.json, the spread between the scored `repeats` of `run`
    (`benchmark.report.spread`), and return it."""
    from packetbench.benchmark.report.spread import spread
    from packetbench.benchmark.results.query import open_runs
    from packetbench.benchmark.runs import records_digest, write_json

    with open_runs(repeats) as opened:
        found = spread(opened, opened.names)
    data = {
        "run_id": run.resolve().name,
        **found,
        # what each repeat's scores were made from: a reader can tell a repeat changed since
        "records": {
            name: records_digest(path) for name, path in zip(found["repeats"], repeats, strict=True)
        },
    }
    write_json(run / "scores" / SPREAD, data)
    return data
