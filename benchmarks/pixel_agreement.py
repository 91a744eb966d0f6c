"""The pixel rule against OCR on a seeded sample of boxes, per scan level, at scale.

    python benchmarks/pixel_agreement.py PACKET_DIR [PACKET_DIR ...] [--boxes 10000] [--seed 0]

Every PDF location on a scanned page of the packets (legible or not, checkboxes and pieces of
split values aside) is a candidate; a seeded sample of `--boxes` of them is judged by the rule
(`legibility.pixel_verdict`, through `PixelPage.box_verdict`, the document rebuilt from its
seed as the audit rebuilds it) and read by OCR box by box (`reading.strategies.read_boxes`: the page
prepared as for whole-page OCR, the box cut out and read as a line and as sparse text, as the
full audit reads a box again). Agreement: intact and read, or damaged and not read; undecided
boxes are counted apart (OCR settles them in the audit). Per level and overall, with 95 %
Wilson intervals; a running total is printed after each packet, so a cut-off run still says
how far it got.

    python benchmarks/pixel_agreement.py PACKET_DIR [PACKET_DIR ...] --as-audit

With --as-audit every box of every scanned page is compared, and OCR reads as the audit's own
calibration reads (`audit --ocr` with every scanned page in its calibration sample: the page
read whole, then each box it missed read again alone, as `--ocr-mode full` reads), so the
figures are the audit's agreement (`pixels.agreement_levels` in its JSON) on every page rather
than on one in `audit.pixels.SAMPLE`. Whether the audit refuses to pass on them
(`pixels.MAX_DISAGREEMENT`) is printed last.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from pathlib import Path

import pypdfium2 as pdfium

from packetbench.audit import pixels
from packetbench.audit.document import audit_document
from packetbench.audit.pixels import Agreement, pixel_pages, wilson
from packetbench.reading.legibility import INTACT_VERDICT, UNDECIDED_VERDICT
from packetbench.reading.located import page_turn
from packetbench.reading.strategies import read_boxes
from packetbench.reading.tesseract import Tesseract
from packetbench.reading.text import same_text
from packetbench.truth.documents import PacketDocuments, packet_folders, read_packet


def table(per_level: dict[str, Agreement], started: float) -> None:
    print(
        f"{'level':<12}{'boxes':>8}{'intact':>8}{'damaged':>9}{'undecided':>11}"
        f"{'agree':>8}{'rate':>9}  95 % interval   ({time.perf_counter() - started:.0f} s)"
    )
    total = Agreement()
    for level, agreement in [*sorted(per_level.items()), ("all", None)]:
        if agreement is None:
            agreement = total
        else:
            total = total + agreement
        low, high = wilson(agreement.agreed, agreement.boxes)
        intact = agreement.intact_read + agreement.intact_unread
        damaged = agreement.damaged_read + agreement.damaged_unread
        rate = agreement.agreed / agreement.boxes if agreement.boxes else float("nan")
        print(
            f"{level:<12}{agreement.boxes:>8}{intact:>8}{damaged:>9}{agreement.undecided:>11}"
            f"{agreement.agreed:>8}{rate:>9.4f}  [{low:.4f}, {high:.4f}]",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("packets", nargs="+")
    parser.add_argument("--boxes", type=int, default=10_000, help="boxes sampled in all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--as-audit",
        action="store_true",
        help="every scanned page read as the audit's calibration reads it (page, then box)",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    engine = Tesseract()
    packets = [read_packet(folder) for folder in packet_folders(Path(p) for p in args.packets)]
    if args.as_audit:
        as_audit(packets, engine, started)
        return
    # The candidates: (packet, document, page, field index, quad), in a fixed order.
    candidates = []
    for packet_index, packet in enumerate(packets):
        for doc in packet.documents:
            levels = doc.scan_levels() if doc.format == "pdf" else {}
            for index, entry in enumerate(doc.fields):
                if entry.get("kind") == "checkbox":
                    continue
                for location in entry.get("locations") or []:
                    if (
                        location.get("page") in levels
                        and location.get("quad")
                        and not (location.get("fragment"))
                    ):
                        candidates.append((packet_index, doc.doc_id, location["page"], index))
    chosen = sorted(random.Random(args.seed).sample(candidates, min(args.boxes, len(candidates))))
    print(f"{len(chosen)} boxes sampled of {len(candidates)} on scanned pages", flush=True)
    wanted: dict[tuple[int, str], dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for packet_index, doc_id, page, index in chosen:
        wanted[(packet_index, doc_id)][page].append(index)
    per_level: dict[str, Agreement] = {}
    for packet_index, packet in enumerate(packets):
        for doc in packet.documents:
            pages_wanted = wanted.get((packet_index, doc.doc_id))
            if not pages_wanted:
                continue
            levels = doc.scan_levels()
            pdf = pdfium.PdfDocument(doc.file)
            try:
                judged, why = pixel_pages(doc, packet.truth, pdf)
                if why:
                    print(f"{packet.packet_id} {doc.doc_id}: not judged ({why})")
                    continue
                boxes = {
                    page: [
                        (index, location["quad"])
                        for index in indices
                        for location in doc.fields[index]["locations"]
                        if location.get("page") == page
                    ]
                    for page, indices in pages_wanted.items()
                    if page in judged
                }
                angles = {
                    page: page_turn([(i, q, (1, 1), False) for i, q in found])
                    for page, found in boxes.items()
                }
                read = read_boxes(
                    pdf,
                    {page: [q for _, q in found] for page, found in boxes.items()},
                    engine,
                    doc.file,
                    angles=angles,
                )
            finally:
                pdf.close()
            for page, found in boxes.items():
                agreement = per_level.setdefault(levels[page], Agreement())
                for (index, quad), readings in zip(found, read[page], strict=True):
                    verdict = judged[page].box_verdict(quad).verdict
                    ok = any(same_text(r, doc.fields[index]["rendered_as"]) for r in readings)
                    if verdict == UNDECIDED_VERDICT:
                        agreement.undecided += 1
                    elif verdict == INTACT_VERDICT:
                        agreement.intact_read += ok
                        agreement.intact_unread += not ok
                    else:
                        agreement.damaged_read += ok
                        agreement.damaged_unread += not ok
        print(f"\nafter {packet.packet_id}:")
        table(per_level, started)


def as_audit(packets: list[PacketDocuments], engine: Tesseract, started: float) -> None:
    """The audit's own calibration on every scanned page of `packets`, per level."""
    pixels.SAMPLE = 1  # every scanned page is in the calibration sample
    per_level: dict[str, Agreement] = {}
    for packet in packets:
        for doc in packet.documents:
            if doc.format != "pdf" or not doc.scan_levels():
                continue
            stats = audit_document(doc, engine=engine, packet=packet.truth).pixels
            if stats is None or stats.unavailable:
                why = stats.unavailable if stats else "no pixel audit"
                print(f"{packet.packet_id} {doc.doc_id}: not judged ({why})")
                continue
            for level, agreement in stats.levels.items():
                per_level[level] = per_level.get(level, Agreement()) + agreement
        print(f"\nafter {packet.packet_id}:")
        table(per_level, started)
    total = sum(per_level.values(), Agreement())
    print(
        f"\nthe audit {'refuses to pass' if total.too_low() else 'passes'} on these: it "
        f"refuses when the rule and OCR disagree on more than {pixels.MAX_DISAGREEMENT:.0%} "
        "of the sampled boxes"
    )


if __name__ == "__main__":
    main()
