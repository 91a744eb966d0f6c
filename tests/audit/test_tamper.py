"""Each way of breaking a packet's truth is caught, with the right path in the message."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from packetbench.audit import audit_packets
from packetbench.audit.leaks import audit_hidden
from packetbench.audit.result import DocumentAudit, Finding
from packetbench.truth.documents import read_packet
from packetbench.truth.universe import Universe
from tests.support.audit import Run, audit_json, edit_json, findings


def _field(data: dict[str, Any], path: str) -> dict[str, Any]:
    return next(entry for entry in data["fields"] if entry["path"] == path)


def _problems(packet: Path) -> list[Finding]:
    """The findings of the library audit of `packet` (the command formats the same)."""
    result = audit_packets([packet])
    assert not result.ok
    return list(result.findings())


def _one(packet: Path, problem: str, file: str, path: str) -> Finding:
    found = _problems(packet)
    matching = [f for f in found if (f.problem, f.file, f.path) == (problem, file, path)]
    assert len(matching) == 1, found
    return matching[0]


def _fails_naming(run_cli: Run, packet: Path, problem: str, file: str, path: str) -> str:
    """The human report fails (exit 1) and names problem, file and path on one line."""
    result = run_cli("audit", "--packets", str(packet))
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr
    lines = [
        line
        for line in result.stdout.splitlines()
        if line.strip().startswith(problem) and f"/{file}  {path}" in line
    ]
    assert lines, result.stdout[-3000:]
    assert result.stdout.strip().splitlines()[-1].startswith("audit FAILED: ")
    return lines[0]


@pytest.mark.slow
def test_a_changed_value_is_caught(run_cli: Run, packet: Path) -> None:
    edit_json(
        packet / "field_truth_sov_pdf.json",
        lambda d: _field(d, "buildings[0].tiv").update(value=78406001.0),
    )
    line = _fails_naming(
        run_cli, packet, "value_mismatch", "field_truth_sov_pdf.json", "buildings[0].tiv"
    )
    assert "78406001.0" in line and "$78,406,000" in line


def test_a_changed_rendered_as_is_caught(packet: Path) -> None:
    name = _field(json.loads((packet / "field_truth_acord_125.json").read_text()), "agency.name")[
        "rendered_as"
    ]

    def change(data: dict[str, Any]) -> None:
        _field(data, "agency.name").update(rendered_as=f"{name} Inc", value=f"{name} Inc")

    edit_json(packet / "field_truth_acord_125.json", change)
    found = _one(packet, "missing", "field_truth_acord_125.json", "agency.name")
    assert (found.reader, found.page, found.got) == ("pdf", 1, name)
    assert found.where.startswith("page 1 bbox [")


@pytest.mark.slow
def test_a_bbox_moved_off_its_text_is_caught(run_cli: Run, packet: Path) -> None:
    def move(data: dict[str, Any]) -> None:
        bbox = _field(data, "policies[0].carrier")["locations"][0]["bbox"]
        bbox[1], bbox[3] = bbox[1] - 14, bbox[3] - 14  # one line down

    carrier = _field(
        json.loads((packet / "field_truth_loss_run_pdf.json").read_text()), "policies[0].carrier"
    )["rendered_as"]
    edit_json(packet / "field_truth_loss_run_pdf.json", move)
    code, report = audit_json(run_cli, packet)
    assert code == 1
    [found] = [f for f in findings(report) if f["problem"] == "missing"]
    assert (found["file"], found["path"], found["reader"], found["page"]) == (
        "field_truth_loss_run_pdf.json",
        "policies[0].carrier",
        "pdf",
        1,
    )
    assert found["expected"] == carrier
    assert found["got"] != found["expected"]
    assert report["totals"]["fields_found"] == report["totals"]["fields_checked"] - 1


@pytest.mark.slow
def test_a_deleted_workbook_cell_is_caught(packet: Path) -> None:
    book = openpyxl.load_workbook(packet / "sov_excel.xlsx")
    book["SOV"]["Q6"] = None
    book.save(packet / "sov_excel.xlsx")
    found = _one(packet, "missing", "field_truth_sov_excel.json", "buildings[0].tiv")
    assert (found.reader, found.where, found.expected, found.got) == (
        "xlsx",
        "SOV!Q6",
        "78406000",
        "",
    )
    # The file no longer matches its manifest either.
    assert "differs from the manifest" in _one(packet, "integrity", "sov_excel.xlsx", "").detail


@pytest.mark.slow
def test_a_hidden_sheet_is_not_visible(packet: Path) -> None:
    book = openpyxl.load_workbook(packet / "loss_run_excel.xlsx")
    book.create_sheet("Spare")  # a hidden sheet needs a visible one beside it
    book.worksheets[0].sheet_state = "hidden"
    book.save(packet / "loss_run_excel.xlsx")
    missing = [f for f in _problems(packet) if f.problem == "missing"]
    assert missing and all(f.detail.endswith("is hidden") for f in missing)
    assert {f.file for f in missing} == {"field_truth_loss_run_excel.json"}
    hidden_strings = [f for f in _problems(packet) if f.problem == "string_missing"]
    assert hidden_strings and all("hidden" in f.detail for f in hidden_strings)


def test_a_hidden_row_is_not_visible(packet: Path) -> None:
    book = openpyxl.load_workbook(packet / "sov_excel.xlsx")
    book["SOV"].row_dimensions[6].hidden = True  # the first building's row
    book.save(packet / "sov_excel.xlsx")
    found = _one(packet, "missing", "field_truth_sov_excel.json", "buildings[0].tiv")
    assert found.detail == "SOV!Q6 is in a hidden row or column"


def test_a_deleted_csv_cell_is_caught(packet: Path) -> None:
    csv_file = packet / "loss_run_csv.csv"
    header, row = csv_file.read_bytes().decode().split("\r\n")[:2]
    csv_file.write_bytes(f"{header}\r\n{row.rsplit(',', 1)[0]}\r\n".encode())
    incurred = _field(
        json.loads((packet / "field_truth_loss_run_csv.json").read_text()),
        "policies[0].claims[0].incurred",
    )["rendered_as"]
    found = _one(
        packet, "missing", "field_truth_loss_run_csv.json", "policies[0].claims[0].incurred"
    )
    assert (found.reader, found.where, found.expected) == ("csv", "row 1, column 17", incurred)
    assert "no column 17" in found.detail


LAYOUT_VALUES: dict[str, Callable[[Path], str]] = {
    "a bbox coordinate": lambda p: str(
        json.loads((p / "field_truth_sov_pdf.json").read_text())["fields"][0]["locations"][0][
            "bbox"
        ][1]
    ),
    "a whole bbox": lambda p: json.dumps(
        json.loads((p / "field_truth_sov_pdf.json").read_text())["fields"][0]["locations"][0][
            "bbox"
        ]
    ),
    "a sha256": lambda p: json.loads((p / "manifest_sov_pdf.json").read_text())["sha256"],
    "a file name": lambda p: "loss_run_excel.xlsx",
    "a cell reference": lambda p: "Q6",
}


@pytest.mark.parametrize("kind", sorted(LAYOUT_VALUES))
@pytest.mark.slow
def test_a_layout_value_in_the_universe_is_a_leak(packet: Path, kind: str) -> None:
    value = LAYOUT_VALUES[kind](packet)
    edit_json(
        packet / "rendered_universe_acord_140.json",
        lambda d: d["strings"].append({"text": value, "page": 1}),
    )
    index = (
        len(json.loads((packet / "rendered_universe_acord_140.json").read_text())["strings"]) - 1
    )
    leak = _one(packet, "leak", "rendered_universe_acord_140.json", f"strings[{index}]")
    assert leak.got == value and "is not confirmed on the page" in leak.detail
    _one(packet, "string_missing", "rendered_universe_acord_140.json", f"strings[{index}]")


@pytest.mark.slow
def test_a_coordinate_as_a_field_value_is_a_leak(run_cli: Run, packet: Path) -> None:
    coordinate = json.loads((packet / "field_truth_sov_pdf.json").read_text())["fields"][0][
        "locations"
    ][0]["bbox"][1]
    edit_json(
        packet / "field_truth_loss_run_pdf.json", lambda d: d["fields"][0].update(value=coordinate)
    )
    path = json.loads((packet / "field_truth_loss_run_pdf.json").read_text())["fields"][0]["path"]
    line = _fails_naming(
        run_cli, packet, "leak", "field_truth_loss_run_pdf.json", f"{path} (value)"
    )
    assert "equals a bbox coordinate" in line


def test_untraceable_values_are_caught(packet: Path) -> None:
    edit_json(
        packet / "field_truth_sov_pdf.json", lambda d: _field(d, "prepared_by").update(locations=[])
    )
    edit_json(packet / "rendered_universe_sov_pdf.json", lambda d: d["strings"][3].pop("page"))
    untraceable = [(f.file, f.path) for f in _problems(packet) if f.problem == "untraceable"]
    assert untraceable == [
        ("field_truth_sov_pdf.json", "prepared_by"),
        ("rendered_universe_sov_pdf.json", "strings[3]"),
    ]


def test_a_replaced_document_is_caught(packet: Path) -> None:
    shutil.copy(packet / "loss_run_pdf.pdf", packet / "sov_pdf.pdf")
    problems = {f.problem for f in _problems(packet) if f.doc_id == "sov_pdf"}
    assert {"integrity", "missing", "string_missing"} <= problems


def test_truth_files_for_an_unlisted_document_are_caught(packet: Path) -> None:
    shutil.copy(packet / "field_truth_sov_pdf.json", packet / "field_truth_sov_pdf_old.json")
    _one(packet, "integrity", "field_truth_sov_pdf_old.json", "")


def test_hidden_text_must_stay_out_of_the_universe(packet: Path) -> None:
    edit_json(
        packet / "rendered_universe_sov_pdf.json",
        lambda d: d["hidden"].extend(
            [
                {"text": "Invisible Reinsurance Note", "page": 1},
                {"text": "STATEMENT OF VALUES", "page": 1},
            ]
        ),
    )
    loaded = read_packet(packet)
    audits = {
        doc.doc_id: DocumentAudit(doc.doc_id, doc.format, doc.file.name, 1)
        for doc in loaded.documents
    }
    clean = Universe()
    assert audit_hidden(loaded, clean, audits) == []
    assert audits["sov_pdf"].hidden == 2
    leaky = Universe()
    leaky.add("Invisible Reinsurance Note")  # as if the builder had read `hidden`
    leaky.add("STATEMENT OF VALUES")  # drawn visibly too: not a leak
    [finding] = audit_hidden(loaded, leaky, audits)
    assert (finding.problem, finding.path) == ("hidden_leak", "hidden[0]")


def _truth(data: dict[str, Any]) -> dict[str, Any]:
    truth: dict[str, Any] = data["truth"]
    return truth


@pytest.mark.slow
def test_a_document_truth_that_breaks_its_schema_is_caught(run_cli: Run, packet: Path) -> None:
    edit_json(
        packet / "document_truth_sov_pdf.json",
        lambda d: _truth(d)["buildings"][0].update(tiv="lots"),
    )
    line = _fails_naming(
        run_cli, packet, "integrity", "document_truth_sov_pdf.json", "buildings/0/tiv"
    )
    assert "'lots' is not of type 'number'" in line


def test_a_document_truth_missing_a_key_is_caught(packet: Path) -> None:
    edit_json(packet / "document_truth_acord_140.json", lambda d: _truth(d).pop("premises"))
    found = _one(packet, "integrity", "document_truth_acord_140.json", "(root)")
    assert "'premises' is a required property" in found.detail


def test_a_document_truth_disagreeing_with_field_truth_is_caught(packet: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        building = _truth(data)["buildings"][0]
        building["tiv"] += 1000
        building["year_built"] = None

    edit_json(packet / "document_truth_sov_excel.json", change)
    tiv = _one(packet, "integrity", "document_truth_sov_excel.json", "buildings[0].tiv")
    assert tiv.expected == "78406000.0" and tiv.got == "78407000.0"
    assert "field_truth" in tiv.detail
    year = _one(packet, "integrity", "document_truth_sov_excel.json", "buildings[0].year_built")
    assert year.got == "None" and "null" in year.detail


def test_a_document_truth_value_field_truth_lacks_is_caught(packet: Path) -> None:
    edit_json(
        packet / "document_truth_loss_run_pdf.json",
        lambda d: _truth(d).update(prepared_by="Someone Else"),
    )
    found = _one(packet, "integrity", "document_truth_loss_run_pdf.json", "prepared_by")
    assert "no field_truth entry" in found.detail


@pytest.mark.slow
def test_a_manifest_hash_that_is_not_the_files_is_caught(run_cli: Run, packet: Path) -> None:
    edit_json(packet / "manifest_loss_run_csv.json", lambda d: d.update(sha256="0" * 64))
    line = _fails_naming(run_cli, packet, "integrity", "loss_run_csv.csv", "")
    assert "differs from the manifest's" in line


def _unaccounted(packet: Path) -> list[Finding]:
    return [f for f in audit_packets([packet]).findings() if f.problem == "unaccounted"]


def test_a_leaf_nulled_in_both_truth_files_while_on_the_page_is_caught(
    run_cli: Run, packet: Path
) -> None:
    """The value check reads truth at its location; a value the truth no longer mentions but
    the page still shows is only caught by accounting for the page's words."""
    assert _unaccounted(packet) == []
    edit_json(
        packet / "document_truth_acord_125.json",
        lambda d: d["truth"]["agency"]["address"].update(city=None),
    )
    edit_json(
        packet / "field_truth_acord_125.json",
        lambda d: d.update(fields=[e for e in d["fields"] if e["path"] != "agency.address.city"]),
    )
    (found,) = _unaccounted(packet)
    assert (found.doc_id, found.file, found.page) == ("acord_125", "acord_125.pdf", 1)
    assert found.got == "'Walkertown'"
    line = _fails_naming(run_cli, packet, "unaccounted", "acord_125.pdf", "page 1")
    assert "'Walkertown'" in line and "1 piece(s)" in line


def test_a_visible_string_nobody_declared_is_caught(packet: Path) -> None:
    title = {"text": "COMMERCIAL INSURANCE APPLICATION", "page": 1}
    edit_json(packet / "rendered_universe_acord_125.json", lambda d: d["strings"].remove(title))
    (found,) = _unaccounted(packet)
    assert found.page == 1
    assert found.got == "'COMMERCIAL', 'INSURANCE', 'APPLICATION'"


def test_a_word_drawn_twice_is_accounted_for_only_twice(packet: Path) -> None:
    """Words count as a multiset: the same word once more on the page than the truth draws
    it is a finding, even though the word itself is accounted for elsewhere on the page."""
    edit_json(
        packet / "rendered_universe_acord_125.json",
        lambda d: d["strings"].remove(next(s for s in d["strings"] if s["text"] == "PB-125")),
    )
    (found,) = _unaccounted(packet)
    assert found.got == "'PB-125'"


def _null_leaf(
    packet: Path, doc_id: str, path: str, set_null: Callable[[dict[str, Any]], Any]
) -> None:
    """Null a leaf in both truth files (document truth and field truth agree), as a truth
    writer that lost it would, while the file still shows it."""
    edit_json(packet / f"document_truth_{doc_id}.json", lambda d: set_null(d["truth"]))
    edit_json(
        packet / f"field_truth_{doc_id}.json",
        lambda d: d.update(fields=[e for e in d["fields"] if e["path"] != path]),
    )


def test_a_workbook_leaf_nulled_in_both_truth_files_is_caught(packet: Path) -> None:
    """A workbook cell that is no located value and no declared string is a finding; the
    universe string that still shows it names the leaf the truth lost."""
    assert _unaccounted(packet) == []
    _null_leaf(
        packet, "sov_excel", "buildings[0].tiv", lambda t: t["buildings"][0].update(tiv=None)
    )
    (found,) = _unaccounted(packet)
    assert (found.doc_id, found.file, found.reader, found.page) == (
        "sov_excel",
        "sov_excel.xlsx",
        "xlsx",
        1,
    )
    assert found.where == "sheet 'SOV'" and found.got == "'78406000'"
    assert "1 visible cell(s)" in found.detail and "buildings[0].tiv" in found.detail


def test_a_csv_leaf_nulled_in_both_truth_files_is_caught(packet: Path) -> None:
    _null_leaf(
        packet,
        "loss_run_csv",
        "policies[0].claims[0].incurred",
        lambda t: t["policies"][0]["claims"][0].update(incurred=None),
    )
    (found,) = _unaccounted(packet)
    assert (found.file, found.reader, found.got) == ("loss_run_csv.csv", "csv", "'18303.30'")
    assert "policies[0].claims[0].incurred" in found.detail


def test_a_workbook_cell_nobody_declared_is_caught(packet: Path) -> None:
    book = openpyxl.load_workbook(packet / "sov_excel.xlsx")
    sheet = book["SOV"]
    sheet.cell(row=sheet.max_row + 2, column=1, value="Values per broker, unverified")
    book.create_sheet("Notes")  # a visible tab's name is visible text too
    book.save(packet / "sov_excel.xlsx")
    found = {f.where: f for f in _unaccounted(packet)}
    assert set(found) == {"sheet 'SOV'", "sheet 'Notes'"}
    assert found["sheet 'SOV'"].got == "'Values per broker, unverified'"
    assert found["sheet 'Notes'"].got == "'Notes'"
    # a hidden sheet's cells are not visible text
    book = openpyxl.load_workbook(packet / "sov_excel.xlsx")
    book["Notes"].sheet_state = "hidden"
    book.save(packet / "sov_excel.xlsx")
    assert [f.where for f in _unaccounted(packet)] == ["sheet 'SOV'"]
