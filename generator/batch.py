"""Generate many packets, optionally in parallel worker processes."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from generator.errors import UsageError
from generator.packet import PacketSummary, packet_id, recover, write_packet
from generator.tiers import resolve


def prepare_output(out_dir: Path) -> None:
    """Create `out_dir` if needed and prove it is writable, or raise UsageError."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        probe = tempfile.mkdtemp(prefix=".write-probe-", dir=out_dir)
        os.rmdir(probe)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise UsageError(f"{out_dir}: cannot write packets here ({reason})") from None


def plan(tier: str, seed: int, count: int, out_dir: Path, force: bool,
         overrides: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[int]]:
    """Validate a batch before anything is written; return its knobs and seeds."""
    knobs = resolve(tier, overrides)
    if count < 1:
        raise UsageError(f"--count must be at least 1 (got {count})")
    if seed < 0:
        raise UsageError(f"--seed must be zero or positive (got {seed})")
    seeds = list(range(seed, seed + count))
    prepare_output(out_dir)
    for s in seeds:
        recover(out_dir, packet_id(tier, s))
    if not force:
        for s in seeds:
            target = out_dir / packet_id(tier, s)
            if target.exists():
                raise UsageError(
                    f"{target}: packet folder already exists (use --force to replace it)"
                )
    return knobs, seeds


def _one(args: tuple[Path, str, int, dict[str, Any], bool]) -> PacketSummary:
    return write_packet(*args)


def generate(
    tier: str, seed: int, count: int, out_dir: Path, *, jobs: int = 1, force: bool = False,
    overrides: dict[str, Any] | None = None,
    on_done: Callable[[PacketSummary], None] | None = None,
) -> list[PacketSummary]:
    """Write packets seed .. seed+count-1 of `tier` into `out_dir`, in seed order."""
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (got {jobs})")
    knobs, seeds = plan(tier, seed, count, out_dir, force, overrides)
    tasks = [(out_dir, tier, s, knobs, force) for s in seeds]
    summaries: list[PacketSummary] = []
    for summary in _run(tasks, jobs):
        summaries.append(summary)
        if on_done is not None:
            on_done(summary)
    return sorted(summaries, key=lambda s: s.packet_id)


def _run(tasks: list[tuple[Path, str, int, dict[str, Any], bool]],
         jobs: int) -> Iterator[PacketSummary]:
    if jobs == 1 or len(tasks) == 1:
        yield from map(_one, tasks)
        return
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
        yield from pool.map(_one, tasks)
