"""Which documents a run requests, and what its run.json says about an API run.

A new run requests every document. `--resume` requests only documents without a record (a
document that finished, ok or not, is never requested again); `--retry-failed` requests only
documents whose record is not `ok`, bypassing the cache; both together request both. A run
can only be continued with the settings it was started with: the fingerprint (provider,
model, base URL, every request parameter, caps, input mode, prompt and schema hashes) must
match.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packetbench.benchmark.grounding.schema import (
    NATIVE,
    citation_info,
    confidence_info,
    wrapped_schema,
)
from packetbench.benchmark.harness import prompts
from packetbench.benchmark.harness.runner import Job
from packetbench.benchmark.providers.api import ApiProvider
from packetbench.benchmark.records import read_record, record_path
from packetbench.benchmark.run_folder import continuation
from packetbench.benchmark.runs import RunInfo
from packetbench.core.errors import BadInput
from packetbench.truth.packets import Packet

FINGERPRINT = (
    "provider",
    "model",
    "base_url",
    "reasoning",
    "reasoning_parameters",
    "input",
    "delivery",  # the resolution pages were sent at (--dpi, --delivered-dpi)
    "max_output_tokens",
    "request",
    "prompts",
    "schemas_sent",
    "selection",
)


@dataclass(frozen=True)
class WorkList:
    jobs: list[Job]
    documents: int  # in the packets
    skipped_ok: int  # finished ok before (resume / retry-failed)
    skipped_failed: int  # finished with a failure, not retried (resume without retry-failed)


def sent_schemas(
    provider: ApiProvider,
    schemas: dict[str, dict[str, Any]],
) -> dict[str, dict[str, Any]]:
    """Each schema as `provider` is sent it: wrapped with its evidence list under `--cite`
    and its confidence list under `--confidence`."""
    cite, confidence = provider.settings.evidence, provider.settings.confidence
    return {
        name: provider.clean_schema(
            wrapped_schema(schema, cite, confidence) if cite or confidence else schema
        )
        for name, schema in schemas.items()
    }


def schema_hash(schema: dict[str, Any]) -> str:
    text = json.dumps(schema, sort_keys=False, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def api_info(
    provider: ApiProvider,
    used: set[str],
    sent: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """The provider-specific part of run.json."""
    info: dict[str, Any] = {
        "prompts": prompts.template_hashes(used),
        "schemas_sent": {name: schema_hash(sent[name]) for name in sorted(used)},
    }
    if provider.settings.cite:
        info["citations"] = citation_info(provider.settings.cite)
        info["citations"]["prompt"] = (
            prompts.native_cite_hash() if provider.settings.cite == NATIVE else prompts.cite_hash()
        )
    if provider.settings.confidence:
        info["confidences"] = confidence_info() | {"prompt": prompts.confidence_hash()}
    return info


def work_list(packets: list[Packet], run: Path, *, resume: bool, retry_failed: bool) -> WorkList:
    documents = [(p, d) for p in packets for d in p.documents]
    if not (resume or retry_failed):
        return WorkList([Job(p, d) for p, d in documents], len(documents), 0, 0)
    jobs: list[Job] = []
    ok = failed = 0
    for packet, doc in documents:
        path = record_path(run, packet.packet_id, doc.doc_id)
        status = None
        if path.is_file():
            try:
                status = read_record(path).status
            except BadInput:
                status = None  # unreadable: not a finished document
        if status == "ok":
            ok += 1
        elif status is None:
            if resume:
                jobs.append(Job(packet, doc))
        elif retry_failed:
            jobs.append(Job(packet, doc, fresh=True))
        else:
            failed += 1
    return WorkList(jobs, len(documents), ok, failed)


def check_continuation(run: Path, info: RunInfo, packets: list[Packet]) -> RunInfo:
    """The existing run.json, after checking it was made with the same settings (the API
    fingerprint), from the same documents."""
    return continuation(run, info, packets, FINGERPRINT)
