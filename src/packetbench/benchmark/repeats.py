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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from packetbench.benchmark import extract as extraction
from packetbench.benchmark.config import HarnessOptions, check_repeats
from packetbench.benchmark.providers.base import Provider
from packetbench.benchmark.run_folder import ExtractSummary, prepare_run
from packetbench.benchmark.runs import (
    REPEATS_FOLDER,
    Repeat,
    RunInfo,
    check_resume,
    is_run,
    recorded_repeats,
    repeat_folder,
    write_run,
)
from packetbench.core.errors import UsageError
from packetbench.core.locking import hold


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
    def statuses(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for summary in self.repeats:
            for status, n in summary.statuses.items():
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
    check_repeats(count)
    continuing = options.resume or options.retry_failed
    if continuing and force:
        raise UsageError("--force starts the run over; it cannot be combined with --resume")
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    providers = [make(i) for i in range(1, count + 1)]  # bad settings fail before any write
    extraction.check_harness(providers[0], options)
    with hold(out):
        if continuing:
            if not is_run(out):
                raise UsageError(
                    f"{out}: no run to continue (no run.json); start it without --resume / "
                    "--retry-failed"
                )
            check_resume(out, count)
        else:
            prepare_run(out, force)
        run_id = out.resolve().name
        first = providers[0].describe()
        info = RunInfo.model_validate(
            {
                "run_id": run_id,
                "provider": providers[0].name,
                **{k: v for k, v in first.items() if k != "parameters"},
                "repeats": {
                    "count": count,
                    "runs": [
                        {
                            "folder": f"{REPEATS_FOLDER}/r{i}",
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
        )
        if continuing:
            # Each repeat checks its own continuation; a refused one changes nothing here.
            found = recorded_repeats(out)
            before = found.to_json() if found is not None else {}
            now = info.to_json()
            for key in ("provider", "model", "repeats", "selection"):
                if before.get(key) != now.get(key):
                    raise UsageError(
                        f"{out}: cannot continue a run made with different settings ({key} "
                        "differs); use a new --out or --force"
                    )
        else:
            write_run(out, info)
        summaries: list[ExtractSummary] = []
        for index, provider in enumerate(providers, 1):
            target = repeat_folder(out, index)
            started = is_run(target)
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
        info.status = "complete" if done else "incomplete"
        write_run(out, info)
    return RepeatsSummary(out, summaries)
