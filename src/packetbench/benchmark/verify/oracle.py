"""The verdicts of a truthless run's claims, for the simulated judge only (`--judge-truth`).

A run of one's own documents has no truth; when its documents are copies of generated
documents (`benchmark.origins`), each record is scored against its original exactly as
`packetbench score` would score it there (`score.scorer.score_document`), and the claims'
verdicts, by output path, are what the simulated judge mislabels at its configured rates.
Nothing of it is written: the run stays without truth.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson

from packetbench.benchmark.origins import Origins
from packetbench.benchmark.records import read_record, record_path
from packetbench.benchmark.score.scorer import schema_problem, score_document
from packetbench.truth import universe as universes
from packetbench.truth.packets import DocInfo, Packet


@dataclass(frozen=True)
class OracleClaim:
    packet_id: str  # the run's ids of the claim's document
    doc_id: str
    source: str  # the claim's path in the output
    path: str  # the truth path it was aligned to (in the original)
    verdict: str
    where: tuple[Path, str]  # the original's packet folder and doc_id


def oracle_verdicts(
    run: Path, selected: list[tuple[Packet, DocInfo]], truth: Path
) -> Iterator[OracleClaim]:
    """Every claim of the run's ok, schema-valid records with its verdict against the
    original of its document in the packets of `truth`."""
    origins = Origins(truth)
    built: dict[str, universes.PacketUniverses] = {}
    for packet, doc in selected:
        path = record_path(run, packet.packet_id, doc.doc_id)
        if not path.is_file():
            continue
        record = read_record(path)
        if record.status != "ok" or schema_problem(doc.schema, record.output, packet.path):
            continue
        origin, of = origins.of(packet.path / doc.file)
        if origin.packet_id not in built:
            built[origin.packet_id] = universes.build(origin.path)
        rows: list[bytes] = []
        score_document(origin, of, record, built[origin.packet_id], rows)
        for row in rows:
            claim = orjson.loads(row)
            yield OracleClaim(
                packet.packet_id,
                doc.doc_id,
                claim["source"],
                claim["path"],
                claim["verdict"],
                (origin.path, of.doc_id),
            )
