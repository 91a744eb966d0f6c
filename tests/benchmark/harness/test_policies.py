"""Retry delays, retry-after parsing, the adaptive limiter, the cost budget, redaction."""

from __future__ import annotations

import asyncio
import random
import time
from email.utils import formatdate

import pytest

from packetbench.benchmark.harness.budget import Budget
from packetbench.benchmark.harness.limiter import AdaptiveLimiter
from packetbench.benchmark.harness.redact import Redactor
from packetbench.benchmark.harness.retry import RetryPolicy
from packetbench.benchmark.providers.api import parse_retry_after, status_failure


def test_backoff_is_exponential_with_full_jitter_and_honours_retry_after() -> None:
    policy = RetryPolicy(retries=6, base_s=1.0, cap_s=8.0)
    rng = random.Random(1)
    for retry, ceiling in ((1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (6, 8.0)):
        delays = [policy.delay(retry, None, rng) for _ in range(400)]
        assert min(delays) >= 0 and max(delays) <= ceiling
        assert max(delays) > 0.8 * ceiling and min(delays) < 0.2 * ceiling  # jittered
    assert policy.delay(1, 5.0, rng) == 5.0  # retry-after wins when longer


def test_retry_after_headers() -> None:
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after": "0.5"}) == 0.5
    when = parse_retry_after({"retry-after": formatdate(time.time() + 30, usegmt=True)})
    assert when is not None and 25 < when <= 30
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None and parse_retry_after(None) is None


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (429, "rate_limit"),
        (500, "server"),
        (503, "server"),
        (529, "server"),
        (408, "server"),
        (401, "fatal"),
        (403, "fatal"),
        (404, "fatal"),
        (400, "rejected"),
        (413, "rejected"),
    ],
)
def test_status_classification(status: int, kind: str) -> None:
    failure = status_failure(status, "something", 1.5, ("effort",), {"effort": "max"}, "m")
    assert failure.kind == kind
    assert failure.transient == (kind in ("rate_limit", "server"))
    reasoning = status_failure(
        400, "Unsupported effort value", None, ("effort",), {"effort": "max"}, "m"
    )
    assert reasoning.kind == "fatal" and "rejected the reasoning setting" in reasoning.message
    assert (
        status_failure(400, "Unsupported effort value", None, ("effort",), {}, "m").kind
        == "rejected"
    )  # no reasoning sent: the document's problem


def test_limiter_halves_on_429_pauses_and_recovers() -> None:
    async def scenario() -> None:
        limiter = AdaptiveLimiter(8)
        for _ in range(8):
            await limiter.acquire()
        assert limiter.active == 8
        waiter = asyncio.create_task(limiter.acquire())
        await asyncio.sleep(0.01)
        assert not waiter.done()  # the window is full
        await limiter.throttle(0.2)
        assert limiter.window == 4.0 and limiter.throttled == 1
        for _ in range(8):
            await limiter.release(ok=False)
        clock = time.monotonic()
        await waiter  # held until the retry-after passed
        assert time.monotonic() - clock >= 0.15
        for _ in range(4):
            await limiter.release(ok=True)
        assert limiter.window == 8.0 or limiter.window > 4.0

    asyncio.run(scenario())


def test_budget_stops_admitting_once_spent() -> None:
    async def scenario() -> None:
        budget = Budget(1.0)
        assert await budget.admit(0.4) and await budget.admit(0.4)
        blocked = asyncio.create_task(budget.admit(0.4))  # 1.2 > 1.0: waits for one to end
        await asyncio.sleep(0.01)
        assert not blocked.done()
        await budget.settle(0.4, 0.1)  # 0.1 spent + 0.4 + 0.4 reserved <= 1.0
        assert await asyncio.wait_for(blocked, 1)
        await budget.settle(0.4, 0.5)
        await budget.settle(0.4, 0.5)  # 1.1 spent
        assert not await budget.admit(0.1) and budget.exhausted
        lone = Budget(1.0)  # with nothing in flight, an estimate alone never blocks
        assert await lone.admit(5.0)
        assert Budget(None).max_usd is None and await Budget(None).admit(99.0)

    asyncio.run(scenario())


def test_redactor_masks_every_copy_of_a_key_and_leaves_clean_data_alone() -> None:
    key = "sk-test-0123456789abcdef"
    redact = Redactor([key, "short"])  # a short value would mask ordinary words: ignored
    dirty = {
        "error": f"Incorrect API key provided: {key}",
        key: [1, {"echo": f"x{key}y"}],
        "n": 3,
        "short": "short",
    }
    assert redact.clean(dirty) == {
        "error": "Incorrect API key provided: [REDACTED]",
        "[REDACTED]": [1, {"echo": "x[REDACTED]y"}],
        "n": 3,
        "short": "short",
    }
    clean = {"output": {"name": "Acme"}, "ratio": 0.5}
    assert redact.clean(clean) is clean
    assert redact.clean({1: key}) == {1: "[REDACTED]"}  # not JSON: walked
    quoted = Redactor(['ab"cd\\efgh'])  # JSON would escape it: always walked
    assert quoted.clean(['ab"cd\\efgh!']) == ["[REDACTED]!"]
