"""`packetbench verify`: a judge labels every claim of a run (RUN/judge/<judge_id>/)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from packetbench.cli._options import finite


def verify(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="The run folder (with run.json).")],
    judge: Annotated[
        str, typer.Option(help="The judge: sim (a simulated judge with set confusion rates).")
    ] = "sim",
    model: Annotated[str, typer.Option(help="The judge's model name.")] = "sim",
    packets: Annotated[
        Path | None,
        typer.Option(help="The packets the run was extracted from (default: run.json's)."),
    ] = None,
    batch: Annotated[int, typer.Option(help="Claims per judge request.")] = 20,
    sensitivity: Annotated[
        float,
        typer.Option(
            callback=finite,
            help="sim judge: the probability it flags a hallucinated claim (any verdict but "
            "supported) with its true verdict.",
        ),
    ] = 0.9,
    specificity: Annotated[
        float,
        typer.Option(
            callback=finite,
            help="sim judge: the probability it labels a supported claim supported (else one "
            "of the four other verdicts, uniformly).",
        ),
    ] = 0.95,
    judge_seed: Annotated[int, typer.Option(help="sim judge: the seed of its errors.")] = 0,
    calibration: Annotated[
        Path | None,
        typer.Option(
            help="A scored run this judge (same model, settings, prompt) verified: correct "
            "this run's raw hallucination rate with its sensitivity and specificity."
        ),
    ] = None,
    min_kappa: Annotated[
        float,
        typer.Option(
            callback=finite,
            help="Refuse a --calibration whose Cohen's kappa is below this.",
        ),
    ] = 0.6,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue a verify; finished requests are kept.")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Start this judge's labels of the run over.")
    ] = False,
) -> None:
    """Label every claim of RUN (each emitted value) supported, contradicted, unlinked,
    overreach or stale, with the span used; writes RUN/judge/<judge>-<model>/ and, when the
    run is scored, its judge_labels table in RUN/results.duckdb and the judge's calibration
    against the truth (calibration.json: confusion, kappa, sensitivity, specificity). With
    --calibration, the judge's raw hallucination rate (claims it labels anything but
    supported) is corrected with that calibration (estimate.json).

    Exit 0 when every claim is labelled, 2 on bad input."""
    from packetbench.benchmark.verify.judges import make_judge
    from packetbench.benchmark.verify.labelling import verify_run
    from packetbench.locking import hold

    made = make_judge(
        judge, model, sensitivity=sensitivity, specificity=specificity, seed=judge_seed
    )
    with hold(run, create=False):
        summary = verify_run(
            run,
            made,
            packets,
            batch_size=batch,
            resume=resume,
            force=force,
            calibration=calibration,
            min_kappa=min_kappa,
        )
    verdicts = ", ".join(f"{n:,} {v}" for v, n in summary.by_verdict.items()) or "none"
    typer.echo(
        f"{summary.folder}: {summary.claims:,} claims of {summary.documents:,} documents "
        f"labelled ({verdicts}); {summary.requests:,} requests, {summary.skipped:,} kept"
        + (f"; {summary.invalid:,} schema-invalid outputs not labelled" if summary.invalid else "")
    )
    if summary.calibration is not None:
        found = summary.calibration
        typer.echo(
            f"calibration against the truth ({found['claims']:,} claims, "
            f"{found['documents']:,} documents): kappa {_shown(found['kappa'])}, "
            f"sensitivity {_shown(found['sensitivity'])}, "
            f"specificity {_shown(found['specificity'])}"
        )
    if summary.estimate is not None:
        found = summary.estimate
        typer.echo(
            f"hallucination rate: raw {_shown(found['raw'])}, corrected "
            f"{_shown(found['corrected'])} (Rogan-Gladen, calibration "
            f"{found['calibration']['run']})"
        )


def _shown(found: dict[str, Any]) -> str:
    def number(value: Any) -> str:
        return "n/a" if value is None else f"{value:.3f}"

    return f"{number(found['estimate'])} [{number(found['low'])}, {number(found['high'])}]"


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
