"""The legibility rule at its boundary: boxes damaged a little, a lot and in between, each judged
by the rule and read by the audit's best OCR.

    python benchmarks/legibility_margin.py PACKET_DIR [PACKET_DIR ...] --per-page 16 \
        --jobs 2 --json margin.json

docs/patterns.md rule 3b asks that a value be declared illegible only with a margin: a box the rule
calls illegible must be unreadable, so that a model is never asked to abstain on a value a
reader can read. This measures that. On every scanned page of the packets that the pixel rule
judges (`audit.pixels.pixel_pages`: the page drawn clean beside the page as scanned), up to
`--per-page` located values, apart from each other, are damaged on the scanned image, each by
one kind of damage at a random strength:

- `blot`: the generator's blot (`damage.blot`) over a stretch of the value along its line,
  from 5 % of its length to all of it;
- `cover`: something opaque printed over it (as a fax header's cells are), cutting 5-70 % of
  its glyph height from the top or the bottom (the rule's occlusion);
- `smear`: the box's optics blurred by a Gaussian of 10-60 % of its glyph height, the clean side
  alike (the rule's parametric optics check, as a level's blur is judged);
- `stain`: the scan levels' local damage (`damage.DAMAGE`: a blurred patch, a roller bar, a
  fold, a coffee ring, punch holes) over the whole page; every box of the page is judged.

The damaged page is written back into a copy of the document (JPEG at the level's quality, as
the generator writes it) and every damaged box is read as the audit reads an illegible box
(`reading.strategies.read_boxes`: the page evened out and turned back, the box cut out alone, read
two ways, and again sharpened).
Per kind of damage and per scan level it prints: boxes the rule calls illegible and how many
OCR read (the rule's error that makes wrong answer keys; target: under 1 in 1,000), with the
upper end of a one-sided 95 % interval; boxes the rule calls legible near its boundary (worst
cell under `legibility.INTACT`, or half the occlusion or smear that makes a box illegible) and
how many OCR reads (the other side: a legible box OCR cannot read is a finding of the audit).
The `long` groups hold the values of `legibility.MIN_ILLEGIBLE_LENGTH` characters or more, the
only ones the generator damages past reading; `short all` the others, where a damaged stroke
is read as "1", "I" or "l" by chance.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import resource
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageFilter

from packetbench.audit.pixels import PixelPage, pixel_pages
from packetbench.audit.sample import upper_bound
from packetbench.generator.render import damage, scan_levels
from packetbench.reading import legibility
from packetbench.reading.located import page_turn
from packetbench.reading.strategies import read_boxes
from packetbench.reading.tesseract import Tesseract
from packetbench.reading.text import same_text
from packetbench.truth.documents import packet_folders, read_packet

KINDS = ("blot", "cover", "smear", "stain")


@dataclass
class Box:
    doc: str
    page: int
    level: str
    path: str
    text: str
    quad: list[float]
    kind: str
    strength: float
    legible: bool = True
    verdict: str = ""
    score: float = 1.0
    occluded: float = 0.0
    smear_share: float = 0.0
    readable: bool = False

    def near(self) -> bool:
        """Called legible, but close to the rule's boundary."""
        return self.legible and (
            self.score < legibility.INTACT
            or self.occluded >= legibility.MAX_OCCLUDED / 2
            or self.smear_share >= legibility.MAX_SMEAR / 2
        )


def _corners(quad: list[float], dpi: float, height: float) -> list[tuple[float, float]]:
    scale = dpi / 72
    return [(x * scale, (height - y) * scale) for x, y in zip(quad[0::2], quad[1::2], strict=True)]


def _stretch(
    corners: list[tuple[float, float]], start: float, end: float
) -> list[tuple[float, float]]:
    """The part of a box from `start` to `end` (shares of its length) along its line."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners

    def at(ax: float, ay: float, bx: float, by: float, t: float) -> tuple[float, float]:
        return ax + (bx - ax) * t, ay + (by - ay) * t

    return [
        at(x0, y0, x1, y1, start),
        at(x0, y0, x1, y1, end),
        at(x3, y3, x2, y2, end),
        at(x3, y3, x2, y2, start),
    ]


def _band(corners: list[tuple[float, float]], share: float, top: bool) -> list[tuple[float, float]]:
    """The band of a box across `share` of its height, at its top or its bottom."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    if top:
        return [
            (x3 + (x0 - x3) * share, y3 + (y0 - y3) * share),
            (x2 + (x1 - x2) * share, y2 + (y1 - y2) * share),
            (x2, y2),
            (x3, y3),
        ]
    return [
        (x0, y0),
        (x1, y1),
        (x1 + (x2 - x1) * share, y1 + (y2 - y1) * share),
        (x0 + (x3 - x0) * share, y0 + (y3 - y0) * share),
    ]


def _polygon_mask(
    shape: tuple[int, ...], corners: list[tuple[float, float]]
) -> np.ndarray[Any, Any]:
    from PIL import ImageDraw

    mask = Image.new("L", (shape[1], shape[0]), 0)
    ImageDraw.Draw(mask).polygon(corners, fill=1)
    return np.asarray(mask).astype(bool)


def _apart(quads: list[list[float]], quad: list[float], gap: float) -> bool:
    xs, ys = quad[0::2], quad[1::2]
    return all(
        max(xs) + gap < min(q[0::2])
        or min(xs) - gap > max(q[0::2])
        or max(ys) + gap < min(q[1::2])
        or min(ys) - gap > max(q[1::2])
        for q in quads
    )


def damage_page(
    page: PixelPage,
    level: scan_levels.Level,
    fields: list[tuple[str, str, list[float]]],
    rng: random.Random,
    per_page: int,
    doc: str,
    number: int,
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], list[Box]]:
    """The page damaged: (clean side, scanned side before encoding, covered mask, boxes)."""
    clean = page.clean.copy()
    pixels = page.scanned.copy()
    covered = np.zeros(pixels.shape, dtype=bool)
    kind = rng.choice(KINDS)
    boxes: list[Box] = []
    nrng = np.random.Generator(np.random.PCG64(rng.getrandbits(63)))
    if kind == "stain":
        name = rng.choice(sorted(damage.DAMAGE))
        damage.DAMAGE[name](pixels, page.dpi, nrng)
        for path, text, quad in fields:
            boxes.append(Box(doc, number, level.name, path, text, quad, f"stain:{name}", 0.0))
        return clean, pixels, covered, boxes
    chosen: list[list[float]] = []
    order = list(fields)
    rng.shuffle(order)
    for path, text, quad in order:
        if len(chosen) >= per_page:
            break
        if not _apart(chosen, quad, 6.0):
            continue
        chosen.append(quad)
        corners = _corners(quad, page.dpi, page.height)
        glyph = legibility.quad_height(quad) * page.dpi / 72
        if kind == "blot":
            share = rng.uniform(0.05, 1.0)
            start = rng.uniform(0.0, 1.0 - share)
            damage.blot(pixels, _stretch(corners, start, start + share), nrng)
            boxes.append(Box(doc, number, level.name, path, text, quad, kind, share))
        elif kind == "cover":
            share = rng.uniform(0.05, 0.7)
            band = _band(corners, share, rng.random() < 0.5)
            mask = _polygon_mask(pixels.shape, band)
            pixels[mask] = 255
            covered |= mask
            boxes.append(Box(doc, number, level.name, path, text, quad, kind, share))
        else:
            share = rng.uniform(0.1, 0.6)
            radius = share * glyph
            where = legibility.box_pixels(quad, page.dpi, page.height, pixels.shape, 3.0)
            if where is None:
                continue
            left, top, right, bottom = where
            for side in (pixels, clean):
                part = Image.fromarray(np.ascontiguousarray(side[top:bottom, left:right]))
                side[top:bottom, left:right] = np.asarray(
                    part.filter(ImageFilter.GaussianBlur(radius))
                )
            box = Box(doc, number, level.name, path, text, quad, kind, share)
            box.smear_share = share
            boxes.append(box)
    return clean, pixels, covered, boxes


def encoded(
    pixels: np.ndarray[Any, Any], level: scan_levels.Level
) -> tuple[bytes, np.ndarray[Any, Any]]:
    """The damaged page as the generator writes it, and as a reader decodes it."""
    out = io.BytesIO()
    image = Image.fromarray(pixels)
    if level.binarize:
        image.save(out, "PNG")
    else:
        image.save(out, "JPEG", quality=level.quality, optimize=False)
    data = out.getvalue()
    with Image.open(io.BytesIO(data)) as decoded:
        return data, np.asarray(decoded.convert("L"))


def measure_box(
    box: Box, clean: Any, scanned: Any, covered: Any, page: PixelPage, level: scan_levels.Level
) -> None:
    cut = legibility.cut(clean, scanned, box.quad, page.dpi, page.height, covered)
    glyph = legibility.quad_height(box.quad) * page.dpi / 72
    blur = level.blur + (box.strength * glyph if box.kind == "smear" else 0.0)
    verdict = legibility.legible_cut(cut, blur=blur, motion=level.motion, glyph_pixels=glyph)
    box.legible = verdict.legible
    box.verdict = verdict.pixel.verdict
    box.score = verdict.pixel.score
    box.occluded = verdict.occluded
    if box.kind == "smear":
        box.smear_share = legibility.smear(blur, level.motion) / glyph if glyph else 1.0


def measure(folder: Path, per_page: int, seed: int) -> tuple[list[Box], float]:
    """Every kept box of one packet (called illegible, or legible near the boundary), damaged
    and read; its own random stream (`seed` and the packet's id), so the boxes do not depend
    on which worker measures the packet or in which order. With the CPU seconds spent."""
    started = _cpu()
    rng = random.Random(f"{seed}:{folder.name}")
    engine = Tesseract()
    boxes: list[Box] = []
    packet = read_packet(folder)
    for doc in packet.documents:
        if doc.format != "pdf" or not doc.scan_levels():
            continue
        pdf = pdfium.PdfDocument(doc.file)
        try:
            pages, why = pixel_pages(doc, packet.truth, pdf)
        finally:
            pdf.close()
        if why or not pages:
            continue
        levels = doc.scan_levels()
        copy = pdfium.PdfDocument(doc.file.read_bytes())
        regions: dict[int, list[list[float]]] = {}
        page_boxes: dict[int, list[Box]] = {}
        angles: dict[int, float] = {}
        for number, page in sorted(pages.items()):
            level = scan_levels.LEVELS[levels[number]]
            fields = [
                (str(entry["path"]), str(entry["rendered_as"]), loc["quad"])
                for entry in doc.fields
                if entry.get("kind") != "checkbox" and len(entry.get("locations") or []) == 1
                for loc in entry["locations"]
                if loc.get("page") == number
                and "quad" in loc
                and "fragment" not in loc
                and loc.get("legible") is not False
                and any(c.isalnum() for c in str(entry["rendered_as"]))
            ]
            if not fields:
                continue
            clean, pixels, covered, damaged = damage_page(
                page, level, fields, rng, per_page, doc.doc_id, number
            )
            data, scanned = encoded(pixels, level)
            for box in damaged:
                measure_box(box, clean, scanned, covered, page, level)
            kept = [b for b in damaged if not b.legible or b.near()]
            if not kept:
                continue
            target = copy[number - 1]
            (image,) = [o for o in target.get_objects() if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
            image.set_bitmap(
                pdfium.PdfBitmap.from_pil(Image.open(io.BytesIO(data)).convert("L")),
                pages=[target],
            )
            target.gen_content()
            target.close()
            regions[number] = [b.quad for b in kept]
            page_boxes[number] = kept
            angles[number] = page_turn([(0, q, (1, 1), False) for _, _, q in fields])
        if not regions:
            copy.close()
            continue
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / doc.file.name
            copy.save(path)
            copy.close()
            saved = pdfium.PdfDocument(path)
            try:
                read = read_boxes(saved, regions, engine, path, angles=angles)
                sharp = read_boxes(saved, regions, engine, path, angles=angles, sharpen=True)
                read = {n: [a + b for a, b in zip(read[n], sharp[n], strict=True)] for n in read}
            finally:
                saved.close()
        for number, readings in read.items():
            for box, texts in zip(page_boxes[number], readings, strict=True):
                box.readable = any(same_text(t, box.text) for t in texts)
                boxes.append(box)
    return boxes, _cpu() - started


def _cpu() -> float:
    """CPU seconds of this process and the tesseract processes it waited for."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packets", nargs="+", type=Path)
    parser.add_argument("--per-page", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="packets measured at once")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    wall = time.perf_counter()
    folders = packet_folders(args.packets)
    boxes: list[Box] = []
    cpu = 0.0
    by_packet: dict[str, list[Box]] = {}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(measure, f, args.per_page, args.seed): f for f in folders}
        for future in as_completed(futures):
            found, spent = future.result()
            cpu += spent
            by_packet[futures[future].name] = found
            print(f"{futures[future].name}: {len(found)} boxes ({spent:.0f} s CPU)", flush=True)
    for name in sorted(by_packet):  # the same boxes in the same order whatever the jobs
        boxes.extend(by_packet[name])
    table = _table(boxes)
    print(_render(table))
    print(f"wall {time.perf_counter() - wall:.0f} s, CPU {cpu:.0f} s (workers, tesseract included)")
    if args.json:
        args.json.write_text(
            json.dumps(
                {"table": table, "boxes": [b.__dict__ for b in boxes]}, indent=1, ensure_ascii=False
            )
        )
    return 0


def _table(boxes: list[Box]) -> dict[str, Any]:
    groups: dict[str, list[Box]] = defaultdict(list)
    for box in boxes:
        groups[f"kind {box.kind.split(':')[0]}"].append(box)
        if box.kind.startswith("stain:"):
            groups[f"stain {box.kind.split(':')[1]}"].append(box)
        groups[f"level {box.level}"].append(box)
        groups["all"].append(box)
        # The rule's margin holds from `legibility.MIN_ILLEGIBLE_LENGTH` characters (the
        # shortest value the generator damages past reading); shorter ones are shown apart.
        if len(box.text) >= legibility.MIN_ILLEGIBLE_LENGTH:
            groups[f"long kind {box.kind.split(':')[0]}"].append(box)
            groups[f"long level {box.level}"].append(box)
            groups["long all"].append(box)
        else:
            groups["short all"].append(box)
    out = {}
    for name, members in sorted(groups.items()):
        illegible = [b for b in members if not b.legible]
        read = [b for b in illegible if b.readable]
        near = [b for b in members if b.near()]
        near_read = [b for b in near if b.readable]
        out[name] = {
            "boxes": len(members),
            "illegible": len(illegible),
            "illegible_read": len(read),
            "illegible_read_upper_95": round(upper_bound(len(read), len(illegible)), 5)
            if illegible
            else None,
            "near": len(near),
            "near_read": len(near_read),
            "examples_read": [
                {
                    "doc": b.doc,
                    "page": b.page,
                    "path": b.path,
                    "text": b.text,
                    "kind": b.kind,
                    "strength": round(b.strength, 3),
                    "score": b.score,
                    "occluded": b.occluded,
                }
                for b in read[:5]
            ],
        }
    return out


def _render(table: dict[str, Any]) -> str:
    lines = [
        f"{'group':<28}{'boxes':>8}{'illegible':>10}{'OCR read':>9}{'upper 95%':>10}"
        f"{'near':>7}{'OCR read':>9}"
    ]
    for name, row in table.items():
        upper = row["illegible_read_upper_95"]
        lines.append(
            f"{name:<28}{row['boxes']:>8}{row['illegible']:>10}{row['illegible_read']:>9}"
            f"{'' if upper is None else f'{upper:.2%}':>10}{row['near']:>7}{row['near_read']:>9}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
