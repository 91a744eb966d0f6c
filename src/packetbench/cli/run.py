"""`packetbench run`: generate, audit, extract, score and report in one command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from packetbench.cli._options import SamplingSeed, Temperature, TopP, finite


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
        self.progress.console.print(
            f"{stage:<9} {summary} in {seconds:.1f} s",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


def run(
    out: Annotated[Path, typer.Option(help="The folder to work in.")] = Path("packetbench-run"),
    tiers: Annotated[str, typer.Option(help="Comma-separated tiers.")] = "N1,N2,N3,N4,N5",
    count: Annotated[int, typer.Option(help="Packets per tier.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed of each tier's first packet.")] = 1,
    provider: Annotated[str, typer.Option(help="Extraction provider (sim = simulator).")] = ("sim"),
    profile: Annotated[str, typer.Option(help="sim only: perfect, typical or sloppy.")] = (
        "typical"
    ),
    sim_seed: Annotated[int, typer.Option(help="sim only: seed of the injected errors.")] = 0,
    model: Annotated[str | None, typer.Option(help="Model, for providers that take one.")] = (None),
    reasoning: Annotated[
        str, typer.Option(help="API providers: default, high or xhigh (as for extract).")
    ] = "default",
    input_mode: Annotated[
        str, typer.Option("--input", help="API providers: native, text or images (as for extract).")
    ] = "native",
    base_url: Annotated[
        str | None,
        typer.Option(
            help="API providers: another endpoint (a proxy, an OpenAI-compatible server)."
        ),
    ] = None,
    concurrency: Annotated[
        int, typer.Option(help="API providers: requests in flight at most.")
    ] = 8,
    max_cost: Annotated[
        float | None,
        typer.Option(
            callback=finite,
            help="API providers: stop starting requests once this many dollars are spent.",
        ),
    ] = None,
    jobs: Annotated[
        int,
        typer.Option(
            help="Worker processes for generate, audit and score (or CPUs of the Ray instance "
            "started for the run)."
        ),
    ] = 1,
    executor: Annotated[
        str,
        typer.Option(help="Where generate, audit and score run: local (worker processes) or ray."),
    ] = ("local"),
    ray_address: Annotated[
        str | None, typer.Option(help="--executor ray: 'auto' or HOST:PORT of a running cluster.")
    ] = None,
    force: Annotated[bool, typer.Option(help="Replace an earlier run in the folder.")] = False,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue a stopped run in the folder: complete packets are kept, documents "
            "with a record are not requested again, scoring and the report are done again.",
        ),
    ] = False,
    cite: Annotated[
        str | None,
        typer.Option(
            help="page, box or native: ask for each value's evidence (as extract --cite); the "
            "report and the last lines give the grounding rates."
        ),
    ] = None,
    confidence: Annotated[
        bool,
        typer.Option(
            "--confidence",
            help="Ask for each value's confidence (as extract --confidence); the report "
            "gives its AUC and calibration.",
        ),
    ] = False,
    sim_calibration: Annotated[
        float,
        typer.Option(
            callback=finite,
            help="sim only, with --confidence: the share of values whose confidence knows "
            "whether the value is right.",
        ),
    ] = 0.8,
    batch: Annotated[
        bool,
        typer.Option(
            "--batch",
            help="API providers: extract through the provider's batch API (as extract --batch).",
        ),
    ] = False,
    poll_interval: Annotated[
        float,
        typer.Option(callback=finite, help="--batch: seconds between two polls of the batches."),
    ] = 30.0,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set", help="Override a tier knob (as generate --set), e.g. --set documents=sov_pdf."
        ),
    ] = None,
    ocr: Annotated[
        bool,
        typer.Option(
            "--ocr",
            help="The audit OCRs the pages without a usable text layer (as audit --ocr; needs "
            "the tesseract binary).",
        ),
    ] = False,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Generate and audit the packets, then print the documents, tokens and dollars "
            "extraction would cost and stop: nothing is sent (continue with --resume).",
        ),
    ] = False,
    timeout: Annotated[
        float | None,
        typer.Option(
            callback=finite,
            help="API providers: seconds to wait for one answer (as extract; default 600).",
        ),
    ] = None,
    retries: Annotated[
        int | None,
        typer.Option(
            help="API providers: retries per document on 429, 5xx and timeouts (as extract; "
            "default: the provider's budget)."
        ),
    ] = None,
    cache: Annotated[
        Path | None,
        typer.Option(
            help="API providers: response cache folder (as extract; default $PACKETBENCH_CACHE "
            "or ~/.cache/packetbench/responses)."
        ),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="API providers: neither read nor write the cache.")
    ] = False,
    temperature: Temperature = None,
    top_p: TopP = None,
    sampling_seed: SamplingSeed = None,
    doc_types: Annotated[
        str | None,
        typer.Option(help="Extract only documents of these types (as extract --doc-types)."),
    ] = None,
    formats: Annotated[
        str | None,
        typer.Option(help="Extract only documents in these formats (as extract --formats)."),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(help="Extract only the first N documents (as extract --limit)."),
    ] = None,
    repeats: Annotated[
        int,
        typer.Option(
            metavar="K",
            help="Extract every document K times, independently (as extract --repeats); the "
            "report shows the spread between the repeats, the last line their mean rates.",
        ),
    ] = 1,
    audit_sample: Annotated[
        str,
        typer.Option(
            metavar="N|P%|all|auto",
            help="Packets the audit reads (as audit --sample); auto: every packet up to 200, "
            "a seeded sample of 200 above.",
        ),
    ] = "auto",
) -> None:
    """The whole benchmark in one command: generate, audit, extract, score, report.

    Defaults: the canonical tiers N1..N5 (one packet each, seed 1) into ./packetbench-run,
    extracted by sim, the SIMULATED extractor (no API key needed; not a model). Exit 1 when the
    audit finds a ground-truth value that is not on its page, or no document is extracted ok.
    A run that was stopped (killed, --max-cost reached) is continued with --resume: nothing
    finished is done or paid for again.
    """
    from packetbench.benchmark.audit.sample import parse_sample
    from packetbench.benchmark.pipeline import Options, parse_tiers, run_pipeline
    from packetbench.benchmark.selection import Selection
    from packetbench.cli.extract import estimate_line, sampling_given
    from packetbench.core.progress import display
    from packetbench.generator.tiers import parse_overrides

    size = None if audit_sample == "auto" else parse_sample(audit_sample, "--audit-sample")

    options = Options(
        out,
        parse_tiers(tiers),
        count,
        seed,
        provider,
        profile,
        sim_seed,
        model,
        jobs,
        force,
        reasoning,
        input_mode,
        base_url,
        concurrency,
        max_cost,
        executor,
        ray_address,
        resume=resume,
        audit_sample=size,
        cite=cite,
        confidence=confidence,
        sim_calibration=sim_calibration,
        batch=batch,
        poll_interval_s=poll_interval,
        overrides=parse_overrides(set_ or []),
        ocr=ocr,
        dry_run=dry_run,
        timeout_s=timeout,
        retries=retries,
        cache_dir=cache,
        use_cache=not no_cache,
        selection=Selection.parse(None, doc_types, formats, limit),
        sampling=sampling_given(temperature, top_p, sampling_seed),
        repeats=repeats,
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
    app.command("run")(run)
