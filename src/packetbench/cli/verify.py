"""`packetbench verify`: a judge labels every claim of a run (RUN/judge/<judge_id>/)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from packetbench.benchmark.providers import api_providers, listed
from packetbench.cli import _options as _o

if TYPE_CHECKING:
    from packetbench.benchmark.verify.labelling import VerifySummary


def verify(
    run: Annotated[Path, typer.Argument(metavar="RUN", help="The run folder (with run.json).")],
    judge: Annotated[
        str,
        typer.Option(
            help=f"Who judges: {listed(api_providers(), False)} (a model; --base-url for another "
            "endpoint), or sim (a simulated judge with set confusion rates)."
        ),
    ] = "sim",
    model: _o.Model = None,
    packets: Annotated[
        Path | None,
        typer.Option(
            help="The packets the run was extracted from (default: the folder run.json names)."
        ),
    ] = None,
    claims_per_request: Annotated[
        int, typer.Option(help="Claims per judge request (each request is one document's).")
    ] = 20,
    input_mode: _o.InputMode = "native",
    reasoning: _o.Reasoning = "default",
    base_url: _o.BaseUrl = None,
    max_output_tokens: _o.MaxOutputTokens = None,
    concurrency: _o.Concurrency = 8,
    timeout: _o.Timeout = 600.0,
    retries: _o.Retries = None,
    backoff: _o.Backoff = 1.0,
    max_cost: _o.MaxCost = None,
    cache: _o.Cache = None,
    no_cache: _o.NoCache = False,
    pricing: _o.Pricing = None,
    temperature: _o.Temperature = None,
    top_p: _o.TopP = None,
    sampling_seed: _o.SamplingSeed = None,
    sensitivity: Annotated[
        float,
        typer.Option(
            callback=_o.finite,
            help="sim judge: the probability it flags a hallucinated claim (any verdict but "
            "supported) with its true verdict.",
        ),
    ] = 0.9,
    specificity: Annotated[
        float,
        typer.Option(
            callback=_o.finite,
            help="sim judge: the probability it labels a supported claim supported (else one "
            "of the four other verdicts, uniformly).",
        ),
    ] = 0.95,
    judge_seed: Annotated[int, typer.Option(help="sim judge: the seed of its errors.")] = 0,
    judge_truth: Annotated[
        Path | None,
        typer.Option(
            help="sim judge on a run of your own documents: the generated packets they were "
            "copied from (the simulated judge reads their truth; the run records none)."
        ),
    ] = None,
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
            callback=_kappa,
            help="Refuse a --calibration whose Cohen's kappa is below this (-1 to 1).",
        ),
    ] = 0.6,
    resume: _o.Resume = False,
    force: _o.Force = False,
) -> None:
    """Label every claim of RUN (each emitted value) supported, contradicted, unlinked,
    overreach or stale, with the span used; writes RUN/judge/<judge>-<model>/ and, when the
    run is scored, its judge_labels table in RUN/results.duckdb and the judge's calibration
    against the truth (calibration.json: confusion, kappa, sensitivity, specificity). With
    --calibration, the judge's raw hallucination rate (claims it labels anything but
    supported) is corrected with that calibration (estimate.json). Model judges' keys come
    from the environment, as extract's do; the sim judge's model is `sim` unless named.

    Exit 0 when every claim is labelled, 1 when requests failed or --max-cost stopped it
    (continue with --resume), 2 on bad input or when the provider refuses every request."""
    from packetbench.benchmark.providers.api import ProviderStopped
    from packetbench.benchmark.verify.judges import make_judge
    from packetbench.benchmark.verify.labelling import verify_run
    from packetbench.core.locking import hold

    made = make_judge(
        judge,
        _o.model_options(
            model=model,
            reasoning=reasoning,
            input_mode="native" if input_mode == "pdf" else input_mode,
            base_url=base_url,
            max_output_tokens=max_output_tokens,
            timeout=timeout,
            retries=retries,
            backoff=backoff,
            concurrency=concurrency,
            max_cost=max_cost,
            cache=cache,
            no_cache=no_cache,
            pricing=pricing,
            temperature=temperature,
            top_p=top_p,
            sampling_seed=sampling_seed,
        ),
        sensitivity=sensitivity,
        specificity=specificity,
        seed=judge_seed,
        truth=judge_truth,
        progress=True,
    )
    with hold(run, create=False):
        summary = verify_run(
            run,
            made,
            packets,
            batch_size=claims_per_request,
            resume=resume,
            force=force,
            calibration=calibration,
            min_kappa=min_kappa,
            progress=True,
        )
    labelled = summary.labelled
    if labelled is not None and labelled.fatal:
        answered = summary.batches - sum((summary.unanswered or {}).values())
        raise ProviderStopped(
            f"{labelled.fatal} (the verify stopped with {answered} of {summary.batches} "
            "requests answered; continue with --resume once fixed)"
        )
    typer.echo(_labelled_line(summary))
    if not summary.complete:
        failed = ", ".join(f"{n:,} {s}" for s, n in (summary.unanswered or {}).items())
        why = (
            "--max-cost reached"
            if labelled is not None and labelled.stopped == "max-cost"
            else "their requests failed; each record says why"
        )
        typer.echo(
            f"packetbench: incomplete: {sum((summary.unanswered or {}).values()):,} of "
            f"{summary.batches:,} requests unanswered [{failed}] ({why}); no rate is computed "
            "from part of the claims: continue with --resume",
            err=True,
        )
        sys.exit(1)
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
    elif summary.truthless:
        typer.echo(
            f"{run}: a run of your own documents: give --calibration CAL_RUN (a scored run "
            "this judge verified) to estimate its hallucination rate"
        )


def _labelled_line(summary: VerifySummary) -> str:
    verdicts = ", ".join(f"{n:,} {v}" for v, n in summary.by_verdict.items()) or "none"
    line = (
        f"{summary.folder}: {summary.claims:,} claims of {summary.documents:,} documents "
        f"labelled ({verdicts}); {summary.requests:,} requests"
    )
    if summary.skipped:  # batches a killed or earlier verify finished: not asked again
        line += f", {summary.skipped:,} kept from an earlier pass"
    labelled = summary.labelled
    if labelled is not None and (labelled.sent or labelled.cached):
        line += (
            f" ({labelled.sent:,} sent, {labelled.retries:,} retries, {labelled.cached:,} from "
            f"the cache; ${labelled.spent_usd:,.4f} spent)"
        )
    if summary.invalid:
        line += f"; {summary.invalid:,} schema-invalid outputs not labelled"
    return line


def _kappa(value: float) -> float:
    """--min-kappa: a finite number a kappa can be (-1 to 1), checked whether or not a
    calibration is given."""
    _o.finite(value)
    if not -1.0 <= value <= 1.0:
        raise typer.BadParameter(f"{value:g} is not a kappa (-1 to 1)")
    return value


def _shown(found: dict[str, Any]) -> str:
    """An estimate, its 95 % interval and the interval's width (how much it is worth)."""

    def number(value: Any) -> str:
        return "n/a" if value is None else f"{value:.3f}"

    low, high = found["low"], found["high"]
    width = "n/a" if low is None or high is None else f"{high - low:.3f}"
    return f"{number(found['estimate'])} [{number(low)}, {number(high)}] (width {width})"


def register(app: typer.Typer) -> None:
    app.command("verify", short_help="Label every claim with a judge, calibrated on the truth.")(
        verify
    )
