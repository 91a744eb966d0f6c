"""The canonical suite audits clean, with counts that show the audit really read it."""

from __future__ import annotations

import json
from pathlib import Path

from benchmark.audit import audit_packets
from benchmark.universe import build
from tests.benchmark.audit.conftest import Run
from tests.conftest import canonical_documents


def test_the_canonical_suite_audits_clean(canonical_packets: list[Path]) -> None:
    result = audit_packets(canonical_packets)
    assert result.ok, [f for f in result.findings()][:5]
    totals = result.totals()
    assert totals["packets"] == 5 and totals["documents"] == canonical_documents() > 55
    assert totals["fields_found"] == totals["fields_checked"] > 40_000
    assert totals["strings_found"] == totals["strings_checked"] > 50_000
    assert totals["fields_not_checked"] == totals["strings_not_checked"] == 0
    for packet in result.packets:
        for doc in packet.documents:
            reader = {"pdf": "pdf", "xlsx": "xlsx", "csv": "csv"}[doc.format]
            # Every located value of every document was read by its format's reader; a value
            # split across pages (table.row_split) is one reading of its pieces, beside any
            # whole drawing of the same value elsewhere (a form number in a schedule and on
            # its form).
            fields = json.loads((Path(packet.path) / f"field_truth_{doc.doc_id}.json")
                                .read_text())["fields"]
            located = sum(sum("fragment" not in loc for loc in e["locations"])
                          + any("fragment" in loc for loc in e["locations"]) for e in fields)
            assert doc.fields[reader].checked == located > 0, (packet.packet_id, doc.doc_id)
            assert doc.strings[reader].checked > 0
        built = build(Path(packet.path))
        assert packet.universe == built.packet.size()
        assert packet.skipped_keys["locations"] == packet.skipped_keys["path"] > 0
        assert packet.forbidden > 1000
        # Every canonical packet has seed 1, and "1" is drawn on its pages: a coincidence,
        # never a leak.
        assert [c.forbidden_as for c in packet.coincidences if c.value == "1"] == ["the seed"]


def test_the_command_passes_the_suite(run_cli: Run, canonical_packets: list[Path]) -> None:
    """`packetbench audit packets` audits every packet folder inside, in name order."""
    result = run_cli("audit", str(canonical_packets[0].parent))
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("audit passed: ")
    assert f"in 5 packet(s), {canonical_documents()} documents" in last
    rows = [line.split()[1] for line in result.stdout.splitlines() if line.startswith("│ N")]
    assert list(dict.fromkeys(rows)) == [p.name for p in canonical_packets]


def test_json_is_deterministic(run_cli: Run, canonical_packets: list[Path]) -> None:
    outputs = [run_cli("audit", str(canonical_packets[1]), "--json",
                       env={"PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")]
    assert outputs[0] == outputs[1]
    report = json.loads(outputs[0])
    assert list(report) == ["ok", "ocr", "totals", "packets"]
    assert report["ok"] is True and report["totals"]["fields_checked"] > 0
    document = report["packets"][0]["documents"][0]
    assert list(document) == ["doc_id", "format", "file", "pages", "fields", "strings",
                              "ocr_pages", "not_checked", "hidden_confirmed", "findings"]
