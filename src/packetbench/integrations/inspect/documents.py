"""The documents of a folder of packets as the inspect_ai task asks them: packetbench's own
input rendering, prompt and strict schema, with nothing of inspect_ai in it."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packetbench.benchmark.harness import inputs, prompts
from packetbench.benchmark.harness.session import used_schemas
from packetbench.benchmark.harness.worklist import schema_hash
from packetbench.benchmark.providers.api import INPUT_MODES, JSON_ANSWER, Prompt
from packetbench.benchmark.providers.schema_clean import without_file_keys
from packetbench.core.errors import UsageError
from packetbench.generator.schema_files import all_schemas, schema_bytes
from packetbench.truth.packets import DocInfo, Packet, find_packets


@dataclass(frozen=True)
class Ask:
    """One document made ready to ask: its prompt (system, instructions, the document's
    parts) and the strict schema its answer must follow."""

    packet: Packet
    doc: DocInfo
    prompt: Prompt
    schema: dict[str, Any]  # as sent: the committed schema without its file keys
    document: inputs.DocumentInput

    @property
    def sample_id(self) -> str:
        return f"{self.packet.packet_id}/{self.doc.doc_id}"


def packets_of(packets_dir: Path) -> list[Packet]:
    """The packets of `packets_dir`, every document of a known schema with a prompt."""
    packets = find_packets(packets_dir)
    used_schemas(packets, packets_dir)
    return packets


def check_mode(mode: str) -> None:
    if mode not in INPUT_MODES:
        raise UsageError(f"unknown input {mode!r}; choose {', '.join(INPUT_MODES)}")


def asks(packets: list[Packet], mode: str) -> Iterator[Ask]:
    """Every document of `packets`, in packet and document order, rendered for `mode`
    (native, text or images) as `packetbench extract --input MODE` sends it."""
    check_mode(mode)
    schemas = all_schemas()
    for packet in packets:
        for doc in packet.documents:
            document = inputs.build(packet, doc, mode)
            schema = without_file_keys(schemas[doc.schema])
            prompt = prompts.render(doc.schema, schema, document, JSON_ANSWER, None, doc.format)
            yield Ask(packet, doc, prompt, schema, document)


def describe(packets: list[Packet]) -> dict[str, Any]:
    """What a run's run.json records of its prompts and schemas (the hashes `extract` records)."""
    schemas = all_schemas()
    used = {d.schema for p in packets for d in p.documents}
    return {
        "prompts": prompts.template_hashes(used),
        "schemas": {
            name: hashlib.sha256(schema_bytes(schema)).hexdigest()
            for name, schema in schemas.items()
        },
        "schemas_sent": {
            name: schema_hash(without_file_keys(schemas[name])) for name in sorted(used)
        },
    }
