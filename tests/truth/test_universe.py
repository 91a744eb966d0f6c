"""The universe builder reads values and visible text only, and counts what it skips."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from packetbench.core.errors import BadInput
from packetbench.truth import universe
from tests.support.paths import PACKETS


def test_universe_holds_values_and_rendered_strings() -> None:
    built = universe.build(PACKETS / "N1-000001")
    fields = json.loads((PACKETS / "N1-000001" / "field_truth_sov_pdf.json").read_text())
    for field in fields["fields"]:
        value = field["value"]
        if isinstance(value, str):
            assert built.documents["sov_pdf"].has_string(value)
            assert built.documents["sov_pdf"].has_string(field["rendered_as"])
        else:
            assert built.documents["sov_pdf"].has_number(value)
    assert built.packet.has_string("STATEMENT OF VALUES")  # a label, from the universe file
    assert set(built.skipped) >= {"path", "kind", "locations", "page"}
    size = built.packet.size()
    assert size["strings"] > 100 and size["numbers"] > 50 and size["tokens"] > 100


def test_layout_values_never_enter_the_universe() -> None:
    built = universe.build(PACKETS / "N3-000001")
    fields = json.loads((PACKETS / "N3-000001" / "field_truth_sov_pdf.json").read_text())
    box = fields["fields"][5]["locations"][0]["bbox"]
    fractional = [x for x in box if not float(x).is_integer()]
    assert fractional and not any(built.packet.has_number(x) for x in fractional)
    manifest = json.loads((PACKETS / "N3-000001" / "manifest_sov_pdf.json").read_text())
    assert not built.packet.has_string(manifest["sha256"])


def test_hidden_text_is_skipped_and_counted(tmp_path: Path) -> None:
    packet = tmp_path / "N1-000001"
    shutil.copytree(PACKETS / "N1-000001", packet)
    path = packet / "rendered_universe_sov_pdf.json"
    data = json.loads(path.read_text())
    data["hidden"] = [{"text": "Zorvekian Secret Holdings", "page": 1}]
    path.write_text(json.dumps(data))
    built = universe.build(packet)
    assert built.skipped["hidden"] == 1
    assert not built.packet.has_string("Zorvekian Secret Holdings")


def test_missing_truth_file_is_bad_input(tmp_path: Path) -> None:
    packet = tmp_path / "N1-000001"
    shutil.copytree(PACKETS / "N1-000001", packet)
    (packet / "field_truth_acord_140.json").unlink()
    with pytest.raises(BadInput, match=r"field_truth_acord_140\.json: missing"):
        universe.build(packet)


def test_an_illegible_value_is_kept_apart(tmp_path: Path) -> None:
    """A value with no legible location (docs/patterns.md rule 3b) is nobody's to see: it is in no
    universe, and the packet's universes list it by document and path for the scorer."""
    packet = tmp_path / "N1-000001"
    shutil.copytree(PACKETS / "N1-000001", packet)
    path = packet / "field_truth_sov_pdf.json"
    data = json.loads(path.read_text())
    entry = data["fields"][3]
    entry.update(value="Zorvekian Blotted Plaza", rendered_as="Zorvekian Blotted Plaza")
    entry["illegible"] = True
    path.write_text(json.dumps(data))
    built = universe.build(packet)
    assert built.illegible == {"sov_pdf": {entry["path"]: "Zorvekian Blotted Plaza"}}
    assert not built.packet.has_string("Zorvekian Blotted Plaza")
    assert not built.documents["sov_pdf"].tokens & {"zorvekian", "blotted"}
    assert universe.build(PACKETS / "N1-000001").illegible == {}


def test_the_canonical_blots_are_listed() -> None:
    """Every illegible value of the canonical N5 packet is listed with the value its field
    truth gives, as rendered_universe.illegible lists it."""
    packet = PACKETS / "N5-000001"
    built = universe.build(packet)
    listed = {
        doc_id: {entry["path"]: entry["value"] for entry in found["illegible"]}
        for doc_id in universe.packet_doc_ids(packet)
        if (found := json.loads((packet / f"rendered_universe_{doc_id}.json").read_text()))[
            "illegible"
        ]
    }
    assert built.illegible == listed and sum(map(len, listed.values())) >= 10
