"""Packets of a tier at its presets (ten of N1-N3, four of N4-N5), written once per test
session and shared by the tests that sweep them (test_tiers.py, test_packet_tiers.py).

Each tier is its own folder, written by the real command (`packetbench generate`, two
workers: a worker that needs a tier another is writing waits for it, and its core should not)
under a file lock in the session's common temporary folder, so xdist workers build different
tiers side by side and a tier two workers need is written once. Readers must not write into
these folders: a test that writes (an extraction) copies the packets it needs first.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
from pathlib import Path

from tests.support.paths import cli_path

# Packets per tier. An N5 packet costs about 20 s of CPU to write (an N3 one about 4), so the
# suite holds four of N4 and N5 (over 130 N5 documents) and ten of N1-N3. Wider sweeps:
# benchmarks/audit_sweep.py, benchmarks/verify_coverage.py.
SEEDS = {"N1": 10, "N2": 10, "N3": 10, "N4": 4, "N5": 4}
HASH_SEED = "0"  # the builders' PYTHONHASHSEED; tests compare it with another one


def tier_folder(root: Path, tier: str) -> Path:
    """Packets `tier`-000001 .. (`SEEDS[tier]` of them) under `root` (the session's common
    temporary folder), written now unless a worker already wrote them."""
    folder = root / "tier-corpus" / tier
    done = folder.parent / f".{tier}.complete"
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{tier}.lock", "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        if not done.exists():
            command = ("generate", "--tiers", tier, "--seed", "1", "--count", str(SEEDS[tier]))
            result = subprocess.run(
                [cli_path(), *command, "--jobs", "2", "--out", str(folder)],
                env={**os.environ, "PYTHONHASHSEED": HASH_SEED},
                capture_output=True,
                text=True,
                timeout=3600,
                check=False,
            )
            assert result.returncode == 0, result.stderr
            done.touch()
    return folder
