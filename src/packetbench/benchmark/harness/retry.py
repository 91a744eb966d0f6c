"""When to try a failed request again: a per-provider budget, exponential backoff with full
jitter, and the server's retry-after when it gives one."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class RetryPolicy:
    """`retries` more attempts after the first, on 429, 5xx, timeouts and lost connections.

    The n-th retry waits a uniformly random time in [0, min(cap, base * 2**(n-1))] ("full
    jitter", so many workers that failed together do not come back together), or the server's
    retry-after when that is longer.
    """

    retries: int
    base_s: float = 1.0
    cap_s: float = 60.0

    def delay(self, retry: int, retry_after: float | None, rng: random.Random) -> float:
        backoff = rng.uniform(0.0, min(self.cap_s, self.base_s * 2 ** (retry - 1)))
        if retry_after is not None:
            return max(retry_after, backoff)
        return backoff

    def describe(self) -> dict[str, object]:
        return {
            "retries": self.retries,
            "max_attempts": self.retries + 1,
            "backoff": "exponential, full jitter",
            "base_s": self.base_s,
            "cap_s": self.cap_s,
            "on": ["429", "408", "409", "5xx", "timeout", "connection"],
            "retry_after": "honoured (retry-after-ms, retry-after)",
        }
