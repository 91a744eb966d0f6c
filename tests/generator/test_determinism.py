"""Same seed and version => byte-identical packets: in memory, on disk, across processes."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.generator.packet import build_packet
from packetbench.generator.suite import LOCK, read_lock
from packetbench.generator.tiers import resolve
from tests.support.paths import PACKETS


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_written_suite_matches_the_lock(canonical_packets: list[Path]) -> None:
    """The suite as `make suite` writes it (temporary folders, renames) equals the lock."""
    lock = read_lock(PACKETS)
    on_disk = {
        f"{p.name}/{name}": digest
        for p in canonical_packets
        for name, digest in _digests(p).items()
    }
    differing = sorted(set(on_disk) ^ set(lock) | {n for n in on_disk if on_disk[n] != lock.get(n)})
    assert not differing, f"{len(differing)} files differ from {LOCK}, first {differing[0]}"


@pytest.mark.slow
def test_regenerated_suite_matches_the_lock() -> None:
    """The whole canonical suite, rebuilt from seeds in another process under a hash seed of
    its own, equals the committed lock byte for byte (the tier tests leave N4 and N5 to it)."""
    probe = (
        "import json\n"
        "from packetbench.generator.suite import expected_lock\n"
        "print(json.dumps(expected_lock()))\n"
    )
    built = subprocess.run(
        [sys.executable, "-c", probe],
        env={**os.environ, "PYTHONHASHSEED": "4242"},
        capture_output=True,
        text=True,
        timeout=1800,
        check=True,
    )
    expected = json.loads(built.stdout)
    locked = read_lock(PACKETS)
    differing = sorted(
        name for name in set(expected) | set(locked) if expected.get(name) != locked.get(name)
    )
    assert not differing, f"{len(differing)} files differ from {LOCK}, first {differing[0]}"


def test_two_builds_in_one_process_are_identical() -> None:
    knobs = resolve("N2")
    assert build_packet("N2", 9, knobs).files == build_packet("N2", 9, knobs).files


def test_different_seeds_differ() -> None:
    knobs = resolve("N1")
    a, b = build_packet("N1", 1, knobs).files, build_packet("N1", 2, knobs).files
    assert a.keys() == b.keys()
    assert all(a[name] != b[name] for name in a if name.endswith((".pdf", ".xlsx")))


@pytest.mark.parametrize("hash_seed", ["0", "12345"])
@pytest.mark.slow
def test_hash_seed_and_jobs_do_not_change_bytes(
    run_cli: Callable[..., object], tmp_path: Path, hash_seed: str
) -> None:
    """Separate processes, a different PYTHONHASHSEED, two workers: same files as the lock."""
    result = run_cli(
        "generate",
        "--tiers",
        "N1",
        "--seed",
        "1",
        "--count",
        "2",
        "--jobs",
        "2",
        "--out",
        str(tmp_path),
        env={"PYTHONHASHSEED": hash_seed},
    )
    assert result.returncode == 0, result.stderr  # type: ignore[attr-defined]
    lock = read_lock(PACKETS)
    fresh = {f"N1-000001/{n}": d for n, d in _digests(tmp_path / "N1-000001").items()}
    assert fresh == {k: v for k, v in lock.items() if k.startswith("N1-000001/")}
    other = _digests(tmp_path / "N1-000002")
    again = build_packet("N1", 2, resolve("N1")).files
    assert other == {n: hashlib.sha256(d).hexdigest() for n, d in again.items()}


def test_workbook_members_carry_no_clock_time(canonical_packets: list[Path]) -> None:
    import zipfile

    for packet in canonical_packets:
        for book in packet.glob("*.xlsx"):
            with zipfile.ZipFile(book) as archive:
                stamps = {info.date_time for info in archive.infolist()}
            assert stamps == {(1980, 1, 1, 0, 0, 0)}, f"{book.name}: {stamps}"


_SCANNED = """
import json
import numpy as np
from packetbench.generator.render import projective, scan_draw, scan_levels
level = scan_levels.LEVELS["photo"]
to_pixels = projective.mat3(scan_draw._to_pixels(level.dpi / 72, 792.0).tolist())
out = []
for seed in range(200):
    generator = np.random.Generator(np.random.PCG64(seed))
    transform, details = scan_draw.geometry(level, generator, 612.0, 792.0)
    moved = projective.multiply(to_pixels, transform.rows, projective.inverse(to_pixels))
    tiles = scan_draw._tile_matrices(moved, (1700, 2200))
    out.append([transform.matrix.tolist(), [tile.tolist() for _, tile in tiles]])
print(json.dumps(out))
"""


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86 OpenBLAS cores")
def test_scans_do_not_depend_on_the_cpu_s_blas_kernels() -> None:
    """A photo's perspective matrices are the same bits whichever kernels
    OpenBLAS picks for this CPU: its Haswell and Sandybridge kernels solved the same 8x8
    system differently in the last bits, and the manifests that record a scan's matrix
    differed between machines (`generator.render.projective`)."""
    matrices = []
    for core in ("Sandybridge", "Haswell"):
        out = subprocess.run(
            [sys.executable, "-c", _SCANNED],
            env={**os.environ, "OPENBLAS_CORETYPE": core},
            capture_output=True,
            text=True,
            check=True,
        )
        matrices.append(json.loads(out.stdout))
    assert len(matrices[0]) == 200
    assert matrices[0] == matrices[1]
