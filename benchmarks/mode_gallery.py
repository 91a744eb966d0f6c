"""The capture modes as a model is sent them: one picture per mode for docs/tiers.md.

    python benchmarks/mode_gallery.py --out docs/images/modes [--seed 9] [--document acord_125]
        [--reference MODE=FILE:PAGE ...]

For each capture mode (`render.scan_levels.MODES`), the level that shows it (`SHOWN`) is
forced on one document of a fresh N3 packet (`patterns.only=scan.LEVEL`, `documents=`), and its
first page is rendered at 150 dpi, as `extract --input images` sends it. Each `<mode>.png` shows
the whole page small (60 dpi) beside a 150-dpi crop of its inkiest part at its own pixels, what a
model receives. `--reference MODE=FILE:PAGE` puts beside a mode a page of another corpus drawn
the same way (the docs name where it comes from).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont

from packetbench.generator.packet import build_packet, packet_id
from packetbench.generator.render import scan_levels
from packetbench.generator.tiers import resolve

DELIVERED_DPI = 150
THUMB_DPI = 60
CROP = (760, 560)  # pixels at 150 dpi: about 5 x 3.7 inches of the page
LABEL = 34  # pixels of caption above each panel


# The level each mode is shown at: its hardest that a tier or the measured mix draws often
# (docs/tiers.md names them beside the pictures).
SHOWN = {
    "office_scan": "blurred",
    "misfed": "crooked",
    "fax": "fax_g3",
    "photocopy": "reduced",
    "low_res_scan": "low_res",
    "phone_near": "phone_photo",
    "phone_far": "far_photo",
    "distorted_paper": "crease",
}


def level_of(mode: str) -> str:
    """The level `mode` is shown at (`SHOWN`), one of the mode's own."""
    level = SHOWN[mode]
    assert scan_levels.LEVELS[level].mode == mode, (mode, level)
    return level


def page_images(pdf_path: Path, page: int) -> tuple[Image.Image, Image.Image]:
    """The page at THUMB_DPI and the upper-left CROP of it at DELIVERED_DPI."""
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        thumb = pdf[page].render(scale=THUMB_DPI / 72).to_pil().convert("RGB")
        full = pdf[page].render(scale=DELIVERED_DPI / 72).to_pil().convert("RGB")
    finally:
        pdf.close()
    return thumb, full.crop(_inkiest(full))


def _inkiest(page: Image.Image) -> tuple[int, int, int, int]:
    """The CROP-sized window of `page` holding the most dark pixels (on a grid of eighths):
    where the values are, wherever the mode moved the page."""
    dark = np.asarray(page.convert("L")) < 128
    width, height = CROP
    best: tuple[int, tuple[int, int, int, int]] = (-1, (0, 0, width, height))
    for left in range(0, max(1, page.width - width + 1), max(1, page.width // 8)):
        for top in range(0, max(1, page.height - height + 1), max(1, page.height // 8)):
            ink = int(dark[top : top + height, left : left + width].sum())
            if ink > best[0]:
                best = (ink, (left, top, left + width, top + height))
    return best[1]


def panel(title: str, thumb: Image.Image, crop: Image.Image) -> Image.Image:
    font = ImageFont.load_default(size=20)
    height = max(thumb.height, crop.height) + LABEL
    out = Image.new("RGB", (thumb.width + crop.width + 30, height), "white")
    draw = ImageDraw.Draw(out)
    draw.text((4, 6), title, fill="black", font=font)
    out.paste(thumb, (0, LABEL))
    out.paste(crop, (thumb.width + 30, LABEL))
    return out


def stacked(panels: list[Image.Image]) -> Image.Image:
    width = max(p.width for p in panels)
    out = Image.new("RGB", (width, sum(p.height + 16 for p in panels)), "white")
    y = 0
    for picture in panels:
        out.paste(picture, (0, y))
        y += picture.height + 16
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--document", default="acord_125")
    parser.add_argument("--modes", help="comma-separated modes (default: all)")
    parser.add_argument(
        "--reference", action="append", default=[], help="MODE=FILE:PAGE (page from 1)"
    )
    args = parser.parse_args()
    modes = args.modes.split(",") if args.modes else list(scan_levels.MODES)
    references: dict[str, tuple[Path, int]] = {}
    for item in args.reference:
        mode, _, where = item.partition("=")
        file, _, page = where.rpartition(":")
        references[mode] = (Path(file), int(page) - 1)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gallery") as scratch:
        for mode in modes:
            level = level_of(mode)
            knobs = resolve(
                "N3", {"patterns.only": (f"scan.{level}",), "documents": (args.document,)}
            )
            folder = Path(scratch) / packet_id("N3", args.seed)
            folder.mkdir(exist_ok=True)
            files = build_packet("N3", args.seed, knobs).files
            name = next(n for n in files if n.endswith(".pdf"))
            (folder / name).write_bytes(files[name])
            panels = [
                panel(
                    f"{mode} (level {level}), as sent at {DELIVERED_DPI} dpi",
                    *page_images(folder / name, 0),
                )
            ]
            if mode in references:
                file, page = references[mode]
                panels.append(
                    panel(f"reference: {file.name} page {page + 1}", *page_images(file, page))
                )
            stacked(panels).convert("L").save(args.out / f"{mode}.png", optimize=True)
            print(f"{mode}: level {level} -> {args.out / f'{mode}.png'}")


if __name__ == "__main__":
    main()
