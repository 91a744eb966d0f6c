"""An extraction as configured: the one library call `extract` and `run` make per job.

`extract_run` extracts the packets of a folder into a run (K independent repeats with
`--repeats K`); `extract_own` a folder of one's own documents (typed, classified, no truth);
`estimate_run` says what a run would request and cost without sending or writing anything
(None for the simulator, which costs nothing). Each takes an `ExtractionConfig` and what the
invocation does with the run folder (`force`, `resume`, `retry_failed`).
"""

from __future__ import annotations

from pathlib import Path

from packetbench.benchmark.config import ExtractionConfig
from packetbench.benchmark.extract import extract
from packetbench.benchmark.harness.session import DryRun, dry_run
from packetbench.benchmark.own_extract import OwnSummary, extract_documents
from packetbench.benchmark.providers.api import ApiProvider
from packetbench.benchmark.repeats import RepeatsSummary, extract_repeats
from packetbench.benchmark.run_folder import ExtractSummary
from packetbench.core.errors import UsageError
from packetbench.truth.packets import find_packets


def extract_run(
    config: ExtractionConfig,
    packets: Path,
    out: Path,
    *,
    force: bool = False,
    resume: bool = False,
    retry_failed: bool = False,
    progress: bool = False,
) -> ExtractSummary | RepeatsSummary:
    """Extract every selected document of the packets in `packets` into the run folder
    `out`, once, or `config.repeats` times into its repeats."""
    config.check()
    harness = config.harness(resume=resume, retry_failed=retry_failed, progress=progress)
    if config.repeats == 1:
        return extract(config.make_provider(), packets, out, force=force, options=harness)
    return extract_repeats(config.make_provider, packets, out, config.repeats, force, harness)


def extract_own(
    config: ExtractionConfig,
    folder: Path,
    out: Path,
    *,
    schema: str | None = None,
    schema_map: Path | None = None,
    sim_truth: Path | None = None,
    force: bool = False,
    resume: bool = False,
    retry_failed: bool = False,
    progress: bool = False,
) -> OwnSummary:
    """Extract the documents of `folder` (one's own, without truth) into the run `out`."""
    config.check()
    if config.repeats != 1:
        raise UsageError(
            "--repeats goes with --packets: a run of your own documents is verified by a "
            "judge, not scored, so it has no spread to show"
        )
    return extract_documents(
        config.make_provider(),
        folder,
        out,
        schema=schema,
        schema_map=schema_map,
        sim_truth=sim_truth,
        force=force,
        options=config.harness(resume=resume, retry_failed=retry_failed, progress=progress),
    )


def estimate_run(
    config: ExtractionConfig,
    packets: Path,
    out: Path,
    *,
    resume: bool = False,
    retry_failed: bool = False,
) -> DryRun | None:
    """What extracting the packets of `packets` into `out` would request and cost (one
    repeat's), without sending or writing anything; None for a provider that sends nothing
    (the simulator). No API key is needed."""
    config.check()
    provider = config.make_provider()
    if not isinstance(provider, ApiProvider):
        return None
    harness = config.harness(resume=resume, retry_failed=retry_failed)
    chosen = config.selection.apply(find_packets(packets), str(packets))
    return dry_run(provider, chosen, packets, out, harness)
