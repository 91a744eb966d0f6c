"""`packetbench run`: generate, audit, extract, score and report in one command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from packetbench.cli import _options as _o

# run's own panels of --help, beside the extraction options' (`_options`)
AUDIT = "Audit"
WORKERS = "Workers (generate, audit, score)"


class _Display:
    """Stage lines on stdout as each stage ends; a live progress bar on a terminal's stderr."""

    def __init__(self, progress: Any) -> None:
        self.progress = progress
        self.tasks: dict[str, Any] = {}

    def start(self, stage: str, total: int | None) -> None:
        self.tasks[stage] = self.progress.add_task(stage, total=total)

    def advance(self, stage: str, completed: int) -> None:
        self.progress.update(self.tasks[stage], completed=completed)

    def finish(self, stage: str, summary: str, seconds: float) -> None:
        task = self.tasks[stage]
        total = self.progress.tasks[task].total
        self.progress.update(
            task,
            completed=total if total is not None else 1,
            total=total if total is not None else 1,
        )
        # A summary of several lines (what the audit did not check, and how to check it)
        # keeps its time on its first line and its other lines under it.
        first, *rest = summary.split("\n")
        self.progress.console.print(
            "\n".join([f"{stage:<9} {first} in {seconds:.1f} s", *(f"{'':<9} {r}" for r in rest)]),
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


def run(
    out: Annotated[Path, typer.Option(help="The folder to work in.")] = Path("packetbench-run"),
    resume: _o.Resume = False,
    force: _o.Force = False,
    tiers: Annotated[
        str | None,
        typer.Option(
            help="Generate packets of these tiers, comma-separated, e.g. N1,N3 (default: N1 to "
            "N5).",
            rich_help_panel=_o.PACKETS,
        ),
    ] = None,
    count: Annotated[int, typer.Option(help="Packets per tier.", rich_help_panel=_o.PACKETS)] = 1,
    seed: Annotated[
        int, typer.Option(help="Seed of each tier's first packet.", rich_help_panel=_o.PACKETS)
    ] = 1,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="Override a tier knob (as generate --set), e.g. --set documents=sov_pdf.",
            rich_help_panel=_o.PACKETS,
        ),
    ] = None,
    ocr: Annotated[
        bool,
        typer.Option(
            "--ocr",
            help="The audit OCRs the pages without a usable text layer (as audit --ocr; needs "
            "the tesseract binary).",
            rich_help_panel=AUDIT,
        ),
    ] = False,
    audit_sample: Annotated[
        str,
        typer.Option(
            metavar="N|P%|all|auto",
            help="Packets the audit reads (as audit --sample); auto: every packet up to 200, "
            "a seeded sample of 200 above.",
            rich_help_panel=AUDIT,
        ),
    ] = "auto",
    ocr_sample: Annotated[
        str,
        typer.Option(
            metavar="N|P%|all|auto",
            help="With --ocr: audited packets OCR reads (as audit --ocr-sample); auto: all "
            "up to 100, a seeded sample of 100 above.",
            rich_help_panel=AUDIT,
        ),
    ] = "auto",
    provider: _o.Provider = "sim",
    model: _o.Model = None,
    reasoning: _o.Reasoning = "default",
    input_mode: _o.InputMode = "native",
    dpi: _o.Dpi = None,
    delivered_dpi: _o.DeliveredDpi = None,
    base_url: _o.BaseUrl = None,
    command: _o.Command = None,
    system_version: _o.SystemVersion = None,
    url: _o.Url = None,
    header: _o.Header = None,
    profile: _o.Profile = "typical",
    sim_seed: _o.SimSeed = 0,
    sim_calibration: _o.SimCalibration = 0.8,
    doc_types: _o.DocTypes = None,
    formats: _o.Formats = None,
    limit: _o.Limit = None,
    repeats: _o.Repeats = 1,
    cite: _o.Cite = None,
    confidence: _o.Confidence = False,
    max_cost: _o.MaxCost = None,
    dry_run: _o.DryRun = False,
    cache: _o.Cache = None,
    no_cache: _o.NoCache = False,
    pricing: _o.Pricing = None,
    max_output_tokens: _o.MaxOutputTokens = None,
    concurrency: _o.Concurrency = 8,
    timeout: _o.Timeout = 600.0,
    retries: _o.Retries = None,
    backoff: _o.Backoff = 1.0,
    temperature: _o.Temperature = None,
    top_p: _o.TopP = None,
    sampling_seed: _o.SamplingSeed = None,
    batch: _o.Batch = False,
    batch_size: _o.BatchSize = None,
    poll_interval: _o.PollInterval = 30.0,
    jobs: Annotated[
        int,
        typer.Option(
            help="Worker processes for generate, audit and score (or CPUs of the Ray instance "
            "started for the run).",
            rich_help_panel=WORKERS,
        ),
    ] = 1,
    executor: Annotated[
        str,
        typer.Option(
            help="Where generate, audit and score run: local (worker processes) or ray.",
            rich_help_panel=WORKERS,
        ),
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(
            help="--executor ray: 'auto' or HOST:PORT of a running cluster.",
            rich_help_panel=WORKERS,
        ),
    ] = None,
) -> None:
    """The whole benchmark in one command: generate, audit, extract, score, report.

    Defaults: the canonical tiers N1..N5 (one packet each, seed 1) into ./packetbench-run,
    extracted by sim, the SIMULATED extractor (no API key needed; not a model). Exit 1 when the
    audit finds a ground-truth value that is not on its page, or no document is extracted ok.
    A run that was stopped (killed, --max-cost reached) is continued with --resume: nothing
    finished is done or paid for again.
    """
    from packetbench.audit.sample import parse_sample
    from packetbench.benchmark.pipeline import Options, run_pipeline
    from packetbench.cli.extract import estimate_line
    from packetbench.core.codes import TIERS, parse_tiers
    from packetbench.core.progress import display
    from packetbench.generator.tiers import parse_overrides

    size = None if audit_sample == "auto" else parse_sample(audit_sample, "--audit-sample")
    ocr_size = None if ocr_sample == "auto" else parse_sample(ocr_sample, "--ocr-sample")
    extraction = _o.extraction_config(
        provider=provider,
        api=_o.model_options(
            model=model,
            reasoning=reasoning,
            input_mode=input_mode,
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
            dpi=dpi,
            delivered_dpi=delivered_dpi,
            command=command,
            system_version=system_version,
            url=url,
            header=header,
        ),
        cite=cite,
        confidence=confidence,
        profile=profile,
        sim_seed=sim_seed,
        sim_calibration=sim_calibration,
        batch=batch,
        batch_size=batch_size,
        poll_interval=poll_interval,
        tiers=None,  # run's --tiers are the tiers it generates: every document is extracted
        doc_types=doc_types,
        formats=formats,
        limit=limit,
        repeats=repeats,
    )
    options = Options(
        out,
        parse_tiers(tiers) if tiers is not None else TIERS,
        count,
        seed,
        extraction,
        jobs,
        force,
        executor,
        ray_address,
        audit_sample=size,
        resume=resume,
        overrides=parse_overrides(set_ or []),
        ocr=ocr,
        ocr_sample=ocr_size,
        dry_run=dry_run,
    )
    progress = display("[bold]{task.description:<9}", spinner=True, to_stdout=True)

    def say(text: str) -> None:
        progress.console.print(text, markup=False)

    say(
        f"packetbench run: {', '.join(options.tiers)} x {count} packet(s) from seed "
        f"{seed} into {out}, extracted by {provider}"
        + (" (SIMULATED extractor, not a model)" if provider == "sim" else "")
        + (", continued (--resume)" if resume else "")
    )
    with progress:
        outcome = run_pipeline(options, _Display(progress))
    if not outcome.audit_ok:
        say("stopped: the audit failed, so nothing was extracted or scored")
        raise typer.Exit(1)
    if outcome.stopped:
        say(f"stopped: {outcome.stopped}")
        raise typer.Exit(1)
    if dry_run:
        say(
            estimate_line(outcome.estimate, provider)
            + (f" (per repeat; --repeats {repeats} asks {repeats} times)" if repeats > 1 else "")
            if outcome.estimate is not None
            else f"dry run: {outcome.documents:,} documents; {provider} sends nothing and "
            "costs nothing"
        )
        say("nothing was extracted; continue with the same options and --resume")
        return
    rates = outcome.headline

    def pct(metric: str) -> str:
        value = rates.get(metric)
        return "–" if value is None else f"{value * 100:.2f} %"

    say(
        (
            "hallucination rate"
            if repeats == 1
            else f"hallucination rate (mean of {repeats} repeats)"
        )
        + f": numbers {pct('halluc_numbers')}, strings "
        f"{pct('halluc_strings')}; faithfulness {pct('faithfulness')}"
        + (" (SIMULATED extractor)" if provider == "sim" else "")
    )
    if outcome.spread:
        from packetbench.benchmark.report.spread import one_line

        say(one_line(outcome.run, outcome.spread))
    if cite is not None:
        ground = outcome.grounding

        def share(metric: str) -> str:
            value = ground.get(metric)
            return "–" if value is None else f"{value * 100:.2f} %"

        precision = f"page {share('citation_precision_page')}"
        if cite == "box":
            precision += f", box {share('citation_precision_box')}"
        say(
            f"grounding: citation recall {share('citation_recall')}; citation precision "
            f"{precision}; grounding F1 (value >= page{' >= box' if cite == 'box' else ''}) "
            + " >= ".join(
                share(f"grounding_f1_{level}")
                for level in ("value", "page", "box")[: 3 if cite == "box" else 2]
            )
        )
    say(f"report: {outcome.report}")


def register(app: typer.Typer) -> None:
    app.command("run", short_help="Generate, audit, extract, score and report in one go.")(run)
