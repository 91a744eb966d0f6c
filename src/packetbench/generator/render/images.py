"""Raster images drawn into documents (a carrier's logo mark), made with Pillow, bytes
reproducible.

An image is drawn from its parameters alone: the same shape and colour give the same PNG bytes
(Pillow, and the zlib it bundles, are pinned exactly). Images carry no text: text a reader sees
is drawn as text, so every visible string stays in the text layer or is listed as pixels only.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

SCALE = 4  # pixels per point: crisp at the resolutions documents are read at


def emblem(color: tuple[int, int, int], shape: str, side_pt: float) -> bytes:
    """A logo mark: a filled shape with three white bands across it, on white."""
    side = round(side_pt * SCALE)
    image = Image.new("RGB", (side, side), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    box = (1, 1, side - 2, side - 2)
    if shape == "circle":
        draw.ellipse(box, fill=color)
    elif shape == "diamond":
        middle = side / 2
        draw.polygon([(middle, 1), (side - 2, middle), (middle, side - 2), (1, middle)], fill=color)
    else:
        draw.rounded_rectangle(box, radius=side // 5, fill=color)
    for band in range(3):
        top = side * (0.34 + 0.13 * band)
        draw.rectangle((side * 0.22, top, side * 0.78, top + side * 0.05), fill=(255, 255, 255))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()
