"""`packetbench extract`: run a provider over a folder of packets into a run folder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from packetbench.cli import _options as _o

BY_USER = ("--schema", "--schema-map")  # how a document's type was given, not classified

if TYPE_CHECKING:
    from packetbench.benchmark.harness.session import DryRun
    from packetbench.benchmark.run_folder import ExtractSummary
    from packetbench.truth.packets import Packet


def extract(
    out: Annotated[Path, typer.Option(help="The run folder to write.")],
    resume: _o.Resume = False,
    retry_failed: Annotated[
        bool,
        typer.Option("--retry-failed", help="Request again only documents whose record is not ok."),
    ] = False,
    force: _o.Force = False,
    packets: _o.Packets = None,
    documents: Annotated[
        Path | None,
        typer.Option(
            help="Instead of --packets: a folder of your own documents (*.pdf, *.xlsx, *.csv) "
            "without truth; the run is verified with a judge, not scored.",
            rich_help_panel=_o.PACKETS,
        ),
    ] = None,
    schema: Annotated[
        str | None,
        typer.Option(
            help="--documents: the schema (document type) of every document, e.g. sov.",
            rich_help_panel=_o.PACKETS,
        ),
    ] = None,
    schema_map: Annotated[
        Path | None,
        typer.Option(
            help="--documents: a JSON object of file name -> schema; the documents neither it "
            "nor --schema types are classified by the provider (a classifier prompt).",
            rich_help_panel=_o.PACKETS,
        ),
    ] = None,
    sim_truth: Annotated[
        Path | None,
        typer.Option(
            help="sim only, with --documents: the generated packets the documents were "
            "copied from (the simulator reads their truth; the run records none).",
            rich_help_panel=_o.PACKETS,
        ),
    ] = None,
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
    tiers: _o.Tiers = None,
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
) -> None:
    """Extract every document of the packets into a run folder (one record per document).

    API keys come from the environment only (OPENAI_API_KEY, ANTHROPIC_API_KEY,
    GEMINI_API_KEY or GOOGLE_API_KEY) and are never written anywhere.

    Exit 0 when the run is complete (the last line counts the documents that failed, if any),
    1 when every document failed or --max-cost stopped it, 2 on bad usage or when the provider
    refuses every request (bad key, unknown model, refused reasoning level).
    """
    # Imported here so `packetbench --help` and other commands start fast.
    import sys

    from packetbench.benchmark import extraction
    from packetbench.benchmark.providers import PROVIDERS
    from packetbench.benchmark.repeats import RepeatsSummary
    from packetbench.core.errors import UsageError

    config = _o.extraction_config(
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
        tiers=tiers,
        doc_types=doc_types,
        formats=formats,
        limit=limit,
        repeats=repeats,
    )
    if (packets is None) == (documents is None):
        raise UsageError("give --packets (generated packets) or --documents (your own), one")
    if documents is None and (schema or schema_map or sim_truth):
        raise UsageError("--schema, --schema-map and --sim-truth go with --documents")
    if documents is not None and repeats != 1:
        raise UsageError(
            "--repeats goes with --packets: a run of your own documents is verified by a "
            "judge, not scored, so it has no spread to show"
        )
    simulator = config.simulator
    if simulator and model is not None:
        typer.echo(f"packetbench: note: {provider} is the simulator; it ignores --model", err=True)
    if dry_run:
        if documents is not None:
            raise UsageError("--dry-run is for --packets (your own documents are classified first)")
        assert packets is not None
        estimate = extraction.estimate_run(
            config, packets, out, resume=resume, retry_failed=retry_failed
        )
        if estimate is None:
            typer.echo(f"dry run: {provider} sends nothing and costs nothing")
            return
        typer.echo(
            estimate_line(estimate, provider)
            + (f" (per repeat; --repeats {repeats} asks {repeats} times)" if repeats > 1 else "")
        )
        return
    label = " (SIMULATED extractor, not a model)" if simulator else ""
    who = provider if simulator else f"{provider} {model or ''} (reasoning {reasoning})"
    if provider == "command":
        who = f"command {command!r}"
    elif provider == "http":
        from packetbench.benchmark.providers.http import shown_url

        who = f"http {shown_url(url or '')}"
    elif provider not in PROVIDERS:
        who = f"{provider} (a plug-in provider)"
    summary: ExtractSummary | RepeatsSummary
    if documents is not None:
        own = extraction.extract_own(
            config,
            documents,
            out,
            schema=schema,
            schema_map=schema_map,
            sim_truth=sim_truth,
            force=force,
            resume=resume,
            retry_failed=retry_failed,
            progress=True,
        )
        summary = own.extract
        done = [summary]
        if own.classified:
            typer.echo(_classified(documents, own.packet, own.classified))
    else:
        assert packets is not None
        summary = extraction.extract_run(
            config,
            packets,
            out,
            force=force,
            resume=resume,
            retry_failed=retry_failed,
            progress=True,
        )
        done = summary.repeats if isinstance(summary, RepeatsSummary) else [summary]
    for one in done:
        statuses = ", ".join(f"{n:,} {s}" for s, n in one.statuses.items()) or "none"
        typer.echo(
            f"{one.run}: {one.written:,} of {one.documents:,} documents written "
            f"[{statuses}] by {who}{label}"
        )
        if not simulator:
            typer.echo(_this_run(one))
    if repeats > 1:
        statuses = ", ".join(f"{n:,} {s}" for s, n in summary.statuses.items()) or "none"
        typer.echo(
            f"{out}: {len(done)} of {repeats} repeats, {summary.written:,} of "
            f"{summary.documents:,} documents written [{statuses}]; score it with "
            f"packetbench score {out} --packets {packets}"
        )
    if summary.stopped == "max-cost":
        typer.echo(
            f"packetbench: stopped: --max-cost ${max_cost:,.2f} reached; "
            f"{summary.not_started} document(s) not requested (continue with --resume "
            "and a higher --max-cost)",
            err=True,
        )
        sys.exit(1)
    failed = summary.failures
    if not failed:
        return
    how = ", ".join(f"{n:,} {status}" for status, n in failed.items())
    again = (
        "the simulator injected them"
        if simulator
        else "request them again with --resume --retry-failed"
    )
    if summary.ok == 0:
        typer.echo(
            f"packetbench: failed: every one of the {summary.documents:,} documents failed "
            f"[{how}]; nothing can be scored (each record says why; {again})",
            err=True,
        )
        sys.exit(1)
    typer.echo(
        f"{sum(failed.values()):,} of {summary.documents:,} documents failed [{how}]: the "
        f"scores exclude them ({again})"
    )


def _classified(folder: Path, packet: Packet, classified: int) -> str:
    """The line of a run of one's own documents whose types a classifier chose."""
    own = packet.own or {}
    how = own.get("chosen_by") or {}
    kinds = {d.doc_type for d in packet.documents if how.get(d.doc_id) not in BY_USER}
    about = own.get("classifier") or {}
    who = (
        "the sim classifier"
        if about.get("provider") == "sim"
        else f"{about.get('provider')} {about.get('model')}"
    )
    return (
        f"{folder}: {classified} document(s) classified by {who} into {len(kinds)} type(s) "
        "(run.json lists each document's)"
    )


def _this_run(summary: ExtractSummary) -> str:
    skipped = f", {summary.skipped} finished before" if summary.skipped else ""
    batches = f"{summary.batches} batch(es) created, " if summary.batches else ""
    return (
        f"this run: {summary.requested} document(s) to extract{skipped}; "
        f"{batches}{summary.requests} request(s), {summary.retries} retr"
        f"{'y' if summary.retries == 1 else 'ies'}, {summary.cached} from the cache; "
        f"${summary.cost_usd:,.4f} spent"
    )


def estimate_line(estimate: DryRun, provider: str) -> str:
    """The dry run's line: documents, tokens and dollars (`run --dry-run` prints it too)."""
    from packetbench.benchmark.providers import api_providers

    if provider not in api_providers():  # a system of one's own: no prompt, no tokens to count
        how = "run through" if provider != "http" else "sent to"
        return (
            f"dry run: {estimate.requested:,} of {estimate.documents:,} documents would be {how} "
            f"{estimate.model}; your system reports its own cost, so there is nothing to "
            "estimate"
        )
    head = (
        f"dry run: {estimate.requested:,} of {estimate.documents:,} documents would be sent to "
        f"{provider} {estimate.model}: ~{estimate.input_tokens:,} input tokens, "
        f"~{estimate.output_tokens:,} output tokens for perfect answers (reasoning not "
        "included)"
    )
    if estimate.cost_usd is None or estimate.ceiling_usd is None:
        return f"{head}; no price for {estimate.model!r} in the pricing table (see --pricing)"
    return (
        f"{head}; estimated ${estimate.cost_usd:,.2f}, at most ${estimate.ceiling_usd:,.2f} if "
        f"every completion used its {estimate.cap:,}-token cap"
    )


def register(app: typer.Typer) -> None:
    app.command("extract", short_help="Send every document to a model, or to the simulator.")(
        extract
    )
