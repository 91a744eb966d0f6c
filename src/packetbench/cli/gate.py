"""`packetbench gate`: fail (exit 1) when a run breaks any rule of a rules file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer


def gate(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="The scored run folder to check.")],
    rules: Annotated[Path, typer.Option(help="A TOML file of \\[\\[rule]] tables.")],
    baseline: Annotated[
        Path | None,
        typer.Option(help="A scored run to check `no_regression` rules against.", metavar="RUN"),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = (
        False
    ),
) -> None:
    """Check RUN against a rules file; exit 1 when a rule is breached.

    Rules: maximum or minimum rates (overall or for every slice, the worst deciding), and no
    significant regression against --baseline.

    Exit 0 when every rule holds, 1 when any is breached (they are listed), 2 on bad input.

    \b
    \\[\\[rule]]
    metric = "halluc_numbers"    # any rate of `SELECT * FROM catalog`
    max = 0.03                   # or min
    per = "tier"                 # optional: tier, doc_type, format, kind, field_class, pattern
    statistic = "micro"          # micro, macro, upper or lower (95 % interval bound)
    \\[\\[rule]]
    no_regression = ["halluc_numbers", "halluc_strings"]
    alpha = 0.05
    """
    from packetbench.benchmark.report.gate import run_gate

    result = run_gate(run, rules, baseline)
    if json_output:
        typer.echo(
            json.dumps(
                {
                    "run": result.run,
                    "baseline": result.baseline,
                    "passed": result.passed,
                    "rules": [
                        {
                            "rule": r.rule.name,
                            "passed": r.passed,
                            "observed": r.observed,
                            "details": r.details,
                        }
                        for r in result.results
                    ],
                },
                indent=2,
            )
        )
    else:
        for r in result.results:
            typer.echo(f"{'PASS' if r.passed else 'FAIL'}  {r.rule.name}: {r.observed}")
            for line in r.details:
                typer.echo(f"      {line}")
        breached = [r for r in result.results if not r.passed]
        typer.echo(
            f"gate {'passed' if not breached else 'FAILED'}: "
            f"{len(result.results) - len(breached)} of {len(result.results)} rules hold"
            + (f"; breached: {', '.join(r.rule.name for r in breached)}" if breached else "")
        )
    if not result.passed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("gate", short_help="Fail CI when a run breaks a rule.")(gate)
