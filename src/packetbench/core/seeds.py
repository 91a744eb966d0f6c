"""The seeds a packet (or a simulated run) may have."""

from __future__ import annotations

from packetbench.core.errors import UsageError

# Seeds are written into every truth file and run.json as JSON integers: 64 bits at most.
MAX_SEED = 2**63 - 1


def check_seeds(seed: int, count: int) -> None:
    """UsageError unless seed .. seed+count-1 are all valid packet seeds."""
    if count < 1:
        raise UsageError(f"--count must be at least 1 (got {count})")
    if seed < 0:
        raise UsageError(f"--seed must be zero or positive (got {seed})")
    if seed + count - 1 > MAX_SEED:
        raise UsageError(
            f"--seed and --count reach seed {seed + count - 1}, above the largest seed {MAX_SEED}"
        )
