"""What is sent for a document: PDF natively, its text layer, its pages as images; a workbook
sheet by sheet with hidden sheets, rows and columns skipped and recorded."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import openpyxl
import pypdfium2 as pdfium
import pytest

from packetbench.benchmark.harness import inputs, prompts
from packetbench.core.errors import BadInput
from packetbench.generator.schema_files import all_schemas
from packetbench.truth.packets import load_packet
from tests.support.paths import PACKETS


def _doc(packet_dir: Path, doc_id: str):  # type: ignore[no-untyped-def]
    packet = load_packet(packet_dir)
    return packet, next(d for d in packet.documents if d.doc_id == doc_id)


def truth_name(packet) -> str:  # type: ignore[no-untyped-def]
    return str(packet.truth("sov_excel")["insured_name"])


def test_pdf_modes() -> None:
    packet, doc = _doc(PACKETS / "N1-000001", "acord_125")
    native = inputs.build(packet, doc, "native")
    assert [p.kind for p in native.parts] == ["pdf"] and native.pages == 3
    assert native.parts[0].data == (packet.path / doc.file).read_bytes()
    text = inputs.build(packet, doc, "text")
    assert [p.label for p in text.parts] == ["page 1", "page 2", "page 3"]
    truth = packet.truth(doc.doc_id)
    assert truth["applicant"]["name"] in text.parts[0].text  # the text layer, read back
    images = inputs.build(packet, doc, "images")
    assert [p.kind for p in images.parts] == ["png"] * 3
    page = pdfium.PdfDocument(packet.path / doc.file)[0]
    width = round(page.get_width() * inputs.IMAGE_DPI / 72)
    assert images.parts[0].data[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(images.parts[0].data[16:20], "big") == width
    # A provider that takes no PDF files gets the text layer instead.
    assert inputs.build(packet, doc, "native", native_pdf=False).mode == "text"


def test_workbook_skips_hidden_sheets_rows_and_columns(tmp_path: Path) -> None:
    folder = tmp_path / "N1-000001"
    shutil.copytree(PACKETS / "N1-000001", folder)
    path = folder / "sov_excel.xlsx"
    book = openpyxl.load_workbook(path)
    secret = book.create_sheet("Internal notes")
    secret["A1"] = "underwriter only: do not quote"
    secret.sheet_state = "hidden"
    sheet = book["SOV"]
    rows, columns = sheet.max_row, sheet.max_column
    sheet.cell(row=rows + 1, column=1, value="HIDDEN ROW MARKER")
    sheet.row_dimensions[rows + 1].hidden = True
    sheet.cell(row=1, column=columns + 2, value="HIDDEN COLUMN MARKER")
    sheet.column_dimensions[openpyxl.utils.get_column_letter(columns + 2)].hidden = True
    buffer = io.BytesIO()
    book.save(buffer)
    path.write_bytes(buffer.getvalue())
    packet, doc = _doc(folder, "sov_excel")
    document = inputs.build(packet, doc, "images")  # workbooks go as text in every mode
    assert document.mode == "text" and document.sheets == ("SOV",)
    assert document.hidden_sheets == ("Internal notes",)
    assert (document.hidden_rows, document.hidden_columns) == (1, 1)
    text = document.parts[0].text
    assert text.startswith("[sheet 'SOV']\n") and "do not quote" not in text
    assert "MARKER" not in text and len(text.splitlines()) == rows + 1  # + the label line
    assert truth_name(packet) in text
    assert document.describe()["hidden_sheets_skipped"] == ["Internal notes"]
    prompt = prompts.render("sov", all_schemas()["sov"], document, "Answer.")
    assert "Hidden sheets were not sent" in prompt.instructions
    assert "a workbook, sent sheet by sheet as CSV: SOV" in prompt.instructions


def test_csv_goes_as_written_and_bad_files_are_named(tmp_path: Path) -> None:
    packet, doc = _doc(PACKETS / "N1-000001", "loss_run_csv")
    document = inputs.build(packet, doc, "native")
    assert document.parts[0].text == (packet.path / doc.file).read_bytes().decode("utf-8-sig")
    folder = tmp_path / "N1-000001"
    shutil.copytree(PACKETS / "N1-000001", folder)
    (folder / "sov_pdf.pdf").write_bytes(b"%PDF-1.4 broken")
    packet, doc = _doc(folder, "sov_pdf")
    with pytest.raises(BadInput, match=r"sov_pdf\.pdf: not a readable PDF"):
        inputs.build(packet, doc, "text")


def test_every_family_has_a_prompt_and_missing_ones_are_named() -> None:
    names = set(all_schemas())
    prompts.check(names)
    assert set(prompts.template_hashes(names)) == {prompts.template_name(n) for n in names}
    with pytest.raises(BadInput, match=r"prompts/umbrella\.j2: missing"):
        prompts.check({"umbrella"})


def _csv_packet(tmp_path: Path, only: str) -> Path:
    """An N3 packet holding the loss-run CSV export with CSV patterns `only` forced on."""
    from packetbench.generator.packet import build_packet, packet_id
    from packetbench.generator.tiers import resolve

    knobs = resolve("N3", {"documents": ("loss_run_csv",), "patterns.only": tuple(only.split(","))})
    folder = tmp_path / packet_id("N3", 1)
    folder.mkdir()
    for name, data in build_packet("N3", 1, knobs).files.items():
        (folder / name).write_bytes(data)
    return folder


def test_csv_in_windows_1252_with_semicolons_is_decoded_and_the_choices_recorded(
    tmp_path: Path,
) -> None:
    folder = _csv_packet(tmp_path, "csv.cp1252,csv.semicolon,csv.header_preamble")
    data = (folder / "loss_run_csv.csv").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # really Windows-1252
    packet, doc = _doc(folder, "loss_run_csv")
    document = inputs.build(packet, doc, "native")
    text = document.parts[0].text
    assert text == data.decode("cp1252") and "Claim N\u00ba" in text
    described = document.describe()
    assert described["encoding"] == "cp1252" and described["delimiter"] == "semicolon"
    assert described["preamble_lines"] >= 2
    claim = packet.truth("loss_run_csv")["policies"][0]["claims"][0]["claim_number"]
    assert claim in text


def test_csv_with_a_byte_order_mark_is_sent_without_it(tmp_path: Path) -> None:
    folder = _csv_packet(tmp_path, "csv.bom,csv.tab")
    assert (folder / "loss_run_csv.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    packet, doc = _doc(folder, "loss_run_csv")
    document = inputs.build(packet, doc, "text")
    assert not document.parts[0].text.startswith("\ufeff")
    assert document.describe()["encoding"] == "utf-8-sig"
    assert document.describe()["delimiter"] == "tab"


def test_an_undecodable_csv_is_bad_input_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_bytes(b"Claim,Paid\r\nA\x81\x8d,12\r\n")  # bytes Windows-1252 leaves undefined
    with pytest.raises(BadInput, match=r"export\.csv: neither UTF-8 nor Windows-1252"):
        inputs.build_file(path, "text")
    path.write_bytes(b"Claim,Paid\x00\r\n")
    with pytest.raises(BadInput, match=r"export\.csv: not a text file"):
        inputs.build_file(path, "text")


def test_text_input_records_scanned_and_attacked_pages(tmp_path: Path) -> None:
    """A scanned page's text is empty and recorded as image-only; every page a text-layer or
    scan pattern touched is recorded with the patterns' ids."""
    from packetbench.generator.packet import build_packet
    from packetbench.generator.tiers import resolve

    documents = ("acord_125", "sov_pdf")
    for only, doc_id in (("scan.clean", "acord_125"), ("textlayer.cmap_gaps", "sov_pdf")):
        folder = tmp_path / only
        folder.mkdir()
        knobs = resolve("N3", {"documents": documents, "patterns.only": (only,)})
        for name, data in build_packet("N3", 1, knobs).files.items():
            (folder / name).write_bytes(data)
        packet, doc = _doc(folder, doc_id)
        sent = inputs.build(packet, doc, "text")
        described = sent.describe()
        attacked = described["attacked_pages"]
        assert attacked and all(ids == [only] for ids in attacked.values())
        if only.startswith("scan."):
            assert sent.pages is not None
            assert described["image_only_pages"] == list(range(1, sent.pages + 1))
            assert all(part.text.split("\n", 1)[1].strip() == "" for part in sent.parts)
        else:
            assert "image_only_pages" not in described
            assert "\ufffd" in sent.parts[0].text  # the gapped digits, as a reader gets them
    plain, plain_doc = _doc(PACKETS / "N1-000001", "acord_125")
    assert "attacked_pages" not in inputs.build(plain, plain_doc, "text").describe()


def _padded_workbook(path: Path, member: str, data: bytes, method: int) -> Path:
    """The canonical SOV workbook with one more zip member (which a workbook reader
    ignores): a real workbook whose size, or unpacked size, is past the ceiling."""
    import zipfile

    shutil.copy(PACKETS / "N1-000001" / "sov_excel.xlsx", path)
    with zipfile.ZipFile(path, "a", compression=method) as archive:
        archive.writestr(member, data)
    return path


@pytest.mark.parametrize(
    ("label", "member", "size", "method", "needle"),
    [
        ("11 MB on disk", "xl/media/padding.bin", 11 << 20, 0, "larger than a xlsx file"),
        ("110 MB unpacked", "xl/media/padding.xml", 110 << 20, 8, "unpacks to"),
    ],
)
def test_a_workbook_past_its_ceiling_is_refused_before_it_is_parsed(
    tmp_path: Path, label: str, member: str, size: int, method: int, needle: str
) -> None:
    """A workbook is refused by its size, or by what it unpacks to, before openpyxl reads a
    row (a 15 MB workbook of 3 M rows took 106 s and 1.5 GB before an error record)."""
    import os
    import time

    data = os.urandom(size) if method == 0 else b"\0" * size
    path = _padded_workbook(tmp_path / "big.xlsx", member, data, method)
    started = time.monotonic()
    with pytest.raises(BadInput, match=needle):
        inputs.build_file(path, "text")
    assert time.monotonic() - started < 5, label
