"""Generate many packets into a corpus, in worker processes or on a Ray cluster.

Every generation ends by rewriting the folder's corpus.json and corpus.lock
(generator.corpus) from the packets it wrote and kept, so an interrupted generation finished
with `--resume` leaves the same corpus digest as one that was never interrupted.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from packetbench.core.errors import UsageError
from packetbench.core.executors import Executor, LocalExecutor
from packetbench.core.locking import hold
from packetbench.core.seeds import check_seeds
from packetbench.generator import corpus
from packetbench.generator.packet import (
    PacketSummary,
    complete_packet,
    not_a_folder,
    packet_id,
    recover,
    write_packet_files,
)
from packetbench.generator.tiers import resolve


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
class GenerationJob:
    """What a job will do: its knobs, the seeds to write, the complete packets it keeps."""

    knobs: dict[str, Any]
    seeds: list[int]
    replace: set[int]  # seeds whose existing folder is replaced (--force, or --resume)
    kept: list[PacketSummary]


def job_for(
    tier: str,
    seed: int,
    count: int,
    out_dir: Path,
    force: bool,
    overrides: dict[str, Any] | None = None,
    resume: bool = False,
) -> GenerationJob:
    """Validate a job before anything is written.

    With `resume`, a complete packet made with the same settings is kept and an incomplete
    one (files missing, truncated or not matching their manifests) is written again.
    """
    knobs = resolve(tier, overrides)
    check_seeds(seed, count)
    if resume and force:
        raise UsageError("--resume keeps complete packets and --force replaces them; choose one")
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
            raise UsageError(f"{target}: packet folder already exists (use --force to replace it)")
        todo.append(s)
        replace.add(s)
    return GenerationJob(knobs, todo, replace, kept)


Task = tuple[Path, str, int, dict[str, Any], bool]
Written = tuple[PacketSummary, corpus.Entry, list[tuple[str, str]]]


def _one(task: Task) -> Written:
    """Write one packet and read back its corpus entry (in the worker that wrote it).

    A task can run again after its packet was renamed into place: its worker, or the Ray
    node it ran on, died before the result came back, or reading the packet back raised. The
    generation holds the folder and the packet was not there when it started, so a complete
    packet found there is this task's own: it is read back, not refused as in the way.
    """
    out_dir, tier, seed, knobs, force = task
    target = out_dir / packet_id(tier, seed)
    done = None if force or not target.is_dir() else complete_packet(target, tier, seed, knobs)
    if done is not None:
        return replace(done, kept=False), *corpus.entry_of(done.path)
    summary, files = write_packet_files(*task)
    return summary, *corpus.entry_written(files)


def _label(task: Task) -> str:
    return packet_id(task[1], task[2])


def generate(
    tier: str,
    seed: int,
    count: int,
    out_dir: Path,
    *,
    jobs: int = 1,
    force: bool = False,
    overrides: dict[str, Any] | None = None,
    resume: bool = False,
    on_done: Callable[[PacketSummary], None] | None = None,
    executor: Executor | None = None,
) -> list[PacketSummary]:
    """Write packets seed .. seed+count-1 of `tier` into `out_dir`, in seed order, and
    extend the folder's corpus with them.

    The summaries of packets kept by `resume` come back too, marked `kept`. `executor`
    (default: `jobs` local worker processes) runs the packets. The folder is held for the
    whole generation (packetbench.core.locking): a second writer of it is refused, naming this
    one.
    """
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (got {jobs})")
    resolve(tier, overrides)  # bad knobs and seeds are refused before the folder is taken
    check_seeds(seed, count)
    if resume and force:
        raise UsageError("--resume keeps complete packets and --force replaces them; choose one")
    prepare_output(out_dir)
    with hold(out_dir):
        return _generate(
            tier, seed, count, out_dir, force, overrides, resume, on_done, executor, jobs
        )


def _generate(
    tier: str,
    seed: int,
    count: int,
    out_dir: Path,
    force: bool,
    overrides: dict[str, Any] | None,
    resume: bool,
    on_done: Callable[[PacketSummary], None] | None,
    executor: Executor | None,
    jobs: int,
) -> list[PacketSummary]:
    job = job_for(tier, seed, count, out_dir, force, overrides, resume)
    tasks: list[Task] = [(out_dir, tier, s, job.knobs, s in job.replace) for s in job.seeds]
    summaries: list[PacketSummary] = []
    entries: list[tuple[corpus.Entry, list[tuple[str, str]]]] = []
    for summary in job.kept:
        entries.append(corpus.entry_of(summary.path))
        summaries.append(summary)
        if on_done is not None:
            on_done(summary)
    try:
        for summary, entry, lock in (executor or LocalExecutor(jobs)).map(_one, tasks, _label):
            summaries.append(summary)
            entries.append((entry, lock))
            if on_done is not None:
                on_done(summary)
    except BaseException:
        # Stopped (Ctrl-C, a failure): the workers are gone. What they half wrote is removed;
        # a packet one finished before we heard of it is complete on disk, and listed.
        heard = {summary.packet_id for summary in summaries}
        for s in job.seeds:
            pid = packet_id(tier, s)
            recover(out_dir, pid)
            done = pid not in heard and (out_dir / pid).is_dir()
            if done and complete_packet(out_dir / pid, tier, s, job.knobs) is not None:
                entries.append(corpus.entry_of(out_dir / pid))
        raise
    finally:
        # Packets written before a failure are complete: the corpus lists them.
        if entries or (out_dir / corpus.CORPUS).is_file():
            corpus.extend(out_dir, entries)
    return sorted(summaries, key=lambda s: s.packet_id)
