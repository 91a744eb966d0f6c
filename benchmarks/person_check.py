"""The person check: random legible values cropped from their pages, for a person to read.

    python benchmarks/person_check.py --level low_res [--boxes 50] [--tier N3] [--seed S]
        --out DIR
    python benchmarks/person_check.py --dpi 96 --packets PACKETS [--level far_photo] --out DIR
    python benchmarks/person_check.py --dpi 150 --packets PACKETS --mode fax --out DIR
    python benchmarks/person_check.py --out DIR --answers ANSWERS

The generator calls a value legible when its box on the scan matches the page drawn clean
(`packetbench.reading.legibility`), and legible at a delivered resolution from the size its
type stands there (`packetbench.reading.resolution`); the audit checks both by pixels and
OCR. Neither is a person.
This draws `--boxes` legible located values at random (seeded) and writes, in `--out`:

- `sheet-NN.png`: ten crops per sheet, numbered, each the value's box outlined in red (just
  outside it) with a fifth of an inch of the page around it, turned upright as a person turns
  the sheet (a page fed upside down is read the right way up), with nothing else on the sheet:
  the person writes down what each box says without seeing the answer;
- `key.json`: number -> the value as the truth renders it, its document, page and path.

Without `--dpi`, the values are those the truth calls legible on pages scanned at `--level`, in
fresh packets made at that level only (`patterns.only=scan.LEVEL`), and each crop is rendered
from the file as it is (200 dpi, shown twice the size). With `--dpi N`, the values are those the
truth calls legible at N (`resolution.legible_at`: its `legible_from_dpi` at most N), on any PDF
page of `--packets` (or of fresh packets of `--tier`; `--level`: only pages scanned at it), and
each crop is cut from its page rendered at N, as `extract --input images --dpi N` sends it, and
shown three times the size: the person sees what the model is sent, enlarged. `--mode M` in
place of `--level` draws from the pages scanned at any level of capture mode M.

`--answers FILE` (one line per number, `12: text`; a box the person cannot read is `12: ?`)
scores a transcription against the key, as the audit compares (`reading.text.same_text`: case,
spacing and the characters OCR cannot tell apart aside), and prints how many were read.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont

from packetbench.generator.packet import build_packet, packet_id
from packetbench.generator.render import scan_levels
from packetbench.generator.tiers import resolve
from packetbench.reading.imaging import render_page
from packetbench.reading.page import OcrPage
from packetbench.reading.resolution import legible_at
from packetbench.reading.text import same_text
from packetbench.truth.documents import read_packet

DPI = 200  # what the person's crop is rendered at (a zoom of the file, not a new scan)
ZOOM = 2  # shown this many times its size
DELIVERED_ZOOM = 3  # a crop rendered at a delivered resolution (`--dpi`) is shown this large
CONTEXT = 14.4  # points of page around the box (a fifth of an inch)
PER_SHEET = 10
OUTSIDE = 3  # pixels (before the zoom) between the box and its red outline
FIRST_SEED = 980001  # away from every seed the levels were developed on


def candidates(
    folder: Path, level: str | None, dpi: int | None = None, mode: str | None = None
) -> list[dict[str, Any]]:
    """Every located, legible, whole value on a PDF page of packet `folder` (`level`: only on
    pages scanned at it; `mode`: only on pages scanned at a level of that capture mode),
    legible at `dpi` when given (`resolution.legible_at`)."""
    out = []
    for doc in read_packet(folder).documents:
        if doc.format != "pdf":
            continue
        levels = doc.scan_levels()
        for entry in doc.fields:
            if entry.get("kind") == "checkbox" or entry.get("illegible"):
                continue
            for location in entry.get("locations") or []:
                page = location.get("page")
                if (
                    (level is not None and levels.get(page) != level)
                    or (mode is not None and _mode(levels.get(page)) != mode)
                    or location.get("legible") is False
                    or location.get("fragment") is not None
                    or (dpi is not None and not legible_at(location, dpi))
                ):
                    continue
                out.append(
                    {
                        "file": str(doc.file),
                        "doc_id": doc.doc_id,
                        "page": page,
                        "path": entry["path"],
                        "value": str(entry["rendered_as"]),
                        "quad": location.get("quad") or location["bbox"],
                        "level": levels.get(page, "native"),
                        "legible_from_dpi": location.get("legible_from_dpi"),
                        "glyph_pt": location.get("glyph_pt"),
                    }
                )
    return out


def _mode(level: str | None) -> str | None:
    return None if level is None else scan_levels.LEVELS[level].mode


def crop(pdf: Any, page: int, region: list[float], dpi: int = DPI, zoom: int = ZOOM) -> Image.Image:
    """The box with CONTEXT points of page around it, rendered at `dpi` and shown `zoom` times
    its size, the box outlined in red, upright."""
    image, left, top = render_page(pdf, page, dpi)
    gray = np.ascontiguousarray(image.reshape(image.shape[:2]))
    frame = OcrPage([], dpi / 72, left, top)
    corners = frame.corners(region)
    pad = CONTEXT * dpi / 72
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    x0, y0 = max(0, int(min(xs) - pad)), max(0, int(min(ys) - pad))
    x1, y1 = min(gray.shape[1], int(max(xs) + pad)), min(gray.shape[0], int(max(ys) + pad))
    picture = Image.fromarray(gray[y0:y1, x0:x1]).convert("RGB")
    picture = picture.resize(
        (picture.width * zoom, picture.height * zoom), Image.Resampling.LANCZOS
    )
    # Drawn a little outside the box, clear of the glyphs it holds.
    cx, cy = sum(xs) / 4, sum(ys) / 4
    outside = OUTSIDE * dpi / DPI
    outline = [
        (
            (x - x0 + outside * np.sign(x - cx)) * zoom,
            (y - y0 + outside * np.sign(y - cy)) * zoom,
        )
        for x, y in corners
    ]
    ImageDraw.Draw(picture).polygon(outline, outline=(220, 0, 0), width=2)
    # Turned the way a person turns the sheet to read it: by the quarter turns that stand the
    # box's lower edge (its first two corners) upright; a page's slight skew is left as it is.
    (ax, ay), (bx, by) = corners[0], corners[1]
    quarter = round(math.degrees(math.atan2(by - ay, bx - ax)) / 90) % 4
    return picture.rotate(90 * quarter, expand=True) if quarter else picture


def sheets(chosen: list[dict[str, Any]], out: Path, dpi: int | None = None) -> None:
    font = ImageFont.load_default(size=28)
    for start in range(0, len(chosen), PER_SHEET):
        crops = []
        for number, item in enumerate(chosen[start : start + PER_SHEET], start + 1):
            pdf = pdfium.PdfDocument(item["file"])
            try:
                shown = (
                    crop(pdf, item["page"], item["quad"])
                    if dpi is None
                    else crop(pdf, item["page"], item["quad"], dpi, DELIVERED_ZOOM)
                )
                crops.append((number, shown))
            finally:
                pdf.close()
        width = max(c.width for _, c in crops) + 90
        height = sum(c.height + 20 for _, c in crops) + 20
        sheet = Image.new("RGB", (width, height), "white")
        draw = ImageDraw.Draw(sheet)
        y = 20
        for number, picture in crops:
            draw.text((10, y + picture.height // 2 - 14), str(number), fill="black", font=font)
            sheet.paste(picture, (80, y))
            y += picture.height + 20
        sheet.save(out / f"sheet-{start // PER_SHEET + 1:02d}.png")


def _fresh(
    tier: str,
    level: str | None,
    seed: int,
    scratch: Path,
    enough: int,
    dpi: int | None,
    mode: str | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """Fresh packets of `tier` (made at `level` only when given) from `seed` on, until they hold
    `enough` candidates or ten were made: (candidates, the last seed made)."""
    pool: list[dict[str, Any]] = []
    knobs = resolve(tier, {"patterns.only": (f"scan.{level}",)} if level else {})
    packet_seed = seed
    while len(pool) < enough and packet_seed < seed + 10:
        folder = scratch / packet_id(tier, packet_seed)
        folder.mkdir()
        for name, data in build_packet(tier, packet_seed, knobs).files.items():
            (folder / name).write_bytes(data)
        pool.extend(candidates(folder, level, dpi, mode))
        packet_seed += 1
    return pool, packet_seed - 1


def make(
    level: str | None,
    tier: str,
    boxes: int,
    seed: int,
    out: Path,
    dpi: int | None = None,
    packets: Path | None = None,
    mode: str | None = None,
) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="personcheck") as scratch:
        if packets is not None:
            folders = sorted(
                p
                for p in (
                    [packets] if (packets / "packet_truth.json").exists() else packets.iterdir()
                )
                if (p / "packet_truth.json").exists()
            )
            pool = [item for folder in folders for item in candidates(folder, level, dpi, mode)]
            where = f"{len(folders)} packet(s) in {packets}"
        else:
            pool, last = _fresh(tier, level, seed, Path(scratch), boxes * 4, dpi, mode)
            where = f"{tier}, packets {seed}..{last}"
        if not pool:
            what = f"mode {mode}" if mode else f"level {level or 'any'}"
            sys.exit(f"no legible value to draw ({where}, {what}, dpi {dpi})")
        # Each level and resolution draws its own values: a person who checked one does not
        # know the next one's answers.
        drawn = f"{seed}:{level}:{dpi}" if mode is None else f"{seed}:{mode}:{dpi}"
        chosen = random.Random(drawn).sample(pool, min(boxes, len(pool)))
        sheets(chosen, out, dpi)
    keys = ("value", "doc_id", "page", "path", "level", "legible_from_dpi", "glyph_pt")
    what = f"mode {mode}" if mode else f"level {level or 'any'}"
    key = {str(n): {k: item[k] for k in keys} for n, item in enumerate(chosen, 1)}
    (out / "key.json").write_text(json.dumps(key, indent=1) + "\n")
    at = f" legible at {dpi} dpi, rendered at it" if dpi else ""
    print(
        f"{len(chosen)} of {len(pool)} legible values{at} ({where}, {what}) "
        f"in {out}/sheet-*.png; the key in {out}/key.json"
    )


def score(out: Path, answers: Path) -> None:
    key = json.loads((out / "key.json").read_text())
    said: dict[str, str] = {}
    for line in answers.read_text().splitlines():
        found = re.match(r"\s*(\d+)\s*:\s*(.*)$", line)
        if found:
            said[found.group(1)] = found.group(2).strip()
    read = [n for n, item in key.items() if same_text(said.get(n, "?"), item["value"])]
    print(f"a person read {len(read)} of {len(key)}")
    for n, item in key.items():
        if n not in read:
            print(f"  {n}: read {said.get(n, '(nothing)')!r}, the truth {item['value']!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--level", help="a scan level, e.g. low_res (with --dpi: optional)")
    parser.add_argument("--mode", help="a capture mode, e.g. fax (with --dpi, for --level)")
    parser.add_argument("--tier", default="N3")
    parser.add_argument("--boxes", type=int, default=50)
    parser.add_argument("--seed", type=int, default=FIRST_SEED)
    parser.add_argument(
        "--dpi", type=int, help="draw values legible at this resolution, shown at it"
    )
    parser.add_argument("--packets", type=Path, help="draw from these packets, not fresh ones")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--answers", type=Path, help="score this transcription against the key")
    args = parser.parse_args()
    if args.answers:
        score(args.out, args.answers)
    elif args.level is None and args.dpi is None:
        parser.error("--level is required without --dpi")
    elif args.mode is not None and (args.level is not None or args.dpi is None):
        parser.error("--mode goes with --dpi, in place of --level")
    elif args.mode is not None and args.mode not in scan_levels.MODES:
        parser.error(f"--mode {args.mode}: not a capture mode ({', '.join(scan_levels.MODES)})")
    else:
        make(
            args.level,
            args.tier,
            args.boxes,
            args.seed,
            args.out,
            args.dpi,
            args.packets,
            args.mode,
        )


if __name__ == "__main__":
    main()
