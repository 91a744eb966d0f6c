"""`packetbench audit-tokens`: completions that came within 5 % of their output-token cap."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer


def audit_tokens(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="The run folder (with run.json).")],
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the result as JSON for scripts, nothing else.")
    ] = False,
) -> None:
    """List the completions of RUN that used 95 % or more of their output-token cap.

    Such an answer may be truncated or squeezed: raise --max-output-tokens and extract those
    documents again. Exit 0 when none came near the cap, 1 when some did, 2 on bad input.
    """
    from packetbench.benchmark.harness.token_audit import audit_tokens as audit

    result = audit(run)
    if json_output:
        typer.echo(json.dumps(result.to_json(), indent=2))
    else:
        for item in result.near:
            typer.echo(
                f"{item.packet_id}/{item.doc_id}: {item.used:,} of {item.cap:,} tokens "
                f"({item.share:.0%}), finish_reason {item.finish_reason}, "
                f"status {item.status}"
            )
        typer.echo(
            f"{run}: {len(result.near)} of {result.completions} completions came within "
            f"5% of the {result.cap:,}-token cap"
        )
    if result.near:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("audit-tokens", short_help="Completions that came near their output-token cap.")(
        audit_tokens
    )
