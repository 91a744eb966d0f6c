"""Capture modes of generated packets, counted from their manifests: the share of PDF pages that
are image pages, and each mode's share of the image pages (N5's mix clauses, below).

    python benchmarks/capture_modes.py OUT/N5-000001 OUT/N5-000002 ...   (or folders of packets)
    python benchmarks/capture_modes.py --sets    (the measured mix below, as --set arguments)

A scanned page's mode is the `capture_mode` its scan pattern's manifest entry records for the
page; a PDF page no scan pattern records is native. A tier's image pages are its scanned pages.
Prints one table per tier: pages and share per mode, then whether N5's clauses hold (image
pages at least 85 % of PDF pages, no mode on more than 30 % of the image pages, at least six
modes on at least 5 % each).

`MIX` is N5 drawn as a mix of the capture modes, measured against the careful readers and kept
out of the tiers (docs/measurements.md#capture-modes-at-n5): `--sets` prints it as the
arguments that draw it, `packetbench generate --tiers N5 ... $(python
benchmarks/capture_modes.py --sets)`.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium

from packetbench.core.errors import BadInput, InputError
from packetbench.generator.render.scan_levels import MODES, NATIVE
from packetbench.truth.documents import packet_folders, read_packet

# Each scan level's probability (of what the levels before it in the catalogue leave) in the
# mix: near photos 23.5 % of the PDF documents, far photos 19 %, photocopies 15.5 %, misfed
# 10 %, distorted paper 9 %, fax 8 %, low-resolution scans 6.5 %, office scans about 3 %.
MIX: dict[str, float] = {
    "clean": 0.001,
    "moderate": 0.001,
    "fax": 0.001,
    "skewed": 0.001,
    "degraded": 0.001,
    "photo": 0.002,
    "mixed": 0.001,
    "ocr_layer": 0.01,
    "blurred": 0.005,
    "motion_blur": 0.005,
    "photocopy_2nd": 0.062,
    "jpeg_blocks": 0.002,
    "blurred_patch": 0.002,
    "roller_bar": 0.002,
    "crease": 0.072,
    "coffee_ring": 0.03,
    "punch_holes": 0.002,
    "rotated": 0.092,
    "reduced": 0.128,
    "crooked": 0.039,
    "low_res": 0.105,
    "phone_photo": 0.424,
    "far_photo": 0.595,
    "fax_g3": 0.657,
}


def sets() -> list[str]:
    """`MIX` as `packetbench generate` arguments."""
    return [part for level, p in MIX.items() for part in ("--set", f"patterns.scan.{level}={p}")]


def count(folders: list[Path]) -> dict[str, Counter[str]]:
    """Tier -> PDF pages per capture mode (native included)."""
    tiers: dict[str, Counter[str]] = {}
    for folder in folders:
        packet = read_packet(folder)
        modes = tiers.setdefault(str(packet.truth.get("tier") or "?"), Counter())
        for document in packet.documents:
            if document.format != "pdf":
                continue
            try:
                pdf = pdfium.PdfDocument(document.file)
            except pdfium.PdfiumError as error:
                raise BadInput(f"{document.file}: pdfium cannot open it ({error})") from None
            try:
                pages = len(pdf)
            finally:
                pdf.close()
            scanned = {
                page: str(how.get("capture_mode") or "scan, no mode")
                for page, how, _ in document.scanned_pages()
            }
            for page in range(1, pages + 1):
                modes[scanned.get(page, NATIVE)] += 1
    return tiers


def report(tiers: dict[str, Counter[str]]) -> list[str]:
    lines = []
    for tier in sorted(tiers):
        modes = tiers[tier]
        total = sum(modes.values())
        images = total - modes[NATIVE]
        lines.append(
            f"{tier}: {total} PDF pages, {images} image pages ({images / total:.1%})"
            if total
            else f"{tier}: no PDF pages"
        )
        for mode in [*MODES, *sorted(set(modes) - set(MODES) - {NATIVE})]:
            share = modes[mode] / images if images else 0.0
            lines.append(f"  {mode:<16} {modes[mode]:>5}  {share:6.1%} of image pages")
        if images:
            shares = [modes[mode] / images for mode in MODES]
            lines.append(
                f"  clauses: image pages >= 85 %: {images / total >= 0.85}; "
                f"no mode > 30 %: {max(shares) <= 0.30}; "
                f"modes >= 5 %: {sum(s >= 0.05 for s in shares)} (>= 6: "
                f"{sum(s >= 0.05 for s in shares) >= 6})"
            )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, help="packet folders or folders of them")
    parser.add_argument("--sets", action="store_true", help="print MIX as --set arguments")
    args = parser.parse_args()
    if args.sets:
        print(" ".join(sets()))
        return 0
    if not args.paths:
        parser.error("give packet folders, or --sets")
    try:
        folders = packet_folders(args.paths)
        if not folders:
            raise BadInput(f"{', '.join(map(str, args.paths))}: no packets found")
        print("\n".join(report(count(folders))))
    except InputError as error:  # a path or packet this cannot read
        print(f"capture_modes: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
