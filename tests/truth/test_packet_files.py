"""A packet's files are typed (`core.packet_files`): every file the generator writes
is one of the declared kinds, a file a reader would trip over is refused in one line naming
it, and scoring reads each of a packet's files once, passing it down."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.score.scorer import score_run
from packetbench.core import packet_files
from packetbench.core.errors import BadInput
from packetbench.truth.packets import find_packets
from tests.support.paths import PACKETS

KINDS = ("document_truth", "field_truth", "manifest", "rendered_universe")


def test_every_file_of_the_canonical_suite_is_of_its_kind() -> None:
    for packet in find_packets(PACKETS):
        packet_files.read_packet_truth(packet.path)
        for doc in packet.documents:
            for kind in KINDS:
                path = packet.path / packet_files.file_name(kind, doc.doc_id)
                packet_files.read_packet_file(path, kind)


def test_what_is_read_is_the_file_as_parsed() -> None:
    """Reading through the types changes nothing: the keys' order and the numbers are the
    file's (an integer box stays an integer)."""
    path = PACKETS / "N1-000001" / "field_truth_sov_pdf.json"
    assert packet_files.read_field_truth(path.parent, "sov_pdf") == json.loads(path.read_text())
    entry = packet_files.read_field_truth(path.parent, "sov_pdf")["fields"][0]
    assert list(entry) == list(json.loads(path.read_text())["fields"][0])


@pytest.mark.parametrize(
    ("kind", "change", "needle"),
    [
        ("field_truth", lambda d: d.update(fields={}), "(fields: Input should be a valid list)"),
        (
            "field_truth",
            lambda d: d["fields"][0].pop("path"),
            "(fields.0.path: Field required)",
        ),
        (
            "field_truth",
            lambda d: d["fields"][0]["locations"][0].update(page="one"),
            "(fields.0.locations.0.page: Input should be a valid integer)",
        ),
        (
            "manifest",
            lambda d: d["patterns_applied"].append({"name": "x"}),
            "(patterns_applied.",
        ),
        ("document_truth", lambda d: d.update(truth=None), "(truth: Input should be a valid"),
        ("rendered_universe", lambda d: d["strings"].append({"page": 1}), "text: Field required"),
    ],
    ids=["fields not a list", "no path", "page text", "pattern id", "no truth", "no text"],
)
def test_a_damaged_file_is_refused_in_one_line(
    tmp_path: Path, kind: str, change: Any, needle: str
) -> None:
    folder = Path(shutil.copytree(PACKETS / "N1-000001", tmp_path / "N1-000001"))
    path = folder / packet_files.file_name(kind, "sov_pdf")
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(BadInput) as caught:
        packet_files.read_packet_file(path, kind)
    message = str(caught.value)
    assert message.startswith(f"{path}: not a {kind} file (") and needle in message
    assert "\n" not in message


def test_scoring_reads_each_file_of_a_packet_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packets = tmp_path / "packets"
    shutil.copytree(PACKETS / "N1-000001", packets / "N1-000001")
    extract(SimProvider("typical", 1), packets, tmp_path / "run")
    reads: Counter[str] = Counter()
    read = packet_files.read_json

    def counted(path: Path, ceiling: str = "truth") -> Any:
        reads[path.name] += 1
        return read(path, ceiling)

    monkeypatch.setattr(packet_files, "read_json", counted)
    score_run(tmp_path / "run", packets)
    per_document = {name: n for name, n in reads.items() if name.startswith(KINDS)}
    documents = len(find_packets(packets)[0].documents)
    assert len(per_document) == documents * len(KINDS)
    assert set(per_document.values()) == {1}, {n: c for n, c in per_document.items() if c > 1}
