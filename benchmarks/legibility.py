"""The pixel rule against OCR, box by box: how often `legibility.pixel_verdict` and the OCR
audit agree on the located values of scanned pages, per scan level.

    python benchmarks/legibility.py PACKET_DIR [PACKET_DIR ...]

Every scanned page of the packets is both judged by the rule and read by OCR exactly as `audit --ocr
--ocr-mode full` reads it (the audit's calibration sample, here on every page instead of one page in
`pixels.SAMPLE`). Per level it prints the boxes compared, how many the rule called intact / damaged
/ undecided, and the agreement (intact and read, or damaged and not read) with its 95 % Wilson
interval. A measure worth trusting takes at least 10,000 boxes across the levels: N5 packets of
today's presets hold about 3,500 scanned boxes each.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from packetbench.audit import pixels
from packetbench.audit.document import audit_document
from packetbench.audit.pixels import Agreement, wilson
from packetbench.reading.tesseract import Tesseract
from packetbench.truth.documents import packet_folders, read_packet


def main(paths: list[str]) -> None:
    pixels.SAMPLE = 1  # every scanned page is in the calibration sample
    engine = Tesseract()
    per_level: dict[str, Agreement] = {}
    started = time.process_time()
    for folder in packet_folders(Path(p) for p in paths):
        packet = read_packet(folder)
        for doc in packet.documents:
            levels = set(doc.scan_levels().values()) if doc.format == "pdf" else set()
            if not levels:
                continue
            audit = audit_document(doc, engine=engine, packet=packet.truth)
            if audit.pixels is None or audit.pixels.unavailable:
                print(f"{packet.packet_id} {doc.doc_id}: not judged ({audit.pixels})")
                continue
            level = "+".join(sorted(levels))
            per_level[level] = per_level.get(level, Agreement()) + audit.pixels.agreement
        print(f"{packet.packet_id} done ({time.process_time() - started:.0f} s CPU)", flush=True)
    print(
        f"\n{'level':<18}{'boxes':>8}{'intact':>8}{'damaged':>9}{'undecided':>11}"
        f"{'agree':>8}{'rate':>9}  95 % interval"
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
            f"{level:<18}{agreement.boxes:>8}{intact:>8}{damaged:>9}{agreement.undecided:>11}"
            f"{agreement.agreed:>8}{rate:>9.2%}  [{low:.2%}, {high:.2%}]"
        )
    print(
        "  disagreements: intact but OCR did not read the value "
        f"{total.intact_unread}, damaged but OCR read it {total.damaged_read}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
