"""Pages whose text layer is gone are checked by OCR, and only by OCR.

Until scan patterns exist, the test makes its own scans: canonical pages rendered to images and
written back as image-only PDFs (pypdfium2 -> PIL, which reportlab already requires), with a
manifest entry saying so.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest

from packetbench.audit import audit_packets
from packetbench.reading.pdftext import PdfText
from tests.support.audit import Run, audit_json, edit_json, findings
from tests.support.ocr import needs_tesseract

SCANNED = ("sov_pdf", "acord_140")  # one page each: a table and a form with checkboxes


def rasterize(packet: Path, doc_id: str, dpi: int = 200) -> None:
    """Replace a PDF by an image-only copy of its pages; its manifest says it is a scan."""
    manifest_path = packet / f"manifest_{doc_id}.json"
    manifest = json.loads(manifest_path.read_text())
    file = packet / manifest["file"]
    pdf = pdfium.PdfDocument(file)
    images = [pdf[i].render(scale=dpi / 72, grayscale=True).to_pil() for i in range(len(pdf))]
    pdf.close()
    images[0].save(file, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    manifest["sha256"] = hashlib.sha256(file.read_bytes()).hexdigest()
    manifest["patterns_applied"] = [
        {
            "id": "scan.clean",
            "name": "clean scan",
            "phase": "scan",
            "pages_affected": list(range(1, len(images) + 1)),
            "ground_truth_delta": None,
        }
    ]
    manifest_path.write_text(json.dumps(manifest))


@pytest.fixture
def scanned(packet: Path) -> Path:
    for doc_id in SCANNED:
        rasterize(packet, doc_id)
    return packet


@pytest.mark.slow
def test_wrong_is_told_from_not_checked(run_cli: Run, scanned: Path) -> None:
    """Scans audited without --ocr are "not verified" (exit 3); a wrong value beside them
    makes the audit fail (exit 1), as a CI job must be able to tell apart."""
    result = run_cli("audit", "--packets", str(scanned))
    assert result.returncode == 3, result.stdout[-2000:]
    assert result.stdout.splitlines()[-1].startswith("audit not verified (exit 3): ")
    edit_json(
        scanned / "field_truth_loss_run_csv.json",
        lambda d: d["fields"][0].update(rendered_as="not what the cell says"),
    )
    code, report = audit_json(run_cli, scanned)
    assert (code, report["status"]) == (1, "failed")
    result = run_cli("audit", "--packets", str(scanned))
    assert result.returncode == 1 and result.stdout.splitlines()[-1].startswith("audit FAILED: ")


def _located(packet: Path, doc_id: str) -> int:
    fields = json.loads((packet / f"field_truth_{doc_id}.json").read_text())["fields"]
    return sum(len(entry["locations"]) for entry in fields)


@pytest.mark.slow
def test_scanned_pages_are_not_checked_without_ocr(run_cli: Run, scanned: Path) -> None:
    for doc_id in SCANNED:  # the rasterized copies really have no text layer
        with PdfText(scanned / f"{doc_id}.pdf") as pdf, pdf.page(1) as layer:
            assert layer.text.strip() == ""
    code, report = audit_json(run_cli, scanned)
    assert (code, report["status"]) == (3, "not_verified")
    not_checked = [f for f in findings(report) if f["problem"] == "not_checked"]
    assert sorted(f["doc_id"] for f in not_checked) == sorted(SCANNED)
    assert all("run with --ocr" in f["detail"] for f in not_checked)
    assert report["totals"]["fields_not_checked"] == sum(_located(scanned, d) for d in SCANNED)
    documents = {d["doc_id"]: d for d in report["packets"][0]["documents"]}
    assert documents["sov_pdf"]["fields"] == {} and documents["sov_pdf"]["ocr_pages"] == [1]
    # Everything else was still read through its text layer, and found; values nobody could
    # read are neither leaks nor coincidences.
    assert report["totals"]["findings"]["missing"] == report["totals"]["findings"]["leak"] == 0
    assert documents["acord_125"]["fields"]["pdf"]["found"] > 100


@needs_tesseract
@pytest.mark.slow
def test_ocr_reads_scanned_pages(run_cli: Run, scanned: Path) -> None:
    code, report = audit_json(run_cli, scanned, ocr=True)
    assert code == 0, findings(report)
    documents = {d["doc_id"]: d for d in report["packets"][0]["documents"]}
    for doc_id in SCANNED:
        ocr = documents[doc_id]["fields"]["ocr"]
        assert "pdf" not in documents[doc_id]["fields"]
        assert ocr["checked"] == _located(scanned, doc_id) and ocr["found"] == ocr["checked"]
        # Most values are read inside their own box, not only somewhere on the page.
        assert ocr["found_outside_box"] <= ocr["checked"] // 10
        strings = documents[doc_id]["strings"]["ocr"]
        assert strings["found"] == strings["checked"] > 50
    assert documents["acord_125"]["fields"]["pdf"]["found"] > 100  # text layer elsewhere


@needs_tesseract
@pytest.mark.slow
def test_ocr_misses_what_the_scan_does_not_show(scanned: Path) -> None:
    def street(data: dict[str, Any]) -> None:
        entry = next(e for e in data["fields"] if e["path"] == "buildings[0].address.street")
        entry["rendered_as"] = entry["value"] = "7631 Johnson Harbor"

    def tenant(data: dict[str, Any]) -> None:  # claim the empty box is ticked
        entry = next(e for e in data["fields"] if e["path"] == "premises[0].interest.tenant")
        entry["rendered_as"], entry["value"] = "X", "Yes"

    edit_json(scanned / "field_truth_sov_pdf.json", street)
    edit_json(scanned / "field_truth_acord_140.json", tenant)
    result = audit_packets([scanned], ocr=True)
    missing = {f.path: f for f in result.findings() if f.problem == "missing"}
    assert sorted(missing) == ["buildings[0].address.street", "premises[0].interest.tenant"]
    assert all((f.reader, f.page) == ("ocr", 1) for f in missing.values())
    assert "Johnson Village" in missing["buildings[0].address.street"].got
    assert missing["premises[0].interest.tenant"].got.startswith("empty box")


@pytest.mark.parametrize(
    ("level", "found", "checked", "fails"),
    [
        ("moderate", 55, 58, False),  # three unreadable accents on one page: a sample, not a fault
        ("moderate", 48, 58, True),  # 83 %: far below 95 % even for 58 values
        ("clean", 9_870, 10_117, True),  # 97.6 % of ten thousand: below 98 % for sure
        ("clean", 9_950, 10_117, False),
        ("fax", 9, 10, False),
        ("fax", 5, 10, True),
    ],
)
def test_a_scan_level_fails_when_its_recall_is_surely_below_the_minimum(
    level: str, found: int, checked: int, fails: bool
) -> None:
    from packetbench.audit.result import (
        DocumentAudit,
        PacketAudit,
        Tally,
        recall_findings,
    )

    document = DocumentAudit(
        "acord_125", "pdf", "acord_125.pdf", 1, scans={level: {"fields": Tally(checked, found)}}
    )
    findings = recall_findings(PacketAudit("N3-000001", "x", [document]))
    assert bool(findings) is fails
    if fails:
        assert findings[0].problem == "ocr_recall" and findings[0].path == level


@pytest.mark.parametrize(
    ("read", "expected", "same"),
    [
        ("Simon Brokerage", "Simön Brokerage", True),  # the English model has no accents
        ("lvanstad", "Ivanstad", True),  # capital I and small l: one glyph
        ("025896314", "O25896314", True),  # a letter O among digits reads as 0
        ("0646Logan Prairie", "0646 Logan Prairie", True),  # words glued
        ("Sim6n Brokerage", "Simön Brokerage", False),  # a misread is still a misread
        ("$2900", "82900", False),
        ("Company The Cincinnati Insurance", "The Cincinnati Insurance Company", False),
    ],
)
def test_ocr_text_is_compared_with_what_tesseract_cannot_tell_apart_folded(
    read: str, expected: str, same: bool
) -> None:
    from packetbench.reading.text import same_text

    assert same_text(read, expected) is same


def test_a_hidden_misreading_read_only_where_ocr_misread_a_shown_value_is_explained() -> None:
    """An invisible OCR layer says "$8,001" over a shown "$3,001"; tesseract may read the
    image the same wrong way. Explained only while every place OCR reads it is such a box."""
    from collections import Counter

    from packetbench.audit.matching import misread_everywhere
    from packetbench.reading.page import OcrPage
    from packetbench.reading.tesseract import Word
    from packetbench.reading.text import folded

    words = [
        Word("TOTAL", 10, 10, 60, 20),
        Word("$8,001", 100, 10, 160, 20),
        Word("Claim", 10, 40, 60, 50),
    ]
    scan = OcrPage(words, 300 / 72, 0.0, 792.0)
    misread = Counter({folded("$8,001"): 1})
    assert misread_everywhere(scan, "$8,001", misread)
    assert not misread_everywhere(scan, "$8,001", Counter())  # nothing misread: visible
    twice = OcrPage([*words, Word("$8,001", 100, 40, 160, 50)], 300 / 72, 0.0, 792.0)
    assert twice.count("$8,001") == 2
    assert not misread_everywhere(twice, "$8,001", misread)  # once more than explained
    assert not misread_everywhere(scan, "$9,999", misread)  # not on the page at all


def test_hidden_text_is_looked_for_as_whole_words() -> None:
    """ "$8,001" folds to "8 001": found as those words or merged into one word, never
    inside a longer number (the loose merged-words rule of visible strings)."""
    from packetbench.reading.page import OcrPage
    from packetbench.reading.tesseract import Word

    def page(*texts: str) -> OcrPage:
        return OcrPage(
            [Word(t, 10.0 * i, 10, 10.0 * i + 8, 20) for i, t in enumerate(texts)],
            300 / 72,
            0.0,
            792.0,
        )

    assert page("TOTAL", "$8,001").shows("$8,001")
    assert page("TOTAL", "8001").shows("$8,001")
    claim = page("Claim", "21880012", "closed")
    assert claim.has_string("$8,001") and not claim.shows("$8,001")


def test_hidden_text_is_never_the_last_pieces_of_a_longer_word() -> None:
    """N5 seed 4404, acord_160: the invisible OCR layer misread a street number "300" as
    "800"; the page shows "52,800" in the same row (a building's area), which folds to
    "52 800". That "800" is no word on the page: it neither shows the hidden text nor counts
    as a sighting of it. Seen as a word, or as the whole of a grouped number, it is."""
    from packetbench.reading.page import OcrPage
    from packetbench.reading.tesseract import Word

    def page(*texts: str) -> OcrPage:
        return OcrPage(
            [Word(t, 30.0 * i, 10, 30.0 * i + 24, 30) for i, t in enumerate(texts)],
            300 / 72,
            0.0,
            792.0,
        )

    row = page("4", "1", "300", "Ellis", "Road", "FR", "2017", "5", "52,800", "100%")
    assert row.on_page("800")  # a located value's loose "anywhere on the page" is unchanged
    assert not row.shows("800") and row.count("800") == 0
    assert row.shows("52,800") and row.count("$52,800") == 1
    assert not row.shows("2,800") and not page("CL-8001").shows("$8,001")
    assert page("Unit", "800").shows("800") and page("Unit", "800").count("800") == 1
    assert page("Total", "52,", "800").shows("52,800")  # OCR split the number in two


def test_hidden_text_the_page_also_shows_is_counted_not_seen() -> None:
    """N5 seed 7306, acord_127: textlayer.clipped hid the tail "Preventive" past a clip after
    a value that itself begins "Preventive maintenance ...". OCR reads "Preventive" once, as
    often as the page shows it in its own right: no sighting of the hidden text. Read once
    more than that, it is one."""
    from packetbench.audit.matching import shown_elsewhere
    from packetbench.reading.page import OcrPage
    from packetbench.reading.tesseract import Word

    shown = ["Preventive maintenance every 10,000 miles at the company shop.", "52,800"]
    assert shown_elsewhere("Preventive", shown) == 1
    assert shown_elsewhere("preventive", shown) == 1  # folded as OCR is
    assert shown_elsewhere("Prevent", shown) == 0  # whole words only
    assert shown_elsewhere("800", shown) == 0  # never the last pieces of a longer word
    assert shown_elsewhere("10,000 miles", shown) == 1

    def page(*texts: str) -> OcrPage:
        return OcrPage(
            [Word(t, 30.0 * i, 10, 30.0 * i + 24, 30) for i, t in enumerate(texts)],
            300 / 72,
            0.0,
            792.0,
        )

    once = page("Preventive", "maintenance", "every", "10,000", "miles")
    twice = page("Preventive", "maintenance", "every", "10,000", "miles", "|", "Preventive")
    assert once.count("Preventive") == 1 <= shown_elsewhere("Preventive", shown)
    assert twice.count("Preventive") == 2 > shown_elsewhere("Preventive", shown)


def test_hidden_text_is_looked_for_within_one_phrase() -> None:
    """A hidden "2.15" folds to "2 15": a "2" ending one table row and a "15" starting the
    next, or two cells a column apart, are not it; "2.15" or "2" "15" a word space apart
    are (pixel words of a 300 dpi page, 20 px high)."""
    from packetbench.reading.page import OcrPage
    from packetbench.reading.tesseract import Word

    def page(*words: tuple[str, float, float]) -> OcrPage:
        return OcrPage(
            [Word(t, x, y, x + 14 * len(t), y + 20) for t, x, y in words], 300 / 72, 0.0, 792.0
        )

    rows = page(("Bldg", 100, 10), ("2", 2375, 10), ("15", 208, 56), ("Main", 300, 56))
    assert rows.on_page("2.15") and not rows.shows("2.15")
    cells = page(("2", 100, 10), ("15", 150, 10))  # 36 px apart: the next column
    assert not cells.shows("2.15")
    assert page(("2", 100, 10), ("15", 120, 10)).shows("2.15")  # a word space
    assert page(("Rate", 10, 10), ("2.15", 80, 10)).shows("2.15")
    assert page(("Harbor", 10, 10), ("Point", 98, 10)).shows("Harbor Point")


def test_a_hidden_confusion_of_a_shown_word_is_counted_not_seen() -> None:
    """Fresh N3 seed 800015, engineering_report page 3: an invisible OCR layer carried "lirnit"
    for the "limit" its page shows, and tesseract read the image's "limit" as "lirnit" too.
    One OCR confusion of a word the page shows (`attack.CONFUSIONS`) proves nothing about the
    hidden word, once per such word; a sighting beyond that is one."""
    from packetbench.audit.matching import confusable_shown

    shown = ["the per occurrence limit applies", "no limit on defence", "Harbor Lane"]
    assert confusable_shown("lirnit", shown) == 2  # rn for m, in each "limit"
    assert confusable_shown("Lirnit", shown) == 2  # folded as OCR is
    assert confusable_shown("limit", shown) == 0  # the word itself is shown_elsewhere's
    assert confusable_shown("Lone", shown) == 1  # "o" read for "a"
    assert confusable_shown("Harbcr", shown) == 0  # "c" for "o" is no confusion of the table
    assert confusable_shown("Lane", ["Lone"]) == 0  # each confusion goes one way
    assert confusable_shown("lirnit applies", shown) == 0  # a single word only
