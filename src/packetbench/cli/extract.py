"""`packetbench extract`: run a provider over a folder of packets into a run folder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from packetbench.cli._options import SamplingSeed, Temperature, TopP, finite

BY_USER = ("--schema", "--schema-map")  # how a document's type was given, not classified

if TYPE_CHECKING:
    from packetbench.benchmark.harness.session import DryRun
    from packetbench.benchmark.packets import Packet
    from packetbench.benchmark.repeats import RepeatsSummary
    from packetbench.benchmark.run_folder import ExtractSummary


def extract(
    out: Annotated[Path, typer.Option(help="The run folder to write.")],
    packets: Annotated[
        Path | None, typer.Option(help="A packet folder, or a folder of packets.")
    ] = None,
    provider: Annotated[
        str, typer.Option(help="openai, anthropic, gemini, or sim (the simulator).")
    ] = "sim",
    model: Annotated[str | None, typer.Option(help="Model name (API providers).")] = None,
    reasoning: Annotated[
        str,
        typer.Option(
            help="default, high or xhigh (the provider's ceiling), mapped to each provider's own "
            "setting."
        ),
    ] = "default",
    base_url: Annotated[
        str | None,
        typer.Option(
            help="Another endpoint: a proxy, or an OpenAI-compatible server (vLLM, llama.cpp, "
            "Ollama) with --provider openai."
        ),
    ] = None,
    input_mode: Annotated[
        str,
        typer.Option(
            "--input",
            help="native (PDF files), text (PDF text layer) or images (rendered "
            "pages); workbooks and CSV always go as text.",
        ),
    ] = "native",
    max_output_tokens: Annotated[
        int | None,
        typer.Option(
            help="Output-token cap per completion, reasoning included (default: the provider's)."
        ),
    ] = None,
    concurrency: Annotated[int, typer.Option(help="Requests in flight at most.")] = 8,
    timeout: Annotated[
        float, typer.Option(callback=finite, help="Seconds to wait for one answer.")
    ] = 600.0,
    retries: Annotated[
        int | None,
        typer.Option(
            help="Retries per document on 429, 5xx and timeouts (default: the provider's budget)."
        ),
    ] = None,
    backoff: Annotated[
        float,
        typer.Option(
            callback=finite,
            help="Seconds of the first retry's backoff ceiling; it doubles per retry (up to 60 s) "
            "with full jitter.",
        ),
    ] = 1.0,
    max_cost: Annotated[
        float | None,
        typer.Option(
            callback=finite,
            help="Stop starting requests once this many dollars are spent (in-flight requests "
            "finish); exit 1.",
        ),
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Print the documents, tokens and dollars a run would cost; send "
            "and write nothing.",
        ),
    ] = False,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue a run: request only documents without a record (sim: "
            "make the same run again).",
        ),
    ] = False,
    retry_failed: Annotated[
        bool,
        typer.Option("--retry-failed", help="Request again only documents whose record is not ok."),
    ] = False,
    cache: Annotated[
        Path | None,
        typer.Option(
            help="Response cache folder (default $PACKETBENCH_CACHE or "
            "~/.cache/packetbench/responses)."
        ),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Neither read nor write the response cache.")
    ] = False,
    pricing: Annotated[
        Path | None,
        typer.Option(help="A pricing table (JSON) adding to or replacing the packaged one."),
    ] = None,
    cite: Annotated[
        str | None,
        typer.Option(
            help="page or box: ask for each value's evidence (PDF page, and with box its box; "
            "workbook sheet and cell; CSV row and column), recorded and scored. native "
            "(anthropic): the provider's own citations of each PDF page, asked in a second "
            "request per PDF document after its answer."
        ),
    ] = None,
    confidence: Annotated[
        bool,
        typer.Option(
            "--confidence",
            help="Ask for each value's confidence (0-1), recorded and scored (rank AUC "
            "against correctness, reliability curve).",
        ),
    ] = False,
    sim_calibration: Annotated[
        float,
        typer.Option(
            callback=finite,
            help="sim only, with --confidence: the share of values whose confidence knows "
            "whether the value is right (0: guesses, 1: every one).",
        ),
    ] = 0.8,
    batch: Annotated[
        bool,
        typer.Option(
            "--batch",
            help="Send the requests through the provider's batch API (openai, anthropic, "
            "gemini): half the price, answers within 24 h; --resume polls the batches a "
            "stopped run submitted.",
        ),
    ] = False,
    batch_size: Annotated[
        int | None,
        typer.Option(help="--batch: requests per batch at most (default: the provider's limit)."),
    ] = None,
    poll_interval: Annotated[
        float,
        typer.Option(callback=finite, help="--batch: seconds between two polls of the batches."),
    ] = 30.0,
    profile: Annotated[str, typer.Option(help="sim only: perfect, typical or sloppy.")] = (
        "typical"
    ),
    sim_seed: Annotated[int, typer.Option(help="sim only: seed of the injected errors.")] = 0,
    force: Annotated[bool, typer.Option(help="Replace an existing run folder.")] = False,
    temperature: Temperature = None,
    top_p: TopP = None,
    sampling_seed: SamplingSeed = None,
    tiers: Annotated[
        str | None, typer.Option(help="Extract only the packets of these tiers (comma-separated).")
    ] = None,
    doc_types: Annotated[
        str | None,
        typer.Option(help="Extract only documents of these types, e.g. sov,loss_run."),
    ] = None,
    formats: Annotated[
        str | None, typer.Option(help="Extract only documents in these formats: pdf, xlsx, csv.")
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(
            help="Extract only the first N documents left by the filters (packet, then "
            "document order); the run, its scores and --resume cover those alone."
        ),
    ] = None,
    documents: Annotated[
        Path | None,
        typer.Option(
            help="Instead of --packets: a folder of your own documents (*.pdf, *.xlsx, *.csv) "
            "without truth; the run is verified with a judge, not scored."
        ),
    ] = None,
    schema: Annotated[
        str | None,
        typer.Option(help="--documents: the schema (document type) of every document, e.g. sov."),
    ] = None,
    schema_map: Annotated[
        Path | None,
        typer.Option(
            help="--documents: a JSON object of file name -> schema; the documents neither it "
            "nor --schema types are classified by the provider (a classifier prompt)."
        ),
    ] = None,
    sim_truth: Annotated[
        Path | None,
        typer.Option(
            help="sim only, with --documents: the generated packets the documents were "
            "copied from (the simulator reads their truth; the run records none)."
        ),
    ] = None,
    repeats: Annotated[
        int,
        typer.Option(
            metavar="K",
            help="Extract every document K times, independently (sim: K derived seeds; an API: "
            "K requests, each repeat cached apart), into OUT/repeats/r1..rK, each a run; "
            "score and report OUT show the spread between them.",
        ),
    ] = 1,
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

    from packetbench.benchmark.config import HarnessOptions
    from packetbench.benchmark.extract import extract as run_extraction
    from packetbench.benchmark.packets import find_packets
    from packetbench.benchmark.providers import provider_class
    from packetbench.benchmark.providers.api import ApiProvider
    from packetbench.benchmark.repeats import check_count
    from packetbench.benchmark.selection import Selection
    from packetbench.core.errors import UsageError

    selection = Selection.parse(tiers, doc_types, formats, limit)
    check_count(repeats)
    if (packets is None) == (documents is None):
        raise UsageError("give --packets (generated packets) or --documents (your own), one")
    if documents is None and (schema or schema_map or sim_truth):
        raise UsageError("--schema, --schema-map and --sim-truth go with --documents")
    if documents is not None and repeats != 1:
        raise UsageError(
            "--repeats goes with --packets: a run of your own documents is verified by a "
            "judge, not scored, so it has no spread to show"
        )
    cls = provider_class(provider)
    if cls.simulator and model is not None:
        typer.echo(f"packetbench: note: {provider} is the simulator; it ignores --model", err=True)
    settings = {
        "profile": profile,
        "seed": sim_seed,
        "model": model,
        "reasoning": reasoning,
        "base_url": base_url,
        "input": input_mode,
        "max_output_tokens": max_output_tokens,
        "timeout": timeout,
        "retries": retries,
        "cite": cite,
        "confidence": confidence,
        "calibration": sim_calibration,
        "sampling": sampling_given(temperature, top_p, sampling_seed),
    }
    instance = cls.from_options(settings)
    options = HarnessOptions(
        resume=resume,
        retry_failed=retry_failed,
        concurrency=concurrency,
        max_cost_usd=max_cost,
        cache_dir=cache,
        use_cache=not no_cache,
        pricing=pricing,
        backoff_base_s=backoff,
        progress=True,
        batch=batch,
        poll_interval_s=poll_interval,
        batch_size=batch_size,
        selection=selection,
    )
    if dry_run:
        if documents is not None:
            raise UsageError("--dry-run is for --packets (your own documents are classified first)")
        assert packets is not None
        if not isinstance(instance, ApiProvider):
            typer.echo(f"dry run: {provider} sends nothing and costs nothing")
            return
        from packetbench.benchmark.harness.session import dry_run as estimate

        typer.echo(
            estimate_line(
                estimate(
                    instance,
                    selection.apply(find_packets(packets), str(packets)),
                    packets,
                    out,
                    options,
                ),
                provider,
            )
            + (f" (per repeat; --repeats {repeats} asks {repeats} times)" if repeats > 1 else "")
        )
        return
    label = " (SIMULATED extractor, not a model)" if cls.simulator else ""
    who = (
        provider
        if not isinstance(instance, ApiProvider)
        else (f"{provider} {instance.model} (reasoning {instance.settings.reasoning})")
    )
    summary: ExtractSummary | RepeatsSummary
    if documents is not None:
        from packetbench.benchmark.own_extract import extract_documents

        own = extract_documents(
            instance,
            documents,
            out,
            schema=schema,
            schema_map=schema_map,
            sim_truth=sim_truth,
            force=force,
            options=options,
        )
        summary = own.extract
        done = [summary]
        if own.classified:
            typer.echo(_classified(documents, own.packet, own.classified))
    elif repeats == 1:
        assert packets is not None
        summary = run_extraction(instance, packets, out, force=force, options=options)
        done = [summary]
    else:
        from packetbench.benchmark.repeats import extract_repeats, repeat_settings

        assert packets is not None

        summary = extract_repeats(
            lambda index: cls.from_options(repeat_settings(settings, index)),
            packets,
            out,
            repeats,
            force,
            options,
        )
        done = summary.repeats
    for one in done:
        statuses = ", ".join(f"{n:,} {s}" for s, n in one.by_status.items()) or "none"
        typer.echo(
            f"{one.run}: {one.written:,} of {one.documents:,} documents written "
            f"[{statuses}] by {who}{label}"
        )
        if isinstance(instance, ApiProvider):
            typer.echo(_this_run(one))
    if repeats > 1:
        statuses = ", ".join(f"{n:,} {s}" for s, n in summary.by_status.items()) or "none"
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
        if cls.simulator
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


def sampling_given(
    temperature: float | None, top_p: float | None, seed: int | None
) -> dict[str, float | int]:
    """The sampling parameters given (`ApiSettings.sampling`), for extract and run alike."""
    given = {"temperature": temperature, "top_p": top_p, "seed": seed}
    return {key: value for key, value in given.items() if value is not None}


def _this_run(summary: ExtractSummary) -> str:
    skipped = f", {summary.skipped} finished before" if summary.skipped else ""
    batches = f"{summary.batches} batch(es) created, " if summary.batches else ""
    return (
        f"this run: {summary.requested} document(s) to extract{skipped}; "
        f"{batches}{summary.requests} request(s), {summary.retries} retr"
        f"{'y' if summary.retries == 1 else 'ies'}, {summary.cached} from the cache; "
        f"${summary.cost_usd:,.4f} spent"
    )


def estimate_line(plan: DryRun, provider: str) -> str:
    """The dry run's line: documents, tokens and dollars (`run --dry-run` prints it too)."""
    head = (
        f"dry run: {plan.requested:,} of {plan.documents:,} documents would be sent to "
        f"{provider} {plan.model}: ~{plan.input_tokens:,} input tokens, "
        f"~{plan.output_tokens:,} output tokens for perfect answers (reasoning not "
        "included)"
    )
    if plan.cost_usd is None or plan.ceiling_usd is None:
        return f"{head}; no price for {plan.model!r} in the pricing table (see --pricing)"
    return (
        f"{head}; estimated ${plan.cost_usd:,.2f}, at most ${plan.ceiling_usd:,.2f} if "
        f"every completion used its {plan.cap:,}-token cap"
    )


def register(app: typer.Typer) -> None:
    app.command("extract")(extract)
