"""How an extraction is configured: the options of `extract` and `run` as one typed object.

`HarnessOptions` say how an API run is driven (concurrency, retries, the response cache, cost
limits, batches, `--resume`); the simulator takes none of them but the document selection.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from packetbench.benchmark.runs import Repeat
from packetbench.benchmark.selection import Selection


@dataclass(frozen=True)
class HarnessOptions:
    """How an API run is driven (the simulator takes none of these)."""

    resume: bool = False
    retry_failed: bool = False
    concurrency: int = 8
    max_cost_usd: float | None = None
    cache_dir: Path | None = None  # None: the default cache folder
    use_cache: bool = True
    pricing: Path | None = None  # a pricing table adding to / replacing the packaged one
    backoff_base_s: float = 1.0
    backoff_cap_s: float = 60.0
    progress: bool = False
    seed: int | None = None  # of the retry jitter (tests)
    batch: bool = False  # through the provider's batch API (`--batch`)
    poll_interval_s: float = 30.0  # between two polls of the batches in flight
    batch_size: int | None = None  # requests per batch at most (None: the provider's limit)
    selection: Selection = field(default_factory=Selection)  # --tiers, --doc-types, ..
    repeat: Repeat | None = None  # which repeat of a repeated run this is (--repeats)
