"""The truth artifacts follow the contract of docs/design.md §4."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from packetbench.core.leaves import KINDS
from packetbench.generator.packet import build_packet
from tests.support.files import read_json
from tests.support.paths import plain
from tests.support.readback import doc_ids

FIELD_KEYS = ["path", "value", "kind", "rendered_as", "locations"]
MANIFEST_KEYS = [
    "doc_id",
    "doc_type",
    "format",
    "file",
    "sha256",
    "pages",
    "tier",
    "seed",
    "knobs",
    "patterns_applied",
    "versions",
]


def _resolve(data: Any, path: str) -> Any:
    node = data
    for part in path.replace("[", ".[").split("."):
        if part.startswith("["):
            node = node[int(part[1:-1])]
        elif part:
            node = node[part]
    return node


def _leaves(node: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(node, dict):
        out = []
        for key, value in node.items():
            out += _leaves(value, f"{prefix}.{key}" if prefix else key)
        return out
    if isinstance(node, list):
        out = []
        for index, value in enumerate(node):
            out += _leaves(value, f"{prefix}[{index}]")
        return out
    return [(prefix, node)]


def test_packet_folder_holds_exactly_the_artifacts(canonical_packets: list[Path]) -> None:
    for packet in canonical_packets:
        truth = read_json(packet / "packet_truth.json")
        assert truth["packet_id"] == packet.name
        expected = {"packet_truth.json"}
        for doc in truth["documents"]:
            assert list(doc) == ["doc_id", "doc_type", "format", "file", "schema", "superseded_by"]
            expected |= {doc["file"]} | {
                f"{kind}_{doc['doc_id']}.json"
                for kind in ("document_truth", "field_truth", "manifest", "rendered_universe")
            }
        assert {p.name for p in packet.iterdir()} == expected


@pytest.mark.slow
def test_field_truth_is_exactly_the_non_null_leaves(canonical_packets: list[Path]) -> None:
    for packet in canonical_packets:
        for doc_id in doc_ids(packet):
            truth = read_json(packet / f"document_truth_{doc_id}.json")
            fields = read_json(packet / f"field_truth_{doc_id}.json")["fields"]
            non_null = [(p, v) for p, v in _leaves(truth["truth"]) if v is not None]
            # A value damaged past reading (docs/patterns.md rule 3b) keeps its field_truth entry,
            # marked illegible, while its document truth is null (abstention expected).
            legible = [(f["path"], f["value"]) for f in fields if not f.get("illegible")]
            assert legible == non_null, f"{packet}/{doc_id}"
            for field in fields:
                assert list(field) == FIELD_KEYS + (["illegible"] if "illegible" in field else [])
                assert field["kind"] in KINDS
                assert field["locations"], f"{doc_id}:{field['path']} has no location"
                expected = None if field.get("illegible") else field["value"]
                assert _resolve(truth["truth"], field["path"]) == expected


def test_manifest_describes_the_file(canonical_packets: list[Path]) -> None:
    for packet in canonical_packets:
        for doc_id in doc_ids(packet):
            manifest = read_json(packet / f"manifest_{doc_id}.json")
            assert list(manifest) == MANIFEST_KEYS
            data = (packet / manifest["file"]).read_bytes()
            assert manifest["sha256"] == hashlib.sha256(data).hexdigest()
            assert manifest["tier"] == packet.name[:2]
            for applied in manifest["patterns_applied"]:
                assert set(applied) == {
                    "id",
                    "name",
                    "family",
                    "phase",
                    "truth",
                    "reference",
                    "pages_affected",
                    "targets",
                    "ground_truth_delta",
                    "details",
                }
                assert applied["pages_affected"] and set(applied["pages_affected"]) <= set(
                    range(1, manifest["pages"] + 1)
                )
            assert set(manifest["versions"]) == {
                "packetbench",
                "faker",
                "reportlab",
                "openpyxl",
                "lxml",
                "orjson",
                "pillow",
                "pypdfium2",
                "numpy",
                "fonttools",
                "pikepdf",
            }
            assert manifest["knobs"]["documents"], "knobs are recorded"


HIDING = {
    "sheet.hidden_sheet",
    "sheet.hidden_rows",
    "sheet.hidden_columns",
    "textlayer.invisible_ocr",
    "textlayer.clipped",
    "textlayer.hidden_layer",
    "textlayer.white_text",
    "scan.ocr_layer",
}


def test_rendered_universe_holds_every_drawn_value(canonical_packets: list[Path]) -> None:
    """Every non-empty rendered_as of a spreadsheet or CSV is one of its visible strings;
    for PDFs every word of it is (wrapped values are drawn line by line)."""
    for packet in canonical_packets:
        for doc_id in doc_ids(packet):
            manifest = read_json(packet / f"manifest_{doc_id}.json")
            universe = read_json(packet / f"rendered_universe_{doc_id}.json")
            # Only a hiding pattern hides text: one that takes values out of the truth, a
            # workbook's hidden sheet, row or column of working figures, or text a text-layer
            # attack puts where nobody sees it (an invisible OCR layer, a clipped tail, a layer
            # switched off, white text).
            hides = any(
                p["truth"] == "hidden" or p["id"] in HIDING for p in manifest["patterns_applied"]
            )
            assert hides or universe["hidden"] == []
            strings = {s["text"] for s in universe["strings"]}
            words = {w for s in strings for w in s.split()}
            illegible = {entry["path"]: entry["text"] for entry in universe["illegible"]}
            for field in read_json(packet / f"field_truth_{doc_id}.json")["fields"]:
                shown = field["rendered_as"]
                if field.get("illegible"):  # rule 3b: out of the universe, listed apart
                    assert illegible.pop(field["path"]) == shown
                    continue
                if not shown:
                    continue
                if manifest["format"] == "pdf":
                    assert set(shown.split()) <= words, f"{doc_id}:{field['path']}"
                else:
                    assert shown in strings, f"{doc_id}:{field['path']}"
            assert illegible == {}, f"{doc_id}: illegible values with no illegible field"


# Per table document: a header cell (drawn upper-case) and what its row values' paths contain.
TABLE_HEADERS = {
    "sov_pdf": ("TIV", "buildings["),
    "loss_run_pdf": ("CLAIM NUMBER", ".claims["),
    "driver_schedule_pdf": ("LICENSE #", "drivers["),
    "acord_129": ("VIN", "vehicles["),
    "acord_126": ("CLASSIFICATION", "hazards["),
    "acord_823": ("OPERATIONS AT THIS PREMISES", "premises["),
    "acord_45": ("LOAN / LEASE #", "interests["),
    "acord_101": ("STREET", "premises["),
}


@pytest.mark.slow
def test_table_headers_repeat_on_every_page_the_table_reaches(tmp_path: Path) -> None:
    """The plain look of every table (patterns off: a table pattern may abbreviate or drop a
    continuation header on purpose)."""
    continued = 0
    packets = []
    for tier in ("N3", "N4", "N5"):
        folder = tmp_path / tier
        folder.mkdir()
        for name, data in build_packet(tier, 1, plain(tier)).files.items():
            (folder / name).write_bytes(data)
        packets.append(folder)
    for packet in packets:
        for doc_id, (header, row_path) in TABLE_HEADERS.items():
            if not (packet / f"field_truth_{doc_id}.json").exists():
                continue  # the packet's lines do not call for the document
            strings = read_json(packet / f"rendered_universe_{doc_id}.json")["strings"]
            with_header = {s["page"] for s in strings if s["text"] == header}
            fields = read_json(packet / f"field_truth_{doc_id}.json")["fields"]
            with_rows = {
                loc["page"] for f in fields if row_path in f["path"] for loc in f["locations"]
            }
            assert with_rows <= with_header, f"{packet.name}/{doc_id}: {with_rows - with_header}"
            continued += len(with_rows) > 1
    assert continued >= 8  # N4 and N5 tables run over several pages
