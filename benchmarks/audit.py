"""Audit throughput: text-layer pages per second on one core, beside raw pdfium extraction.

    python benchmarks/audit.py [PACKET_DIR ...] [--repeat 5]

Runs on the canonical suite (packets/N*-000001) unless packet folders are given. Every figure
is the best of --repeat runs on one core, files already in the page cache:

1. raw text extraction: pypdfium2 loads each page and its text page and extracts the whole
   text (`get_text_range`); nothing is checked. The ceiling for anything reading text layers.
2. audit: the text-layer audit of the PDF documents (`audit_document`, the issue's target of
   at least 500 pages/s per core): every located value read back inside its bbox and every
   visible string looked up in its page's text, plus the value/rendered_as and file-hash
   checks. Both per packet (page density grows with the tier) and over all of them.
3. whole audit (`audit_packet`): also workbooks, CSV files, the universe and the leak audit;
   pages/s counts PDF pages.

Then where the time of (2) goes per page, and what one `get_text_bounded` call per value
(the obvious implementation) would cost.

4. With --ocr (needs tesseract): the OCR audit of the documents that have pages only pixels
   can prove (scans, handwriting, attacked text layers), in OCR pages per second per core
   (CPU time of this process and of its tesseract processes), beside two floors measured in
   the same run on the same pages: one whole-page tesseract call per page (pdfium rendering
   the page at the OCR resolution, then tesseract on it: the floor of any audit that OCRs
   every page once) and one clean pdfium render per page alone (the floor of an audit that
   compares pixels and calls OCR only where that cannot settle a value). Every speed-up of
   the OCR audit is measured against these figures. The audit is measured both ways on
   the same documents in the same run: `--ocr-mode full` (every such page OCRed: the old
   path) and `--ocr-mode pixel` (scanned pages judged against their clean selves first,
   `audit.pixels`; the rebuild of each scanned document from its seed included),
   with the ratio of the two, and whether their findings are the same:

       python benchmarks/audit.py --ocr --ocr-only packets/N5-000001 N5-000002 N5-000003

   `--jobs 2` measures two packets at a time, each in its own process on one core (the figures are
   CPU seconds, so they stay per core); `--no-floors` leaves out the two floors (whole-page OCR
   costs about half the full audit again). The figure in docs/measurements.md, 5 N5 packets:

       python benchmarks/audit.py --ocr-only --jobs 2 --no-floors N5-000021 ... N5-000025
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from packetbench.audit.document import audit_document
from packetbench.audit.run import audit_packet
from packetbench.reading.imaging import render_page
from packetbench.reading.pdftext import _BOXES, PageText, PdfText
from packetbench.reading.tesseract import DPI, Tesseract, _Library
from packetbench.truth.documents import Document, packet_folders, read_packet

ROOT = Path(__file__).resolve().parent.parent


def best(repeat: int, run: Callable[[], int]) -> tuple[float, int]:
    """(best seconds, units) over `repeat` runs of `run`, which returns its unit count."""
    run()  # warm caches and buffers
    times, units = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        units = run()
        times.append(time.perf_counter() - started)
    return min(times), units


def raw_extraction(files: list[Path]) -> int:
    pages = 0
    for file in files:
        pdf = pdfium.PdfDocument(file)
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
            pages += 1
        pdf.close()
    return pages


def audit_pdfs(documents: list[Document]) -> int:
    pages = 0
    for doc in documents:
        pages += audit_document(doc).pages
    return pages


def stages(documents: list[Document]) -> dict[str, float]:
    """Seconds spent per stage of reading every PDF page of `documents` once."""
    spent = dict.fromkeys(
        ("load page + text page", "page text", "char boxes", "bbox queries", "string lookups"), 0.0
    )
    for doc in documents:
        bboxes: dict[int, list[list[float]]] = {}
        for entry in doc.fields:
            for location in entry["locations"]:
                bboxes.setdefault(location["page"], []).append(location["bbox"])
        strings: dict[int, list[str]] = {}
        for entry in doc.strings:
            strings.setdefault(entry["page"], []).append(entry["text"])
        with PdfText(doc.file) as pdf:
            for number in range(1, pdf.pages + 1):
                clock = time.perf_counter()
                page = raw.FPDF_LoadPage(pdf.document().raw, number - 1)
                textpage = raw.FPDFText_LoadPage(page)
                spent["load page + text page"] += time.perf_counter() - clock
                clock = time.perf_counter()
                count = raw.FPDFText_CountChars(textpage)
                buffer = (ctypes.c_ushort * (count + 1))()
                raw.FPDFText_GetText(textpage, 0, count, buffer)
                spent["page text"] += time.perf_counter() - clock
                clock = time.perf_counter()
                _BOXES.read(ctypes.c_void_p(ctypes.cast(textpage, ctypes.c_void_p).value), count)
                spent["char boxes"] += time.perf_counter() - clock
                layer = PageText(textpage)
                clock = time.perf_counter()
                layer.bounded_many(bboxes.get(number, []))
                spent["bbox queries"] += time.perf_counter() - clock
                clock = time.perf_counter()
                text = " ".join(layer.text.split())
                for string in strings.get(number, []):
                    _ = string in text or " ".join(string.split()) in text
                spent["string lookups"] += time.perf_counter() - clock
                raw.FPDFText_ClosePage(textpage)
                raw.FPDF_ClosePage(page)
    return spent


def per_value_calls(documents: list[Document], limit: int = 2000) -> float:
    """Seconds per located value when asking pdfium once per value (get_text_bounded)."""
    calls, seconds = 0, 0.0
    for doc in documents:
        pdf = pdfium.PdfDocument(doc.file)
        for entry in doc.fields:
            for location in entry["locations"]:
                textpage = pdf[location["page"] - 1].get_textpage()
                clock = time.perf_counter()
                textpage.get_text_bounded(*location["bbox"])
                seconds += time.perf_counter() - clock
                textpage.close()
                calls += 1
                if calls >= limit:
                    pdf.close()
                    return seconds / calls
        pdf.close()
    return seconds / max(calls, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "packets", nargs="*", type=Path, help="packet folders (default: the canonical suite)"
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--ocr", action="store_true", help="also measure the OCR audit (needs tesseract)"
    )
    parser.add_argument(
        "--ocr-only", action="store_true", help="measure only the OCR audit (implies --ocr)"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="OCR audit: packets measured in this many processes"
    )
    parser.add_argument(
        "--no-floors",
        action="store_true",
        help="OCR audit: skip the two floors (whole-page OCR costs half the full audit again)",
    )
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, not {args.jobs}")
    folders = packet_folders(args.packets or sorted((ROOT / "packets").glob("N*-000001")))
    if args.ocr_only:  # each packet is read where it is measured
        ocr_throughput(folders, args.jobs, not args.no_floors)
        return
    packets = [read_packet(folder) for folder in folders]
    print(f"cores available: {os.cpu_count()}; one core, best of {args.repeat} runs\n")
    print(
        f"{'packet':<12}{'PDF pages':>10}{'chars/page':>12}{'values/page':>13}"
        f"{'raw pages/s':>13}{'audit pages/s':>15}{'of raw':>8}"
    )
    everything: list[Document] = []
    for packet in [*packets, None]:
        pdfs = [doc for doc in packet.documents if doc.format == "pdf"] if packet else everything
        if packet:
            everything.extend(pdfs)
        pages = sum_pages(pdfs)
        chars = sum(page_chars(pdfs))
        values = sum(len(e["locations"]) for doc in pdfs for e in doc.fields)
        files = [doc.file for doc in pdfs]
        raw_seconds, _ = best(args.repeat, partial(raw_extraction, files))
        audit_seconds, _ = best(args.repeat, partial(audit_pdfs, pdfs))
        name = packet.packet_id if packet else "all"
        print(
            f"{name:<12}{pages:>10}{chars / pages:>12.0f}{values / pages:>13.0f}"
            f"{pages / raw_seconds:>13.1f}{pages / audit_seconds:>15.1f}"
            f"{raw_seconds / audit_seconds:>8.0%}",
            flush=True,
        )
    pages = sum_pages(everything)
    seconds, _ = best(
        max(1, args.repeat // 2), lambda: sum(len(audit_packet(f).documents) for f in folders)
    )
    print(
        f"\nwhole audit (all documents, workbooks, CSV, universe, leaks): "
        f"{pages / seconds:.1f} PDF pages/s ({seconds:.2f} s for {len(folders)} packet(s))"
    )
    spent = stages(everything)
    print("\ntext-layer audit, where a page's time goes (ms per page)")
    for name, stage_seconds in spent.items():
        print(f"  {name:<24}{stage_seconds / pages * 1000:>8.3f}")
    values = sum(len(e["locations"]) for doc in everything for e in doc.fields)
    per_call = per_value_calls(everything)
    print(
        f"\none get_text_bounded call per located value instead: {per_call * 1e6:.0f} µs a "
        f"call, {per_call * values / pages * 1000:.1f} ms a page "
        f"({pages / (per_call * values):.0f} pages/s for the queries alone)"
    )
    if args.ocr:
        ocr_throughput(folders, args.jobs, not args.no_floors)


def _cpu_with_children() -> float:
    """CPU seconds of this process (all threads) and of its finished children (tesseract)."""
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def ocr_throughput(folders: list[Path], jobs: int = 1, floors: bool = True) -> None:
    """OCR-audit pages per second per core, per packet and over all, beside its two floors.

    With `jobs` > 1 the packets are measured in that many processes at once, each packet in
    one process on one core: the figures are CPU seconds, so they add up as they would in one
    process (on a machine with `jobs` idle cores)."""
    print(
        "\nOCR audit, one core (CPU seconds of this process and its tesseract processes), "
        "OCR pages per second per core:"
    )
    print(
        f"{'packet':<12}{'OCR pages':>10}{'audit full':>12}{'audit pixel':>13}{'pixel/full':>12}"
        f"{'whole-page OCR':>16}{'clean render':>14}{'same findings':>15}"
        f"{'misses full/pixel/both':>24}"
    )
    measure = partial(_measure_packet, floors=floors)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            rows = list(pool.map(measure, folders))
    else:
        rows = [measure(folder) for folder in folders]
    pages = 0
    totals = [0.0] * 4
    same_all = True
    misses_all = [0, 0, 0]
    calibration = [0, 0, 0, 0]
    for row in rows:
        for line in row.notes:
            print(line)
        if not row.pages:
            print(f"{row.name:<12}{0:>10}  (no page needs OCR)")
            continue
        _print_row(row.name, row.pages, row.cpu, row.same, row.misses)
        pages += row.pages
        totals = [a + b for a, b in zip(totals, row.cpu, strict=True)]
        same_all = same_all and row.same
        misses_all = [a + b for a, b in zip(misses_all, row.misses, strict=True)]
        calibration = [a + b for a, b in zip(calibration, row.calibration, strict=True)]
    if len(rows) > 1:
        _print_row("all", pages, tuple(totals), same_all, misses_all)
    agreed, boxes, sampled, whole = calibration
    print(
        f"pixel mode: {sampled} page(s) of the calibration sample read whole, OCR agreeing with "
        f"the rule on {agreed:,} of {boxes:,} of their boxes; {whole} other page(s) read whole"
    )
    print(
        "  OCR pages per second per core; pixel/full: how many times faster the pixel-first "
        "audit is; same findings: the same findings (problem, document, path) both ways; "
        "misses: OCR misses on scanned pages (no finding of their own: the level's recall "
        "judges them) only the full audit has (its OCR misread a box the rule proves intact), "
        "only the pixel audit has (each is listed: a place the rule did not prove that its box "
        "and band did not read), and both have"
    )


@dataclass
class _Row:
    name: str
    pages: int
    cpu: tuple[float, ...] = ()  # CPU seconds: full, pixel, whole-page OCR, clean render
    same: bool = True
    misses: list[int] = field(default_factory=lambda: [0, 0, 0])
    calibration: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    notes: list[str] = field(default_factory=list)


def _print_row(
    name: str, pages: int, cpu: tuple[float, ...], same: bool, misses: list[int]
) -> None:
    full, pixel, whole, render = cpu
    floor = [f"{pages / seconds:.3f}" if seconds else "-" for seconds in (whole, render)]
    print(
        f"{name:<12}{pages:>10}{pages / full:>12.3f}{pages / pixel:>13.3f}"
        f"{full / pixel:>11.1f}x{floor[0]:>16}{floor[1]:>14}"
        f"{'yes' if same else 'NO':>15}{'/'.join(map(str, misses)):>24}",
        flush=True,
    )


def _measure_packet(folder: Path, floors: bool = True) -> _Row:
    """One packet's OCR documents audited full and pixel-first (and the floors), on one core."""
    packet = read_packet(folder)
    engine = Tesseract()
    documents = [doc for doc in packet.documents if doc.format == "pdf" and doc.ocr_pages()]
    pages = sum(len(doc.ocr_pages()) for doc in documents)
    row = _Row(packet.packet_id, pages)
    if not pages:
        return row
    found: list[list[tuple[str, ...]]] = []
    missed: list[set[tuple[str, ...]]] = []
    # The old path: every page OCRed whole, every reading a tesseract process.
    _Library.enabled = False
    full = _cpu(partial(_audit_all, documents, engine, None, found, missed))
    _Library.enabled = True
    pixel = _cpu(partial(_audit_all, documents, engine, packet.truth, found, missed, row))
    whole = render = 0.0
    if floors:
        whole = _cpu(partial(_each_page, documents, partial(_whole_page_ocr, engine)))
        render = _cpu(partial(_each_page, documents, _clean_render))
    row.cpu = (full, pixel, whole, render)
    row.same = found[0] == found[1]
    row.misses = [
        len(missed[0] - missed[1]),
        len(missed[1] - missed[0]),
        len(missed[0] & missed[1]),
    ]
    for label, only in (("full", found[0]), ("pixel", found[1])):
        other = set(found[1] if label == "full" else found[0])
        for item in sorted(set(only) - other):
            row.notes.append(f"  {row.name} only {label}: {' '.join(map(str, item))}")
    # A miss only the fast path has (a place the rule did not prove, unread alone and in its
    # band, that the page read whole did read): every one is listed.
    for item in sorted(missed[1] - missed[0]):
        row.notes.append(f"  {row.name} missed only by pixel: {' '.join(map(str, item))}")
    return row


def _cpu(work: Callable[[], object]) -> float:
    """CPU seconds `work` took, its finished child processes (tesseract) included."""
    start = _cpu_with_children()
    work()
    return _cpu_with_children() - start


def _audit_all(
    documents: list[Document],
    engine: Tesseract,
    packet: dict[str, Any] | None = None,
    found: list[list[tuple[str, ...]]] | None = None,
    missed: list[set[tuple[str, ...]]] | None = None,
    row: _Row | None = None,
) -> None:
    """The OCR audit of `documents`: full (`packet` None) or pixel-first; its findings are
    appended to `found`, its OCR misses on scanned pages to `missed`."""
    findings: list[tuple[str, ...]] = []
    misses: set[tuple[str, ...]] = set()
    for doc in documents:
        audit = audit_document(doc, engine=engine, packet=packet)
        findings.extend((f.problem, f.doc_id, f.path) for f in audit.findings)
        misses.update((f.doc_id, f.path) for f in audit.ocr_misses)
        if audit.pixels is not None and row is not None:
            row.calibration[0] += audit.pixels.agreement.agreed
            row.calibration[1] += audit.pixels.agreement.boxes
            row.calibration[2] += audit.pixels.pages_sampled
            row.calibration[3] += audit.pixels.pages_ocr
    if found is not None:
        found.append(sorted(findings))
    if missed is not None:
        missed.append(misses)


def _each_page(documents: list[Document], read: Callable[[Any, int, str], object]) -> None:
    for doc in documents:
        pdf = pdfium.PdfDocument(doc.file)
        for number in sorted(doc.ocr_pages()):
            read(pdf, number, f"{doc.file} page {number}")
        pdf.close()


def _whole_page_ocr(engine: Tesseract, pdf: Any, number: int, source: str) -> None:
    """The old floor: the page rendered at the OCR resolution and one tesseract call on it."""
    engine.words(render_page(pdf, number, DPI)[0], DPI, source)


def _clean_render(pdf: Any, number: int, source: str) -> None:
    """The new floor: one pdfium render of the page at the OCR resolution, nothing read."""
    render_page(pdf, number, DPI)


def sum_pages(documents: list[Document]) -> int:
    return sum(int(doc.manifest["pages"]) for doc in documents)


def page_chars(documents: list[Document]) -> list[int]:
    counts = []
    for doc in documents:
        with PdfText(doc.file) as pdf:
            for number in range(1, pdf.pages + 1):
                with pdf.page(number) as layer:
                    counts.append(len(layer))
    return counts


if __name__ == "__main__":
    main()
