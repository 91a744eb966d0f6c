"""Shared fixtures: the committed canonical suite, fresh packets, and the real CLI."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.generator.packet import BuiltPacket, build_packet, packet_id
from packetbench.generator.tiers import resolve
from tests.support.paths import PACKETS, TIERS, cli_path


@pytest.fixture(scope="session")
def run_cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    def run(
        *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 600
    ) -> subprocess.CompletedProcess[str]:
        full_env = {**os.environ, **(env or {})}
        return subprocess.run(
            [cli_path(), *args],
            cwd=cwd,
            env=full_env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    return run


# The longest tests of the whole suite (minutes each, most of it one worker's), started first
# and in this order, so that under xdist the two workers write the N5 and N4 tier corpora side
# by side and the short tests fill in around them instead of waiting behind them.
FIRST = (
    "tests/generator/patterns/test_tiers.py::test_tier_audits_clean_validates_and_is_hash_seed_free[N5]",
    "tests/generator/patterns/test_tiers.py::test_tier_audits_clean_validates_and_is_hash_seed_free[N4]",
    "tests/generator/patterns/test_packet_tiers.py::",
    "tests/audit/test_canonical.py::test_the_suite_passes_with_ocr",
    "tests/generator/patterns/test_tiers.py::",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Move the suite's longest tests to the front, in FIRST's order (a stable sort: the
    order is otherwise kept)."""

    def rank(item: pytest.Item) -> int:
        return next((i for i, p in enumerate(FIRST) if item.nodeid.startswith(p)), len(FIRST))

    items.sort(key=rank)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Build the canonical suite into packets/ unless it is there and matches its lock.

    The repository commits only the lock (packets/SHA256SUMS): the packets outgrew what is worth
    committing. Every process of a session (xdist workers too) runs this; the folder's writer lock
    (packetbench.core.locking, the one `generate` takes) lets the first build and the others find
    the suite built. The lock file is never rewritten here: a
    generator change that alters output fails `test_determinism` until `make suite` records it.
    """
    from packetbench.generator.suite import ensure_suite

    ensure_suite(PACKETS)


@pytest.fixture(scope="session")
def tier_corpus(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """tier_corpus(tier): the folder of that tier's preset packets (tier_corpus.SEEDS of it),
    written once per session and shared by every xdist worker (read only; see
    tests/support/tier_corpus.py)."""
    from tests.support.tier_corpus import tier_folder

    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return lambda tier: tier_folder(root, tier)


@pytest.fixture(scope="session")
def canonical_packets() -> list[Path]:
    """The canonical suite, one packet per tier (built at session start)."""
    return [PACKETS / packet_id(tier, 1) for tier in TIERS]


@pytest.fixture(scope="session")
def fresh_packet_dir(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, int], Path]:
    """Write packet (tier, seed) once per session into a temporary folder."""
    root = tmp_path_factory.mktemp("fresh")
    cache: dict[tuple[str, int], Path] = {}

    def make(tier: str, seed: int) -> Path:
        if (tier, seed) not in cache:
            built: BuiltPacket = build_packet(tier, seed, resolve(tier))
            folder = root / packet_id(tier, seed)
            folder.mkdir()
            for name, data in built.files.items():
                (folder / name).write_bytes(data)
            cache[(tier, seed)] = folder
        return cache[(tier, seed)]

    return make
