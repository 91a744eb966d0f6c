"""What a provider with a batch API implements for `extract --batch`.

A batch provider turns requests (the same SDK arguments `build_request` makes for ordinary
requests) into one batch of its API, tells how that batch stands, and reads its results back
by custom id. The harness (``benchmark.harness.batching``) chunks, records, polls and maps the
results into records; a provider only knows its SDK's batch calls.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from packetbench.benchmark.providers.api import ProviderFailure, Reply

# How a batch stands, in provider-neutral terms: still running; over with results to read;
# over without having run its requests (expired, cancelled); refused as a whole (failed).
BatchPhase = Literal["running", "ended", "expired", "failed"]
# Batch ids come from a server and are kept in the run folder: they are only ever sent back
# as URL parts of SDK calls, and must look like an id for that (Gemini's are "batches/xyz").
BATCH_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/-]{0,255}")


def valid_batch_id(value: Any) -> bool:
    """Whether `value` (from a server or the run folder) looks like a batch id."""
    return isinstance(value, str) and BATCH_ID.fullmatch(value) is not None and ".." not in value


@dataclass(frozen=True)
class BatchLimits:
    """The provider's documented ceiling for one batch."""

    requests: int
    bytes: int


@dataclass(frozen=True)
class BatchStatus:
    phase: BatchPhase
    state: str  # the provider's own word for it ("in_progress", "ended", "JOB_STATE_...")
    message: str | None = None  # why a batch failed or expired, as the provider says


# One item's outcome: an answer, or a failure classified as for an ordinary request.
ItemResult = Reply | ProviderFailure


class BatchProvider(ABC):
    """The batch half of an API provider (mixed into the provider class)."""

    batch_limits: ClassVar[BatchLimits]

    @abstractmethod
    def batch_item(self, custom_id: str, request: dict[str, Any]) -> dict[str, Any]:
        """One request as a line (or entry) of the provider's batch input."""

    @abstractmethod
    async def submit_batch(self, items: list[dict[str, Any]]) -> str:
        """Create one batch of `items`; its id (ProviderFailure when refused)."""

    @abstractmethod
    async def poll_batch(self, batch_id: str) -> BatchStatus:
        """How the batch stands now."""

    @abstractmethod
    async def batch_results(self, batch_id: str) -> dict[str, ItemResult]:
        """custom id -> outcome, for every item the ended batch reports on."""
