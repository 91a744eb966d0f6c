"""Generating a release's splits, and hashing what they hold.

The dev split is generated as `packetbench generate` makes a corpus (its packets named by
their public ids). A test packet is named by its position from the first moment: it is
built in memory and written into a scratch folder named by that position, renamed to it
once whole, and every message about it (a crash, a write the disk refused) names it by its
position ("test packet 2 of 4 (N1-t002)"). Its seed, which its packet id carries, is in no
file name, folder name, message or exception text, so none reaches a terminal, a CI log or
a folder a killed build leaves behind; only the packet's own files (packet_truth.json)
hold it, as they must for `release verify --seeds` to check it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from packetbench.benchmark.release.layout import test_folder
from packetbench.benchmark.release.spec import SeedFile, SplitSpec
from packetbench.core import safe_read
from packetbench.core.errors import BadInput, InputError, PacketbenchError, WriteFailed
from packetbench.core.executors import LocalExecutor
from packetbench.core.writing import naming

Progress = Callable[[str], None]
T = TypeVar("T")
R = TypeVar("R")


@dataclass
class _Named:
    """An executor whose tasks are named by where they write (`into`/packet id), not by
    packet id alone: "REL/dev/N1-000001: cannot write (No space left on device)"."""

    into: Path
    inner: LocalExecutor
    name: str = "local"

    def map(
        self, function: Callable[[T], R], tasks: Sequence[T], label: Callable[[T], str]
    ) -> Iterator[R]:
        return self.inner.map(function, tasks, lambda task: f"{self.into}/{label(task)}")


def generate_dev(
    split: SplitSpec,
    seed: int,
    into: Path,
    jobs: int,
    progress: Progress,
    shown: Path | None = None,
) -> None:
    """The public split: tier T's packets are seeds seed .. seed+n-1, in `into` (`shown`:
    what messages call it)."""
    from packetbench.generator import generation
    from packetbench.generator.tiers import parse_overrides

    overrides = parse_overrides(split.set_)
    executor = _Named(shown or into, LocalExecutor(jobs))
    for tier in split.tiers or []:
        count = split.packets_per_tier or 0
        progress(f"generating {count} {tier} packet(s) into {into.name}/")
        generation.generate(tier, seed, count, into, overrides=overrides, executor=executor)


@dataclass(frozen=True)
class TestPacket:
    """One packet of a test split to write: what makes it (private) and where it goes."""

    tier: str
    seed: int
    knobs: dict[str, Any]
    index: int  # 1-based, within its tier: its folder's name
    into: Path  # the split's folder being written
    shown: Path  # ... and what messages call it
    position: int  # 1-based, over the whole split
    count: int

    @property
    def name(self) -> str:
        return test_folder(self.tier, self.index)

    @property
    def label(self) -> str:
        return f"test packet {self.position} of {self.count} ({self.name})"


class TestPacketCrash(Exception):
    """A test packet's generation raised: its message, with the seed taken out."""


class TestPacketBug(PacketbenchError):
    """... a bug the project detects itself (not retried), its seed taken out."""


def _without_seed(error: BaseException, packet: TestPacket) -> Exception:
    """`error` as an exception whose text names the packet by its position: the seed, and
    the packet id that carries it, replaced wherever they appear."""
    from packetbench.generator.packet import packet_id

    text = f"{type(error).__name__}: {error}"
    text = text.replace(packet_id(packet.tier, packet.seed), packet.name)
    text = text.replace(str(packet.seed), "<seed>")
    kind = TestPacketBug if isinstance(error, PacketbenchError) else TestPacketCrash
    return kind(text)


def write_test_packet(packet: TestPacket) -> str:
    """Build one test packet and write it into `packet.into` under its position (a worker's
    task); the folder's name."""
    from packetbench.generator.packet import build_packet

    try:
        built = build_packet(packet.tier, packet.seed, packet.knobs)
    except Exception as error:
        raise _without_seed(error, packet) from None
    partial = packet.into / f".{packet.name}.partial-{os.getpid()}"
    target = packet.into / packet.name
    try:
        with naming(packet.shown / packet.name):
            partial.mkdir()
        for name in sorted(built.files):
            with naming(packet.shown / packet.name / name):
                (partial / name).write_bytes(built.files[name])
        with naming(packet.shown / packet.name):
            partial.rename(target)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return packet.name


def generate_test(
    split: SplitSpec,
    seeds: SeedFile,
    into: Path,
    jobs: int,
    progress: Progress,
    shown: Path | None = None,
) -> None:
    """The held-out split: each packet written into `into` under its position (`shown`:
    what messages call `into`)."""
    from packetbench.generator.tiers import parse_overrides, resolve

    overrides = parse_overrides(split.set_)
    count = split.packets_per_tier or 0
    tiers = split.tiers or []
    total = count * len(tiers)
    with naming(shown or into):
        into.mkdir(parents=True, exist_ok=True)
    tasks: list[TestPacket] = []
    for tier in tiers:
        knobs = resolve(tier, overrides)
        for index, seed in enumerate(seeds.seeds_of(tier, count), 1):
            tasks.append(
                TestPacket(tier, seed, knobs, index, into, shown or into, len(tasks) + 1, total)
            )
    progress(f"generating {total} test packet(s) into {into.name}/")
    executor = LocalExecutor(jobs, fatal=(InputError, WriteFailed))
    for _ in executor.map(write_test_packet, tasks, lambda packet: packet.label):
        pass


def hash_tree(folder: Path, prefix: str) -> dict[str, str]:
    """path under the release -> sha256 of every file below `folder`; a link, a FIFO or a
    device where a file belongs is refused, named for what it is."""
    lines: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            raise BadInput(f"{path}: a symbolic link; a release holds regular files only")
        if not path.is_dir():
            relative = path.relative_to(folder).as_posix()
            lines[f"{prefix}/{relative}"] = safe_read.sha256(path, "document")
    return lines
