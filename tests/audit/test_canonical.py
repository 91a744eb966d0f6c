"""The canonical suite audits clean, with counts that show the audit really read it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from packetbench.audit import audit_packets
from packetbench.audit.result import OCR_RECALL_MIN, PacketAudit
from packetbench.truth.universe import build
from tests.support.audit import Run
from tests.support.ocr import needs_tesseract
from tests.support.paths import PACKETS, canonical_documents


def _located(entry: dict[str, Any], scanned: bool | None = None) -> int:
    """The readings of one truth entry's locations (all of them, or those on a scanned page,
    which has no text layer, or off one): each whole drawing is one, and the pieces of a value
    split across pages (table.row_split) are one together."""
    locations = [
        loc
        for loc in entry["locations"]
        if scanned is None or (loc.get("text_layer") is False) == scanned
    ]
    return sum("fragment" not in loc for loc in locations) + any(
        "fragment" in loc for loc in locations
    )


def _scanned_locations(packet: Path, doc_id: str) -> tuple[int, int]:
    """Locations with no text layer (a scanned page, ink, an attacked value), and the
    readings they make: only OCR can read them."""
    fields = json.loads((packet / f"field_truth_{doc_id}.json").read_text())["fields"]
    return (
        # (a location past reading is proven unreadable, not left to OCR to find)
        sum(
            loc.get("text_layer") is False and loc.get("legible") is not False
            for e in fields
            for loc in e["locations"]
        ),
        sum(_located(e, scanned=True) for e in fields),
    )


def _check_packet(packet: PacketAudit) -> int:
    """One audited canonical packet: every located value read by its format's reader or
    counted as needing OCR, its universe and skipped keys as built, the seed a coincidence.
    Returns the locations it left to OCR."""
    scanned = 0
    for doc in packet.documents:
        reader = {"pdf": "pdf", "xlsx": "xlsx", "csv": "csv"}[doc.format]
        # Every located value of every document was read by its format's reader, or
        # counted as needing OCR (each location on a scanned page); a value split across
        # pages is one reading of its pieces, beside any whole drawing of the same value
        # elsewhere (a form number in a schedule and on its form).
        folder = Path(packet.path)
        fields = json.loads((folder / f"field_truth_{doc.doc_id}.json").read_text())["fields"]
        located = sum(_located(e) for e in fields)
        on_scans, scanned_readings = _scanned_locations(folder, doc.doc_id)
        assert doc.not_checked["fields"] == on_scans, (packet.packet_id, doc.doc_id)
        # (a document scanned on every page, filled in by hand, or whose text layer an attack
        # took, may leave its text reader nothing to read)
        read = doc.fields[reader].checked if reader in doc.fields else 0
        assert read + scanned_readings == located > 0, (packet.packet_id, doc.doc_id)
        assert (doc.strings[reader].checked if reader in doc.strings else 0) > 0 or on_scans
        scanned += on_scans
    built = build(Path(packet.path))
    assert packet.universe == built.packet.size()
    # Every field entry has its path and locations; a rendered value string names its
    # field's leaf by a path too (but has no locations): both counted as skipped keys.
    folder = Path(packet.path)
    leaf_strings = sum(
        "path" in s
        for doc in packet.documents
        for s in json.loads((folder / f"rendered_universe_{doc.doc_id}.json").read_text())[
            "strings"
        ]
    )
    assert packet.skipped_keys["locations"] > 0 and leaf_strings > 0
    assert packet.skipped_keys["path"] == packet.skipped_keys["locations"] + leaf_strings
    assert packet.forbidden > 1000
    # Every canonical packet has seed 1, and "1" is drawn on its pages: a coincidence,
    # never a leak (no finding but not_checked above). When one of its drawings is on a
    # scanned page, which only --ocr reads, it is left unjudged instead.
    seed = [c.forbidden_as for c in packet.coincidences if c.value == "1"]
    assert seed == ["the seed"] or (
        seed == [] and any(d.not_checked["fields"] for d in packet.documents)
    ), packet.packet_id
    return scanned


@pytest.mark.slow
def test_the_canonical_suite_audits_clean(canonical_packets: list[Path]) -> None:
    """Without OCR: every value on a text layer is found; scanned pages are counted, not
    checked (tests/audit/test_canonical.py::test_the_suite_passes_with_ocr reads
    them)."""
    result = audit_packets(canonical_packets)
    assert {f.problem for f in result.findings()} <= {"not_checked"}, [
        f for f in result.findings() if f.problem != "not_checked"
    ][:5]
    totals = result.totals()
    assert totals["packets"] == 5 and totals["documents"] == canonical_documents() > 55
    # (most N4-N5 pages are scanned: their values are counted below, not read here)
    assert totals["fields_found"] == totals["fields_checked"] > 25_000
    assert totals["strings_found"] == totals["strings_checked"] > 35_000
    scanned = sum(_check_packet(packet) for packet in result.packets)
    # N2-N5 carry scanned documents (scan.* presets)
    assert totals["fields_not_checked"] == scanned > 1000


@pytest.mark.parametrize("tier", ["N1", "N2"])
def test_a_canonical_packet_audits_clean(tier: str) -> None:
    """The fast tier's check, one packet (a second or two each): N1 has a text layer on every
    page, so every value is read and none left to OCR; N2 carries scans, whose locations are
    counted as needing OCR and nothing else."""
    result = audit_packets([PACKETS / f"{tier}-000001"])
    assert {f.problem for f in result.findings()} <= {"not_checked"}
    (packet,) = result.packets
    scanned = _check_packet(packet)
    totals = result.totals()
    assert totals["fields_found"] == totals["fields_checked"] > 1000
    assert totals["fields_not_checked"] == scanned
    assert (scanned > 0) == (tier == "N2")


@pytest.mark.slow
def test_the_command_needs_ocr_for_scans(run_cli: Run, canonical_packets: list[Path]) -> None:
    """Without --ocr the audit cannot vouch for scanned pages: not a failure (nothing is
    wrong) but not verified either, exit 3, naming each document and its pages."""
    result = run_cli("audit", "--packets", str(canonical_packets[0].parent))
    assert result.returncode == 3, result.stdout[-2000:] + result.stderr
    *_, passed, unchecked, last = result.stdout.strip().splitlines()
    assert last.startswith("audit not verified (exit 3): nothing is wrong")
    assert passed.startswith("audit passed for what it read: ") and " in 5 packet(s), " in passed
    assert f"{canonical_documents()} documents" in passed
    assert (
        unchecked.startswith("not checked: ")
        and "to check them: packetbench audit --ocr " in unchecked
    )
    assert "need OCR (text layer missing or unreliable); run with --ocr" in result.stdout
    rows = [line.split()[1] for line in result.stdout.splitlines() if line.startswith("│ N")]
    assert list(dict.fromkeys(rows)) == [p.name for p in canonical_packets]


@pytest.mark.slow
@needs_tesseract
def test_the_suite_passes_with_ocr(run_cli: Run, canonical_packets: list[Path]) -> None:
    """`packetbench audit packets --ocr` reads every scanned page of the suite well enough:
    each scan level of each packet above its OCR recall minimum."""
    # (about 4 minutes on two free cores; a loaded machine takes several times that)
    result = run_cli(
        "audit", "--packets", str(canonical_packets[0].parent), "--ocr", "--json", timeout=2400
    )
    report = json.loads(result.stdout)
    assert result.returncode == 0, [f for p in report["packets"] for f in p["findings"]]
    totals = report["totals"]
    assert report["ok"] is True and totals["fields_not_checked"] == 0
    # Every scan level the suite's manifests name is judged (the suite is a sample: which
    # levels it holds follows its seeds).
    scanned = {
        page["level"]
        for folder in canonical_packets
        for manifest in folder.glob("manifest_*.json")
        for applied in json.loads(manifest.read_text())["patterns_applied"]
        if applied["id"].startswith("scan.")
        for page in (applied["details"].get("pages") or {}).values()
    }
    assert len(scanned) >= 4 and set(totals["scans"]) >= scanned
    for level, kinds in totals["scans"].items():
        fields = kinds["fields"]
        assert fields["found"] >= OCR_RECALL_MIN[level] * fields["checked"] > 0, level


@pytest.mark.slow
def test_json_is_deterministic(run_cli: Run, canonical_packets: list[Path]) -> None:
    outputs = [
        run_cli(
            "audit", "--packets", str(canonical_packets[0]), "--json", env={"PYTHONHASHSEED": seed}
        ).stdout
        for seed in ("1", "2")
    ]
    assert outputs[0] == outputs[1]
    report = json.loads(outputs[0])
    assert list(report) == ["ok", "status", "ocr", "totals", "packets"]
    assert report["ok"] is True and report["totals"]["fields_checked"] > 0
    document = report["packets"][0]["documents"][0]
    assert list(document) == [
        "doc_id",
        "format",
        "file",
        "pages",
        "fields",
        "strings",
        "ocr_pages",
        "not_checked",
        "hidden_confirmed",
        "illegible_confirmed",
        "attacks",
        "findings",
        "scans",
        "ocr_misses",
    ]


def test_what_the_command_keeps_of_a_packet_is_its_result() -> None:
    """`audit` keeps every packet's result until the corpus is done (for its summary and
    --json). The indices of entries no reader confirmed or checked, which the leak audit
    needs, go once the packet is audited: N4-000001's result was 2.0 MB in memory with them
    (5.8 MB for an N5 packet of the 1,000-packet corpus, whose audit grew 1.9 to 2.8 GB)."""
    import pickle
    import tracemalloc

    from packetbench.audit import audit_packet

    result = audit_packet(PACKETS / "N4-000001")
    assert any(d.findings for d in result.documents)  # not_checked: it has scans
    assert all(
        not (d.unchecked_fields or d.unchecked_strings or d.unconfirmed_fields)
        for d in result.documents
    )
    data = pickle.dumps(result)  # what a worker process sends the command
    tracemalloc.start()
    try:
        kept = pickle.loads(data)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kept.to_json() == result.to_json()
    assert held < 400_000
