"""Legibility at the resolution a model is sent (`packetbench.reading.resolution`), measured.

    python benchmarks/resolution.py shares PACKETS...
    python benchmarks/resolution.py ocr PACKETS... [--boxes 10000] [--seed S] [--jobs N]
    python benchmarks/resolution.py figure PACKET DOC_ID PATH --out FILE.png

`shares`: per tier, how many located PDF values are legible in the file and at each rung of
the ladder (`resolution.LADDER`), by scan level (native pages: "native").

`ocr`: the margin of the rule against OCR, as the audit reads a box, on `--boxes` located
values drawn at random (seeded) from the scanned pages of PACKETS, each read at each delivered
resolution of `rungs.READ_AT` on its page as sent (`rungs.DeliveredPdf`: the page resized to
the rung with the rule's area filter): tesseract plainly and sharpened, and PP-OCR. Per rung,
how many values legible there OCR read, and how many below it; and per glyph height there (in
whole pixels), the same split, which shows where OCR stops reading.

`figure`: one value cropped from its page at the file's own resolution, at 150 dpi and at 96
dpi, each shown at the same size (the picture in docs/resolution.md).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont

from packetbench.audit.rungs import READ_AT, DeliveredPdf
from packetbench.reading import ppocr, resolution
from packetbench.reading.located import page_turn
from packetbench.reading.strategies import read_boxes, second_boxes
from packetbench.reading.tesseract import Tesseract
from packetbench.reading.text import same_text
from packetbench.truth.documents import packet_folders, read_packet


def _pdf_locations(folder: Path) -> list[tuple[Any, dict[str, Any], dict[str, Any], str]]:
    """(document, field entry, location, page kind) of every located value on a PDF page."""
    out = []
    for doc in read_packet(folder).documents:
        if doc.format != "pdf":
            continue
        levels = doc.scan_levels()
        for entry in doc.fields:
            if entry.get("kind") == "checkbox":
                continue
            for location in entry.get("locations") or []:
                if isinstance(location, dict) and type(location.get("page")) is int:
                    kind = levels.get(location["page"], "native")
                    out.append((doc, entry, location, kind))
    return out


def shares(paths: list[Path]) -> None:
    table: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for folder in packet_folders(paths):
        tier = folder.name.split("-")[0]
        for _doc, _entry, location, kind in _pdf_locations(folder):
            for key in ((tier, kind), (tier, "all")):
                counts = table[key]
                counts["located"] += 1
                counts["file"] += location.get("legible") is not False
                for dpi in resolution.LADDER:
                    counts[str(dpi)] += resolution.legible_at(location, dpi)
    rungs = [str(dpi) for dpi in resolution.LADDER]
    print("tier  page kind        located   file  " + "  ".join(f"{r:>5}" for r in rungs))
    for (tier, kind), counts in sorted(table.items()):
        located = counts["located"]
        cells = "  ".join(f"{counts[r] / located:5.1%}" for r in rungs)
        print(f"{tier:4}  {kind:15} {located:8,}  {counts['file'] / located:5.1%}  {cells}")


def _reads(job: tuple[str, int, int, float, int, list[tuple[str, dict[str, Any]]]]) -> list[Any]:
    """Read one page's drawn boxes at each rung below its resolution (a worker's job)."""
    file, page, file_dpi, angle, _seed, boxes = job
    engine = Tesseract()
    regions = {page: [[float(v) for v in location["quad"]] for _, location in boxes]}
    out = []
    pdf = pdfium.PdfDocument(file)
    try:
        for dpi in READ_AT:
            if dpi >= file_dpi:
                continue
            sent = DeliveredPdf(pdf, {page: file_dpi}, dpi)
            try:
                plain = read_boxes(sent, regions, engine, Path(file), angles={page: angle})[page]
                sharp = read_boxes(
                    sent, regions, engine, Path(file), angles={page: angle}, sharpen=True
                )[page]
                second = second_boxes(sent, regions, Path(file), angles={page: angle})[page]
            finally:
                sent.close()
            for (text, location), *readings in zip(boxes, plain, sharp, second, strict=True):
                read = any(same_text(r, text) for reading in readings for r in reading)
                glyph = float(location.get("glyph_pt") or 0.0)
                out.append(
                    (
                        dpi,
                        resolution.legible_at(location, dpi),
                        read,
                        int(resolution.glyph_pixels(glyph, min(dpi, file_dpi))),
                    )
                )
    finally:
        pdf.close()
    ppocr.release()
    return out


def ocr(paths: list[Path], boxes: int, seed: int, jobs: int, out: Path | None) -> None:
    from packetbench.core.executors import LocalExecutor

    pool = []
    for folder in packet_folders(paths):
        for doc, entry, location, kind in _pdf_locations(folder):
            text = str(entry.get("rendered_as"))
            if (
                kind != "native"
                and location.get("legible") is not False
                and location.get("fragment") is None
                and isinstance(location.get("quad"), list)
                and "legible_from_dpi" in location
                and len(text.strip()) >= 3
            ):
                pool.append((doc, text, location))
    chosen = random.Random(seed).sample(pool, min(boxes, len(pool)))
    by_page: dict[tuple[str, int], list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    dpis: dict[tuple[str, int], int] = {}
    for doc, text, location in chosen:
        key = (str(doc.file), int(location["page"]))
        by_page[key].append((text, location))
        details = {p: how for p, how, _ in doc.scanned_pages()}
        dpis[key] = int(details[key[1]]["dpi"])
    jobs_list = []
    for (file, page), listed in sorted(by_page.items()):
        angle = page_turn([(0, loc["quad"], (1, 1), False) for _, loc in listed])
        jobs_list.append((file, page, dpis[(file, page)], angle, seed, listed))
    results: dict[int, Counter[str]] = defaultdict(Counter)
    by_height: dict[tuple[int, int], Counter[str]] = defaultdict(Counter)
    runner = LocalExecutor(jobs)
    for found in runner.map(_reads, jobs_list, lambda job: f"{job[0]} page {job[1]}"):
        for dpi, legible, read, height in found:
            side = "legible" if legible else "below"
            results[dpi][f"{side}_{'read' if read else 'unread'}"] += 1
            by_height[(dpi, height)][f"{side}_{'read' if read else 'unread'}"] += 1
    print(f"{len(chosen):,} values on {len(jobs_list):,} scanned pages, seed {seed}")
    for dpi in sorted(results):
        c = results[dpi]
        legible = c["legible_read"] + c["legible_unread"]
        below = c["below_read"] + c["below_unread"]
        print(
            f"{dpi:4} dpi: legible there {c['legible_read']:,} of {legible:,} read "
            f"({c['legible_read'] / max(legible, 1):.1%}); below it {c['below_read']:,} of "
            f"{below:,} read ({c['below_read'] / max(below, 1):.1%})"
        )
        for (at, height), h in sorted(by_height.items()):
            if at != dpi:
                continue
            total = sum(h.values())
            read = h["legible_read"] + h["below_read"]
            print(f"       {height:2} px: {read:,} of {total:,} read ({read / total:.0%})")
    if out is not None:
        payload = {str(dpi): dict(c) for dpi, c in sorted(results.items())} | {
            "by_height": {f"{d}:{h}": dict(c) for (d, h), c in sorted(by_height.items())}
        }
        out.write_text(json.dumps(payload, indent=1) + "\n")


def figure(packet: Path, doc_id: str, path: str, out: Path) -> None:
    """The value at `path` of `doc_id` at its file's resolution, 150 and 96 dpi."""
    found = [
        (doc, location)
        for doc, entry, location, _ in _pdf_locations(packet)
        if doc.doc_id == doc_id and entry["path"] == path
    ]
    if not found:
        sys.exit(f"{packet}: no located value {doc_id} {path}")
    doc, location = found[0]
    details = {p: how for p, how, _ in doc.scanned_pages()}
    file_dpi = int(details.get(location["page"], {}).get("dpi") or 300)
    quad = location.get("quad") or location["bbox"]
    xs, ys = quad[0::2], quad[1::2]
    pad = 20.0  # points of page around the value
    pdf = pdfium.PdfDocument(str(doc.file))
    panels = []
    try:
        page = pdf[location["page"] - 1]
        height = float(page.get_height())
        drawn = page.render(scale=file_dpi / 72, grayscale=True).to_numpy()
        drawn = drawn.reshape(drawn.shape[:2])
        page.close()
        for dpi in (file_dpi, 150, 96):
            image = resolution.delivered(drawn, file_dpi, dpi)
            s = dpi / 72
            box = (
                max(0, math.floor((min(xs) - pad) * s)),
                max(0, math.floor((height - max(ys) - pad) * s)),
                math.ceil((max(xs) + pad) * s),
                math.ceil((height - min(ys) + pad) * s),
            )
            crop = Image.fromarray(np.ascontiguousarray(image)).crop(box).convert("RGB")
            corners = [
                (x * s - box[0], (height - y) * s - box[1]) for x, y in zip(xs, ys, strict=True)
            ]
            if len(corners) == 2:
                (x0, y1), (x1, y0) = corners
                corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
            panels.append((dpi, crop, corners))
    finally:
        pdf.close()
    width = 720
    font = ImageFont.load_default(size=22)
    shown = []
    for dpi, crop, corners in panels:
        scale = width / crop.width
        big = crop.resize((width, round(crop.height * scale)), Image.Resampling.LANCZOS)
        # Outlined a few pixels outside the value, clear of its glyphs.
        cx = sum(x for x, _ in corners) / 4
        cy = sum(y for _, y in corners) / 4
        outline = [
            (x * scale + 6 * np.sign(x - cx), y * scale + 6 * np.sign(y - cy)) for x, y in corners
        ]
        ImageDraw.Draw(big).polygon(outline, outline=(220, 0, 0), width=2)
        # Turned upright by quarter turns, as a person turns the sheet.
        (ax, ay), (bx, by) = corners[0], corners[1]
        quarter = round(math.degrees(math.atan2(by - ay, bx - ax)) / 90) % 4
        if quarter:
            big = big.rotate(90 * quarter, expand=True)
        legible = resolution.legible_at(location, dpi)
        label = (
            f"{dpi} dpi"
            + (" (the file)" if dpi == file_dpi else "")
            + f": one line of type {resolution.glyph_pixels(float(location['glyph_pt']), dpi):.1f}"
            + f" px tall, {'legible' if legible else 'below the resolution'}"
        )
        shown.append((label, big))
    sheet = Image.new("RGB", (width + 20, sum(b.height + 44 for _, b in shown) + 10), "white")
    draw = ImageDraw.Draw(sheet)
    y = 10
    for label, big in shown:
        draw.text((10, y), label, fill="black", font=font)
        sheet.paste(big, (10, y + 30))
        y += big.height + 44
    sheet.save(out)
    print(f"{out}: {doc_id} {path} ({location.get('legible_from_dpi')} dpi and up)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("shares")
    one.add_argument("packets", type=Path, nargs="+")
    two = sub.add_parser("ocr")
    two.add_argument("packets", type=Path, nargs="+")
    two.add_argument("--boxes", type=int, default=10000)
    two.add_argument("--seed", type=int, default=0)
    two.add_argument("--jobs", type=int, default=1)
    two.add_argument("--json", type=Path, help="write the counts here too")
    three = sub.add_parser("figure")
    three.add_argument("packet", type=Path)
    three.add_argument("doc_id")
    three.add_argument("path")
    three.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "shares":
        shares(args.packets)
    elif args.command == "ocr":
        ocr(args.packets, args.boxes, args.seed, args.jobs, args.json)
    else:
        figure(args.packet, args.doc_id, args.path, args.out)


if __name__ == "__main__":
    main()
