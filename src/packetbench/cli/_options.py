"""The options commands share, each declared once with one help text (a helper module: the
command loader skips `_` names).

`extract` and `run` take the same extraction options and build the same `ExtractionConfig`
from them (`extraction_config`); `verify`'s model judges take the model options among them
(`model_options`). An option name means one thing in every command (tests/cli/
test_vocabulary.py holds it): its type, default and help are the ones declared here, and its
help names no other command than the one it is shown for. Each option belongs to a panel of
`--help` by what it is about (`MODEL`, `REQUESTS`...), the same in every command.

Every number option of every command is parsed by typer as a float, which accepts ``nan``
and ``inf``; a NaN compares false with everything, so ``--max-cost nan`` would be a cost cap
that never stops a run. Each float option therefore takes `finite` as its callback.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from packetbench.benchmark.providers import listed

if TYPE_CHECKING:
    from packetbench.benchmark.config import ExtractionConfig, ModelOptions


def finite(value: float | None) -> float | None:
    """typer callback of a float option: the value, or a usage error when it is NaN or
    infinite (exit 2, one line naming the option)."""
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number")
    return value


# The panels of `--help` the shared options are shown in, by what they are about.
PACKETS = "Packets"
MODEL = "Model"
SIMULATOR = "Simulator (--provider sim)"
COMMAND = "Your own system (--provider command, http)"
DOCUMENTS = "Which documents"
ASKED = "What is asked for"
REQUESTS = "Requests"
BATCH = "Batch API"
COST = "Cost and cache"

# -- where the documents are ---------------------------------------------------------------------

Packets = Annotated[
    Path | None,
    typer.Option(
        help="The packets to extract: a packet folder, or a folder of packets.",
        rich_help_panel=PACKETS,
    ),
]

PacketFolders = Annotated[
    list[Path] | None,
    typer.Option(
        "--packets",
        show_default=False,
        help="A packet folder, or a folder of packets (repeat for more).",
    ),
]


def packet_folders(command: str, given: list[Path] | None) -> list[Path]:
    """The packet folders of `command` (audit, difficulty), or UsageError when none is given."""
    from packetbench.core.errors import UsageError

    if not given:
        raise UsageError(f"{command}: give the packet folders with --packets")
    return given


# -- who extracts ---------------------------------------------------------------------------------

Provider = Annotated[str, typer.Option(help=f"Who extracts: {listed()}.", rich_help_panel=MODEL)]
Profile = Annotated[
    str,
    typer.Option(
        help="sim: its error profile, perfect, typical or sloppy.", rich_help_panel=SIMULATOR
    ),
]
SimSeed = Annotated[
    int, typer.Option(help="sim: the seed of the errors it injects.", rich_help_panel=SIMULATOR)
]
SimCalibration = Annotated[
    float,
    typer.Option(
        callback=finite,
        help="sim, with --confidence: the share of values whose confidence knows whether the "
        "value is right (0: guesses, 1: every one).",
        rich_help_panel=SIMULATOR,
    ),
]

# -- how a model is asked (extract, run, verify's model judges) ------------------------------------

Model = Annotated[
    str | None,
    typer.Option(help="The model's name, as its provider spells it.", rich_help_panel=MODEL),
]
Reasoning = Annotated[
    str,
    typer.Option(
        help="default, high or xhigh (the provider's ceiling), mapped to each provider's own "
        "setting.",
        rich_help_panel=MODEL,
    ),
]
InputMode = Annotated[
    str,
    typer.Option(
        "--input",
        help="How a document is sent: native (the PDF itself), text (its text layer) or images "
        "(rendered pages); workbooks and CSV always go as text.",
        rich_help_panel=MODEL,
    ),
]
Dpi = Annotated[
    int | None,
    typer.Option(
        "--dpi",
        help="--input images: the resolution pages are rendered at, a rung of 72, 90, 96, 110, "
        "150, 200, 300 (default 150); the run is scored at it (docs/resolution.md).",
        rich_help_panel=MODEL,
    ),
]
DeliveredDpi = Annotated[
    int | None,
    typer.Option(
        "--delivered-dpi",
        help="--input native: the resolution the provider rasterises a page at, a rung as for "
        "--dpi (default: its documented size, recorded as an assumption).",
        rich_help_panel=MODEL,
    ),
]
Command = Annotated[
    str | None,
    typer.Option(
        help='command: the program run once per document, e.g. "python my.py {file} {schema}" '
        "({file}, {schema} and {doc_type} are replaced in each word; never run by a shell).",
        rich_help_panel=COMMAND,
    ),
]
SystemVersion = Annotated[
    str | None,
    typer.Option(
        help="command, http: your system's version, which keys the response cache (default: "
        "what the --command words before the first placeholder print given --version; what "
        "the service answers to GET URL/version).",
        rich_help_panel=COMMAND,
    ),
]
Url = Annotated[
    str | None,
    typer.Option(
        help="http: the URL each document is POSTed to (multipart: the file, its schema, its "
        "type and ids), answered with one JSON object.",
        rich_help_panel=COMMAND,
    ),
]
Header = Annotated[
    list[str] | None,
    typer.Option(
        "--header",
        help='http: a header sent with each request, "Name: value" (repeatable; run.json '
        "records its name only).",
        rich_help_panel=COMMAND,
    ),
]
BaseUrl = Annotated[
    str | None,
    typer.Option(
        help="Another endpoint: a proxy, or an OpenAI-compatible server (vLLM, llama.cpp, "
        "Ollama) with openai.",
        rich_help_panel=MODEL,
    ),
]
MaxOutputTokens = Annotated[
    int | None,
    typer.Option(
        help="Output-token cap per request, reasoning included (default: the provider's).",
        rich_help_panel=REQUESTS,
    ),
]
Timeout = Annotated[
    float,
    typer.Option(callback=finite, help="Seconds to wait for one answer.", rich_help_panel=REQUESTS),
]
Retries = Annotated[
    int | None,
    typer.Option(
        help="Retries per request on 429, 5xx and timeouts (default: the provider's budget).",
        rich_help_panel=REQUESTS,
    ),
]
Backoff = Annotated[
    float,
    typer.Option(
        callback=finite,
        help="Seconds of the first retry's backoff ceiling; it doubles per retry (up to 60 s) "
        "with full jitter.",
        rich_help_panel=REQUESTS,
    ),
]
Concurrency = Annotated[
    int, typer.Option(min=1, help="Requests in flight at most.", rich_help_panel=REQUESTS)
]
MaxCost = Annotated[
    float | None,
    typer.Option(
        callback=finite,
        help="Stop starting requests once this many dollars are spent (in-flight requests "
        "finish); exit 1, continue with --resume.",
        rich_help_panel=COST,
    ),
]
Cache = Annotated[
    Path | None,
    typer.Option(
        help="Response cache folder (default $PACKETBENCH_CACHE or "
        "~/.cache/packetbench/responses).",
        rich_help_panel=COST,
    ),
]
NoCache = Annotated[
    bool,
    typer.Option(
        "--no-cache", help="Neither read nor write the response cache.", rich_help_panel=COST
    ),
]
Pricing = Annotated[
    Path | None,
    typer.Option(
        help="A pricing table (JSON) adding to or replacing the packaged one.",
        rich_help_panel=COST,
    ),
]
Temperature = Annotated[
    float | None,
    typer.Option(
        callback=finite,
        help="Model APIs that take it: sampling temperature.",
        rich_help_panel=REQUESTS,
    ),
]
TopP = Annotated[
    float | None,
    typer.Option(
        callback=finite,
        help="Model APIs that take it: nucleus sampling top_p.",
        rich_help_panel=REQUESTS,
    ),
]
SamplingSeed = Annotated[
    int | None,
    typer.Option(
        help="Model APIs that take it: the seed the model samples with.",
        rich_help_panel=REQUESTS,
    ),
]

# -- what is asked for, through which API ---------------------------------------------------------

Cite = Annotated[
    str | None,
    typer.Option(
        help="page or box: ask for each value's evidence (PDF page, and with box its box; "
        "workbook sheet and cell; CSV row and column), recorded and scored. native "
        "(anthropic): the provider's own citations of each PDF page, asked in a second "
        "request per PDF document after its answer.",
        rich_help_panel=ASKED,
    ),
]
Confidence = Annotated[
    bool,
    typer.Option(
        "--confidence",
        help="Ask for each value's confidence (0-1), recorded and scored (rank AUC against "
        "correctness, reliability curve).",
        rich_help_panel=ASKED,
    ),
]
Batch = Annotated[
    bool,
    typer.Option(
        "--batch",
        help="Send the requests through the provider's batch API (the model APIs that have "
        "one): half the price, answers within 24 h; --resume polls the batches a stopped run "
        "submitted.",
        rich_help_panel=BATCH,
    ),
]
BatchSize = Annotated[
    int | None,
    typer.Option(
        help="--batch: requests per batch at most (default: the provider's limit).",
        rich_help_panel=BATCH,
    ),
]
PollInterval = Annotated[
    float,
    typer.Option(
        callback=finite,
        help="--batch: seconds between two polls of the batches.",
        rich_help_panel=BATCH,
    ),
]

# -- which documents, how many times ------------------------------------------------------

Tiers = Annotated[
    str | None,
    typer.Option(
        help="Extract only the packets of these tiers, comma-separated, e.g. N1,N3 (default: "
        "every tier).",
        rich_help_panel=DOCUMENTS,
    ),
]

DocTypes = Annotated[
    str | None,
    typer.Option(
        help="Extract only documents of these types, e.g. sov,loss_run.",
        rich_help_panel=DOCUMENTS,
    ),
]
Formats = Annotated[
    str | None,
    typer.Option(
        help="Extract only documents in these formats: pdf, xlsx, csv.",
        rich_help_panel=DOCUMENTS,
    ),
]
Limit = Annotated[
    int | None,
    typer.Option(
        help="Extract only the first N documents left by the filters (packet, then document "
        "order); the run, its scores and --resume cover those alone.",
        rich_help_panel=DOCUMENTS,
    ),
]
Repeats = Annotated[
    int,
    typer.Option(
        metavar="K",
        help="Extract every document K times, independently (sim: K derived seeds; an API: "
        "K requests, each repeat cached apart), into RUN/repeats/r1..rK, each a run; their "
        "scores show the spread between them.",
        rich_help_panel=DOCUMENTS,
    ),
]

# -- what the invocation does with its folder ---------------------------------------------

DryRun = Annotated[
    bool,
    typer.Option(
        "--dry-run",
        help="Print the documents, tokens and dollars the extraction would cost, and stop "
        "before sending anything (no API key is needed).",
        rich_help_panel=COST,
    ),
]
Resume = Annotated[
    bool,
    typer.Option(
        "--resume",
        help="Continue a stopped run where it stopped: what finished is kept and not asked "
        "or paid for again (the simulator makes its run again).",
    ),
]
Force = Annotated[
    bool,
    typer.Option(
        "--force", help="Start over: replace what this command wrote there before, nothing else."
    ),
]


def model_options(
    *,
    model: str | None,
    reasoning: str,
    input_mode: str,
    base_url: str | None,
    max_output_tokens: int | None,
    timeout: float,
    retries: int | None,
    backoff: float,
    concurrency: int,
    max_cost: float | None,
    cache: Path | None,
    no_cache: bool,
    pricing: Path | None,
    temperature: float | None,
    top_p: float | None,
    sampling_seed: int | None,
    dpi: int | None = None,
    delivered_dpi: int | None = None,
    command: str | None = None,
    system_version: str | None = None,
    url: str | None = None,
    header: list[str] | None = None,
) -> ModelOptions:
    """The model options as the command line gave them."""
    from packetbench.benchmark.config import ModelOptions, sampling_given

    return ModelOptions(
        model=model,
        reasoning=reasoning,
        input_mode=input_mode,
        image_dpi=dpi,
        delivered_dpi=delivered_dpi,
        base_url=base_url,
        max_output_tokens=max_output_tokens,
        timeout_s=timeout,
        retries=retries,
        backoff_s=backoff,
        concurrency=concurrency,
        max_cost_usd=max_cost,
        cache_dir=cache,
        use_cache=not no_cache,
        pricing=pricing,
        sampling=sampling_given(temperature, top_p, sampling_seed),
        command=command,
        system_version=system_version,
        url=url,
        headers=tuple(header or ()),
    )


def extraction_config(
    *,
    provider: str,
    api: ModelOptions,
    cite: str | None,
    confidence: bool,
    profile: str,
    sim_seed: int,
    sim_calibration: float,
    batch: bool,
    batch_size: int | None,
    poll_interval: float,
    tiers: str | None,
    doc_types: str | None,
    formats: str | None,
    limit: int | None,
    repeats: int,
) -> ExtractionConfig:
    """The extraction config as the command line gave it, checked (an unknown provider, a
    bad selection or count is one line, exit 2, before anything else)."""
    from packetbench.benchmark.config import ExtractionConfig
    from packetbench.benchmark.selection import Selection

    config = ExtractionConfig(
        provider=provider,
        api=api,
        cite=cite,
        confidence=confidence,
        profile=profile,
        sim_seed=sim_seed,
        sim_calibration=sim_calibration,
        batch=batch,
        batch_size=batch_size,
        poll_interval_s=poll_interval,
        selection=Selection.parse(tiers, doc_types, formats, limit),
        repeats=repeats,
    )
    config.check()
    return config
