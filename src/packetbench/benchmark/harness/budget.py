"""`--max-cost`: no new request starts once the dollars spent (plus what the requests in
flight are expected to cost) would pass the limit; requests in flight always finish."""

from __future__ import annotations

import asyncio


class Budget:
    def __init__(self, max_usd: float | None) -> None:
        self.max_usd = max_usd
        self.spent = 0.0
        self.reserved = 0.0
        self.in_flight = 0
        self.exhausted = False
        self._changed = asyncio.Condition()

    async def admit(self, estimate: float) -> bool:
        """Reserve `estimate` dollars for a new request; False once the budget is spent."""
        if self.max_usd is None:
            return True
        async with self._changed:
            while True:
                if self.spent >= self.max_usd:
                    self.exhausted = True
                    self._changed.notify_all()
                    return False
                # With nothing in flight a request may start even when its estimate alone
                # would pass the limit: only spending, never an estimate, ends a run.
                if self.in_flight == 0 or self.spent + self.reserved + estimate <= self.max_usd:
                    self.reserved += estimate
                    self.in_flight += 1
                    return True
                await self._changed.wait()

    async def settle(self, estimate: float, actual: float) -> None:
        self.spent += actual
        if self.max_usd is None:
            return
        async with self._changed:
            self.reserved = max(0.0, self.reserved - estimate)
            self.in_flight -= 1
            self._changed.notify_all()
