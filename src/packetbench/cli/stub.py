"""`packetbench stub`: local stand-ins of the OpenAI, Anthropic and Gemini APIs, answering from
generated packets, so that every API path can be tried without a key or a network."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from packetbench.cli._options import finite

if TYPE_CHECKING:
    from packetbench.benchmark.harness.stub import StubServer


def stub(
    packets: Annotated[
        Path, typer.Option(help="A packet folder, or a folder of packets, to answer from.")
    ],
    command: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="COMMAND",
            help="A command (after --) to run with the stubs' endpoints and key in its "
            "environment; the stubs stop when it ends, and its exit code is stub's. Without "
            "one, the stubs serve until Ctrl-C.",
        ),
    ] = None,
    apis: Annotated[
        str, typer.Option(help="The APIs to serve, comma-separated.")
    ] = "openai,anthropic,gemini",
    port: Annotated[
        int,
        typer.Option(
            help="0: free ports; else the first API listens on PORT, the next on PORT+1..."
        ),
    ] = 0,
    fault_rate: Annotated[
        float,
        typer.Option(
            callback=finite,
            help="Share of requests (seeded) answered with a fault instead: a 429, a 500 or "
            "503, a hang, text that is not JSON, an extra envelope, a truncated answer, a "
            "refusal.",
        ),
    ] = 0.0,
    faults: Annotated[
        str,
        typer.Option(
            help="The faults --fault-rate draws from, comma-separated (rate_limit, server_500, "
            "server_503, hang, malformed, envelope, truncated, refusal, long)."
        ),
    ] = "rate_limit,server_500,server_503,hang,malformed,envelope,truncated,refusal",
    fault_seed: Annotated[int, typer.Option(help="Seed of the faults' draw.")] = 0,
    delay: Annotated[
        float, typer.Option(callback=finite, help="Seconds each answer waits before it is sent.")
    ] = 0.0,
    batch_delay: Annotated[
        float,
        typer.Option(
            callback=finite, help="Seconds a batch takes to end after it is created (batch APIs)."
        ),
    ] = 0.0,
    inputs: Annotated[
        str,
        typer.Option(
            help="The --input modes requests may use (native, text, images; images renders "
            "every page first)."
        ),
    ] = "native,text",
) -> None:
    """Serve the OpenAI, Anthropic and Gemini APIs, their batch endpoints included, on
    127.0.0.1, answering every extraction with the document's truth (a judge's and a
    classifier's questions too), with faults on demand. For trying every API path offline:
    nothing leaves the machine and no key is needed.

    Each API's SDK, and inspect_ai's openai provider, is pointed at its stub through the
    environment (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL, and a stub key
    in OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY): given a command after --, stub
    runs it with them set; alone, it prints them as export lines and serves until Ctrl-C.
    Answers are the truth: a run against a stub measures the harness, never a model. A
    document sent as text whose pages carry no text (a scan without a text layer) is answered
    as a reader of that text can, with every value null. A request of no known document is
    refused (400) with what the stub expected and what it got."""
    import os
    import signal
    import subprocess
    import sys
    import threading

    from packetbench.benchmark.harness.stub.servers import StubOptions, environment, serving
    from packetbench.core import stopping
    from packetbench.core.errors import UsageError

    options = StubOptions(
        apis=tuple(a.strip() for a in apis.split(",") if a.strip()),
        port=port,
        fault_rate=fault_rate,
        faults=tuple(f.strip() for f in faults.split(",") if f.strip()),
        fault_seed=fault_seed,
        delay_s=delay,
        batch_delay_s=batch_delay,
        inputs=tuple(m.strip() for m in inputs.split(",") if m.strip()),
    )
    with serving(packets, options) as servers:
        variables = environment(servers)
        described = ", ".join(f"{api} {s.base_url}" for api, s in servers.items())
        if not command:
            for name, value in variables.items():
                typer.echo(f"export {name}={value}")
            typer.echo(f"stub: serving {described}; Ctrl-C stops it", err=True)
            stop = threading.Event()
            stopping.own_stops()  # Ctrl-C and SIGTERM are how a server is stopped: exit 0
            signal.signal(signal.SIGTERM, lambda *_: stop.set())
            try:
                while not stop.wait(1):
                    pass
            except KeyboardInterrupt:  # Ctrl-C is how a server is stopped: not a failure
                pass
            typer.echo(f"stub: {_answered(servers)}", err=True)
            return
        typer.echo(f"stub: serving {described}", err=True)
        try:
            done = subprocess.run(command, env={**os.environ, **variables}, check=False)
        except FileNotFoundError:
            raise UsageError(f"{command[0]}: command not found") from None
        except PermissionError:
            raise UsageError(f"{command[0]}: not an executable") from None
        typer.echo(f"stub: {_answered(servers)}", err=True)
    sys.stdout.flush()
    raise typer.Exit(done.returncode)


def _answered(servers: Mapping[str, StubServer]) -> str:
    """What the stubs answered, for stderr."""
    parts = []
    for api, server in servers.items():
        faulted = sum(1 for i in server.injected if i.fault)
        # requests it refused (400, 401) are named: each record says why
        refused = f", {len(server.rejected)} refused" if server.rejected else ""
        parts.append(
            f"{api} {sum(server.requests.values())} request(s) "
            f"({faulted} faulted, {server.batches_created} batch(es){refused})"
        )
    return "answered " + "; ".join(parts)


def register(app: typer.Typer) -> None:
    app.command(
        "stub",
        short_help="Local stand-ins of the OpenAI, Anthropic and Gemini APIs.",
        context_settings={"allow_interspersed_args": False, "ignore_unknown_options": True},
    )(stub)
