"""`packetbench extract --documents FOLDER`: a run of one's own documents (no truth).

The documents are typed (`benchmark.documents`: `--schema`, `--schema-map`, then the
classifier of `benchmark.classify` for the rest), made one truthless packet, and extracted
exactly as a packet's documents are (`benchmark.extract`): the same providers, harness,
records, `--resume` and `--retry-failed`. A resumed run keeps the documents and types it
started with. The simulator cannot read: on one's own documents it needs the generated
packets they were copied from (`--sim-truth`, `benchmark.origins`).
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from pathlib import Path
from typing import Any

from packetbench.benchmark import classify
from packetbench.benchmark.classify import chosen
from packetbench.benchmark.config import HarnessOptions
from packetbench.benchmark.documents import packet_of, previous_packet
from packetbench.benchmark.extract import _extract
from packetbench.benchmark.origins import Origins, OriginSim
from packetbench.benchmark.providers.api import ApiProvider
from packetbench.benchmark.providers.base import Provider
from packetbench.benchmark.run_folder import ExtractSummary, check_run_folder
from packetbench.benchmark.runs import is_run
from packetbench.core.errors import UsageError
from packetbench.core.locking import hold
from packetbench.truth.packets import Packet

CLASSIFY_DIR = "classify"


@dataclasses.dataclass(frozen=True)
class OwnSummary:
    extract: ExtractSummary
    packet: Packet
    classified: int  # documents the classifier typed (this invocation)


def extract_documents(
    provider: Provider,
    folder: Path,
    out: Path,
    *,
    schema: str | None = None,
    schema_map: Path | None = None,
    sim_truth: Path | None = None,
    force: bool = False,
    options: HarnessOptions | None = None,
) -> OwnSummary:
    """Extract the documents of `folder` into the run folder `out` (see the module
    docstring), holding `out` for the whole run."""
    options = options or HarnessOptions()
    simulated = not isinstance(provider, ApiProvider)
    if sim_truth is not None and not simulated:
        raise UsageError(f"--sim-truth is for the simulator; {provider.name} reads the documents")
    if simulated and sim_truth is None:
        raise UsageError(
            f"--documents {folder}: the simulator cannot read documents, it simulates reading "
            "documents whose truth it has: give --sim-truth PACKETS (the generated packets "
            "the documents were copied from), or a model as --provider"
        )
    if options.batch:
        raise UsageError("--batch is not for --documents (classification comes first)")
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    origins = Origins(sim_truth) if sim_truth is not None else None
    with hold(out):
        continuing = options.resume or options.retry_failed
        packet = previous_packet(out, folder) if continuing else None
        if continuing and packet is None:
            raise UsageError(f"{out}: no run to continue (no run.json); start it without --resume")
        work: Path | None = None
        classified = 0
        try:
            if packet is None:
                check_run_folder(out, force)  # before a classifier is paid
                typed, left, skipped = chosen(folder, schema, schema_map)
                about: dict[str, Any] | None = None
                if left and origins is not None:
                    more, about = classify.classify_sim(left, origins)
                    typed += more
                elif left:
                    assert isinstance(provider, ApiProvider)
                    work = Path(tempfile.mkdtemp(prefix="packetbench-classify-"))
                    more, about, spent = classify.classify_api(
                        provider,
                        left,
                        folder,
                        work,
                        concurrency=options.concurrency,
                        cache_dir=options.cache_dir,
                        use_cache=options.use_cache,
                        pricing_file=options.pricing,
                        max_cost_usd=options.max_cost_usd,
                        backoff_s=options.backoff_base_s,
                    )
                    typed += more
                    if options.max_cost_usd is not None:
                        # What classifying spent is spent: the extraction has the rest.
                        rest = max(options.max_cost_usd - spent, 1e-9)
                        options = dataclasses.replace(options, max_cost_usd=rest)
                classified = len(left)
                packet = packet_of(folder, typed, skipped, about)
            packets = options.selection.apply([packet], str(folder))
            extractor = OriginSim(provider, origins) if origins is not None else provider
            summary = _extract(extractor, packets, folder, out, force, options)
        finally:
            if work is not None:
                _keep(work, out)
    return OwnSummary(summary, packet, classified)


def _keep(work: Path, out: Path) -> None:
    """Move the classifier's records and request log into the run (once it is one)."""
    target = out / CLASSIFY_DIR
    if is_run(out):
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        shutil.move(str(work), str(target))
    else:
        shutil.rmtree(work, ignore_errors=True)
