"""The stub servers of `packetbench stub`: the OpenAI, Anthropic and Gemini APIs (their batch
endpoints included) on 127.0.0.1, answering from generated packets, and the environment that
points each provider's SDK at them.

Each SDK reads its endpoint and key from the environment when it is given none (as does
inspect_ai's `openai` provider), so a command run with `environment(servers)` talks to the
stubs without an option of its own, and packetbench's providers record that endpoint in
run.json (it is part of what a run is).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from packetbench.benchmark.harness.stub import StubServer
from packetbench.benchmark.harness.stub.apis import APIS
from packetbench.benchmark.harness.stub.faults import ALL, KNOWN, Faults
from packetbench.benchmark.providers.api import INPUT_MODES
from packetbench.core.errors import UsageError

# api -> (the variable its SDK reads its endpoint from, the variable its key is read from)
ENDPOINTS: dict[str, tuple[str, str]] = {
    "openai": ("OPENAI_BASE_URL", "OPENAI_API_KEY"),
    "anthropic": ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"),
    "gemini": ("GOOGLE_GEMINI_BASE_URL", "GEMINI_API_KEY"),
}
KEY = "stub-key"  # what the stubs expect as API key; no real key is sent anywhere


@dataclass(frozen=True)
class StubOptions:
    """What `packetbench stub` serves and how it misbehaves."""

    apis: tuple[str, ...] = tuple(ENDPOINTS)
    port: int = 0  # 0: free ports; else the first API on `port`, the next on port + 1, ...
    fault_rate: float = 0.0
    faults: tuple[str, ...] = ALL
    fault_seed: int = 0
    delay_s: float = 0.0
    batch_delay_s: float = 0.0
    inputs: tuple[str, ...] = ("native", "text")

    def check(self) -> None:
        """UsageError (one line) for an option out of range or a name it does not know."""
        unknown = [a for a in self.apis if a not in APIS]
        if unknown or not self.apis:
            raise UsageError(
                f"--apis: unknown API {unknown[0] if unknown else '(none)'!r}; choose from "
                f"{', '.join(ENDPOINTS)}"
            )
        if not 0 <= self.fault_rate <= 1:
            raise UsageError(f"--fault-rate must be between 0 and 1 (got {self.fault_rate})")
        bad = [f for f in self.faults if f not in KNOWN]
        if bad:
            raise UsageError(f"--faults: unknown fault {bad[0]!r}; known: {', '.join(KNOWN)}")
        if not 0 <= self.port <= 65535 - len(self.apis):
            raise UsageError(f"--port must be 0 or a free port number (got {self.port})")
        if self.delay_s < 0 or self.batch_delay_s < 0:
            raise UsageError("--delay and --batch-delay must be 0 or more seconds")
        wrong = [m for m in self.inputs if m not in INPUT_MODES]
        if wrong or not self.inputs:
            raise UsageError(
                f"--inputs: unknown input {wrong[0] if wrong else '(none)'!r}; choose from "
                f"{', '.join(INPUT_MODES)}"
            )


@contextlib.contextmanager
def serving(packets: Path, options: StubOptions) -> Iterator[dict[str, StubServer]]:
    """The stubs of `options.apis` serving `packets`, stopped when the block ends."""
    options.check()
    faults = Faults(rate=options.fault_rate, kinds=options.faults, seed=options.fault_seed)
    servers: dict[str, StubServer] = {}
    try:
        for number, api in enumerate(options.apis):
            server = StubServer(
                api,
                packets,
                faults,
                modes=options.inputs,
                delay_s=options.delay_s,
                expect_key=KEY,
                batch_delay_s=options.batch_delay_s,
                port=options.port + number if options.port else 0,
            )
            try:
                servers[api] = server.start()
            except OSError as error:
                raise UsageError(
                    f"--port: cannot listen on 127.0.0.1:{server.port} ({error.strerror})"
                ) from None
        yield servers
    finally:
        for server in servers.values():
            server.stop()


def environment(servers: dict[str, StubServer]) -> dict[str, str]:
    """The variables that point each API's SDK (and inspect_ai) at its stub, with the key the
    stubs expect."""
    found: dict[str, str] = {}
    for api, server in servers.items():
        endpoint, key = ENDPOINTS[api]
        found[endpoint] = server.base_url
        found[key] = KEY
    return found
