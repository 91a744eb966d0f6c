"""Generate many packets, optionally in parallel worker processes."""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import UsageError
from generator.packet import (
    PacketSummary,
    complete_packet,
    not_a_folder,
    packet_id,
    recover,
    write_packet,
)
from generator.seeds import check_seeds
from generator.tiers import resolve
from generator.workers import worker_pool


def prepare_output(out_dir: Path) -> None:
    """Create `out_dir` if needed and prove it is writable, or raise UsageError."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        probe = tempfile.mkdtemp(prefix=".write-probe-", dir=out_dir)
        os.rmdir(probe)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise UsageError(f"{out_dir}: cannot write packets here ({reason})") from None


@dataclass(frozen=True)
class Batch:
    """What a batch will do: its knobs, the seeds to write, the complete packets it keeps."""

    knobs: dict[str, Any]
    seeds: list[int]
    replace: set[int]  # seeds whose existing folder is replaced (--force, or --resume)
    kept: list[PacketSummary]


def plan(tier: str, seed: int, count: int, out_dir: Path, force: bool,
         overrides: dict[str, Any] | None = None, resume: bool = False) -> Batch:
    """Validate a batch before anything is written.

    With `resume`, a complete packet made with the same settings is kept and an incomplete
    one (files missing, truncated or not matching their manifests) is written again.
    """
    knobs = resolve(tier, overrides)
    check_seeds(seed, count)
    if resume and force:
        raise UsageError("--resume keeps complete packets and --force replaces them; "
                         "choose one")
    seeds = list(range(seed, seed + count))
    prepare_output(out_dir)
    for s in seeds:
        recover(out_dir, packet_id(tier, s))
    todo: list[int] = []
    replace: set[int] = set()
    kept: list[PacketSummary] = []
    for s in seeds:
        target = out_dir / packet_id(tier, s)
        if not target.exists():
            todo.append(s)
            continue
        if not target.is_dir():
            raise not_a_folder(target)
        if resume:
            summary = complete_packet(target, tier, s, knobs)
            if summary is not None:
                kept.append(summary)
                continue
        elif not force:
            raise UsageError(
                f"{target}: packet folder already exists (use --force to replace it)"
            )
        todo.append(s)
        replace.add(s)
    return Batch(knobs, todo, replace, kept)


def _one(args: tuple[Path, str, int, dict[str, Any], bool]) -> PacketSummary:
    return write_packet(*args)


def generate(
    tier: str, seed: int, count: int, out_dir: Path, *, jobs: int = 1, force: bool = False,
    overrides: dict[str, Any] | None = None, resume: bool = False,
    on_done: Callable[[PacketSummary], None] | None = None,
) -> list[PacketSummary]:
    """Write packets seed .. seed+count-1 of `tier` into `out_dir`, in seed order.

    The summaries of packets kept by `resume` come back too, marked `kept`.
    """
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (got {jobs})")
    batch = plan(tier, seed, count, out_dir, force, overrides, resume)
    tasks = [(out_dir, tier, s, batch.knobs, s in batch.replace) for s in batch.seeds]
    summaries: list[PacketSummary] = []
    for summary in itertools.chain(batch.kept, _run(tasks, jobs)):
        summaries.append(summary)
        if on_done is not None:
            on_done(summary)
    return sorted(summaries, key=lambda s: s.packet_id)


def _run(tasks: list[tuple[Path, str, int, dict[str, Any], bool]],
         jobs: int) -> Iterator[PacketSummary]:
    if jobs == 1 or len(tasks) <= 1:
        yield from map(_one, tasks)
        return
    with worker_pool(min(jobs, len(tasks))) as pool:
        yield from pool.map(_one, tasks)
