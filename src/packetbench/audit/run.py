"""`packetbench audit` as a library call: audit packet folders, return an `AuditResult`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from packetbench.audit.document import PageHook, audit_document
from packetbench.audit.leaks import audit_hidden, audit_leaks, forbidden_values
from packetbench.audit.pixels import calibration_candidates, calibration_pages
from packetbench.audit.result import (
    INTEGRITY,
    NOT_CHECKED,
    PROBLEMS,
    AuditResult,
    Finding,
    PacketAudit,
    recall_findings,
)
from packetbench.audit.sample import ALL, DEFAULT_SEED, SampleSize, bounds, corpus, draw
from packetbench.core import heap
from packetbench.core.errors import UsageError
from packetbench.core.executors import Executor
from packetbench.reading import ppocr
from packetbench.reading.tesseract import Tesseract
from packetbench.truth import universe
from packetbench.truth.documents import read_packet

OCR_MODES = ("pixel", "full")  # how `--ocr` reads scanned pages (see `audit_packet`)


def audit_packet(
    folder: Path,
    *,
    engine: Tesseract | None = None,
    on_page: PageHook | None = None,
    ocr_mode: str = "pixel",
) -> PacketAudit:
    """Audit one packet folder: every document read back, then its universe.

    With OCR (`engine`), `ocr_mode` "pixel" judges scanned pages against their clean selves
    first and OCRs only what that leaves (`audit.pixels`); "full" OCRs every such page. An
    OCR audit then hands back what it held (the second engine's arenas, the allocator's free
    pages): a process auditing a corpus holds what its largest packet needs, not what every
    packet before it took."""
    try:
        return _audit_packet(folder, engine, on_page, ocr_mode)
    finally:
        if engine is not None:
            ppocr.release()
            heap.give_back()


def _audit_packet(
    folder: Path, engine: Tesseract | None, on_page: PageHook | None, ocr_mode: str
) -> PacketAudit:
    packet = read_packet(folder)
    rebuild = packet.truth if ocr_mode == "pixel" else None
    calibrate: dict[str, set[int]] = {}
    if rebuild is not None and engine is not None:
        candidates = [
            (doc.doc_id, page)
            for doc in packet.documents
            if doc.format == "pdf"
            for page in calibration_candidates(doc)
        ]
        for doc_id, page in calibration_pages(packet.packet_id, candidates):
            calibrate.setdefault(doc_id, set()).add(page)
    audits = {
        doc.doc_id: audit_document(
            doc,
            engine=engine,
            on_page=on_page,
            packet=rebuild,
            calibrate=calibrate.get(doc.doc_id, set()) if rebuild is not None else None,
        )
        for doc in packet.documents
    }
    built = universe.build(folder)
    result = PacketAudit(packet.packet_id, str(folder), list(audits.values()))
    result.ocr = engine is not None
    result.universe = built.packet.size()
    result.skipped_keys = dict(built.skipped)
    forbidden = forbidden_values(packet)
    result.forbidden = len(forbidden)
    leaks, result.coincidences = audit_leaks(packet, built.packet, audits, forbidden)
    result.findings.extend(leaks)
    result.findings.extend(audit_hidden(packet, built.packet, audits))
    result.findings.extend(recall_findings(result))
    for doc_id in packet.unlisted:
        result.findings.append(
            Finding(
                INTEGRITY,
                doc_id,
                f"field_truth_{doc_id}.json",
                "",
                detail="truth files for a document that packet_truth.json does not list",
            )
        )
    for audit in result.documents:
        # What told a leak from a coincidence: thousands of indices a packet, needed no more
        # (the command keeps every packet's result to the end of the corpus).
        audit.settle()
    return result


def _audit_task(task: tuple[Path, bool, str]) -> PacketAudit:
    """One packet, audited where an executor runs it (with its own OCR engine)."""
    folder, ocr, mode = task
    return audit_packet(folder, engine=Tesseract() if ocr else None, ocr_mode=mode)


def _label(task: tuple[Path, bool, str]) -> str:
    return task[0].name


def audit_packets(
    paths: Iterable[Path],
    *,
    ocr: bool = False,
    on_packet: Callable[[PacketAudit], None] | None = None,
    on_page: PageHook | None = None,
    executor: Executor | None = None,
    sample: SampleSize = ALL,
    sample_seed: int = DEFAULT_SEED,
    include: Sequence[str] = (),
    ocr_mode: str = "pixel",
    ocr_sample: SampleSize = ALL,
) -> AuditResult:
    """Audit every packet named by `paths` (packet folders, or folders of packets), or a
    seeded sample of them (`sample`, `sample_seed`; packet ids in `include` always audited)
    with, per finding kind, a bound on its rate in the whole corpus (see `audit.sample`).
    With `ocr`, `ocr_sample` says which of the audited packets OCR reads: all of them, or a
    seeded sample (drawn with `sample_seed`) whose findings bound the rate of each kind among
    the audited packets; the others are audited without OCR, their scanned values counted
    as not checked and covered by that bound.

    Packets run in this process, or as tasks of `executor` (results in packet order; the
    page hook is called only in this process). Raises BadInput for an unreadable packet (the
    message names the file) and UsageError when `ocr` is asked for without tesseract, or an
    included packet id is not in the corpus.
    """
    if ocr_mode not in OCR_MODES:
        raise UsageError(f"--ocr-mode must be one of {', '.join(OCR_MODES)} (got {ocr_mode!r})")
    engine = Tesseract() if ocr else None  # tesseract missing fails before any work
    if ocr:
        ppocr.required("--ocr")  # so does the second engine that does not import
    packets_in = corpus(paths)
    folders = [packet.path for packet in packets_in]
    drawn = None
    if not sample.everything or include:
        drawn = draw(packets_in, sample, sample_seed, include)
        chosen = set(drawn.folders)
        folders = [folder for folder in folders if folder in chosen]
    read_by_ocr = set(folders) if ocr else set()
    ocr_drawn = None
    if ocr and not ocr_sample.everything:
        chosen = set(folders)
        ocr_drawn = draw([p for p in packets_in if p.path in chosen], ocr_sample, sample_seed)
        read_by_ocr = set(ocr_drawn.folders)
    packets: list[PacketAudit] = []
    if executor is None:
        audited: Iterable[PacketAudit] = (
            audit_packet(
                folder,
                engine=engine if folder in read_by_ocr else None,
                on_page=on_page,
                ocr_mode=ocr_mode,
            )
            for folder in folders
        )
    else:
        tasks = [(folder, folder in read_by_ocr, ocr_mode) for folder in folders]
        audited = executor.map(_audit_task, tasks, _label)
    for packet in audited:
        packets.append(packet)
        if on_packet is not None:
            on_packet(packets[-1])
    result = AuditResult(packets, ocr)
    if drawn is not None and not drawn.complete:
        result.sample = drawn
        problems = {
            folder: {f.problem for f in packet.all_findings()}
            for folder, packet in zip(folders, packets, strict=True)
        }
        result.bounds = bounds(drawn, problems, PROBLEMS)
    if ocr_drawn is not None and not ocr_drawn.complete:
        result.ocr_sample = ocr_drawn
        problems = {
            Path(packet.path): {f.problem for f in packet.all_findings()} for packet in packets
        }
        result.ocr_bounds = bounds(ocr_drawn, problems, [p for p in PROBLEMS if p != NOT_CHECKED])
    return result
