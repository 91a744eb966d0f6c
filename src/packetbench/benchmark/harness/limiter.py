"""How many requests may be in flight: at most `--concurrency`, fewer after 429s.

On a 429 the window halves and, when the server says how long to wait, no new request starts
before then; every success after that widens the window by one again (additive increase,
multiplicative decrease), so a run settles just under the provider's rate limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import time


class AdaptiveLimiter:
    def __init__(self, limit: int) -> None:
        self.ceiling = limit
        self.window = float(limit)
        self.active = 0
        self.paused_until = 0.0
        self.throttled = 0  # 429s seen
        self._changed = asyncio.Condition()

    def _free(self) -> int:
        return max(1, int(self.window)) - self.active

    async def acquire(self) -> None:
        if self._free() > 0 and self.paused_until <= time.monotonic():
            self.active += 1  # the event loop is one thread: no lock needed to take a slot
            return
        async with self._changed:
            while True:
                wait = self.paused_until - time.monotonic()
                if wait > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), wait)
                    continue
                if self._free() > 0:
                    self.active += 1
                    return
                await self._changed.wait()

    async def release(self, *, ok: bool) -> None:
        async with self._changed:
            self.active -= 1
            if ok and self.window < self.ceiling:
                self.window = min(float(self.ceiling), self.window + 1)
            self._changed.notify(max(1, self._free()))

    async def throttle(self, retry_after: float | None) -> None:
        """A 429: halve the window and hold new requests for `retry_after` seconds."""
        async with self._changed:
            self.throttled += 1
            self.window = max(1.0, self.window / 2)
            if retry_after:
                self.paused_until = max(self.paused_until, time.monotonic() + retry_after)
            self._changed.notify_all()
