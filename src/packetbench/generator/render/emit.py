"""Emission: a document's pages of drawing operations (`ops`) written as a PDF by reportlab.

Output is byte-reproducible: reportlab's invariant mode fixes the creation date and document
id, and emission order is the layout order. Within the content layer, fills are emitted first,
then rules, then one text object, so a page's text reads in layout order; the other layers are
emitted in drawing order.
"""

from __future__ import annotations

import io
from typing import Any

from reportlab import rl_config
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from packetbench.generator.render import fonts
from packetbench.generator.render.ops import (
    CONTENT,
    OVER,
    UNDER,
    DrawOp,
    ImageOp,
    LineOp,
    Op,
    PathOp,
    RectOp,
    TextOp,
)


def emit_pdf(
    title: str,
    pagesize: tuple[float, float],
    pages: list[list[Op]],
    raw_images: bool = False,
    sizes: list[tuple[float, float]] | None = None,
) -> bytes:
    """The PDF of `pages`, titled `title`, each of `pagesize` or of its own (`sizes`: the
    sheets of a document printed two pages to a sheet)."""
    # A document with scanned pages embeds their JPEGs as they are; reportlab would
    # otherwise wrap every stream in ASCII85 (a quarter larger, and slower). It reads the
    # setting as each stream is made, so it holds for the whole emission.
    before = rl_config.useA85
    rl_config.useA85 = 0 if raw_images else before
    try:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=1)
        canvas.setTitle(title)
        canvas.setAuthor("packetbench generator")
        canvas.setSubject("Synthetic document; all data is fictional")
        canvas.setCreator("packetbench")
        for number, ops in enumerate(pages):
            if sizes is not None:
                canvas.setPageSize(sizes[number])
            for op in ops:
                if isinstance(op, TextOp):
                    fonts.ensure(op.font)
            _emit_loose(canvas, [op for op in ops if op.layer == UNDER])
            _emit(canvas, [op for op in ops if op.layer == CONTENT])
            _emit_loose(canvas, [op for op in ops if op.layer == OVER])
            canvas.showPage()
        canvas.save()
    finally:
        rl_config.useA85 = before
    return buffer.getvalue()


def _emit(canvas: Canvas, ops: list[Op]) -> None:
    """The content layer: fills, then rules, then images, then one text object."""
    fills = [op for op in ops if isinstance(op, RectOp) and op.fill is not None]
    for fill in fills:
        if fill.color is not None:
            canvas.setFillColorRGB(*fill.color)
        else:
            canvas.setFillGray(fill.fill)
        canvas.rect(fill.x, fill.y, fill.w, fill.h, stroke=0, fill=1)
    canvas.setFillGray(0)
    current_width = -1.0
    for op in ops:
        if isinstance(op, LineOp | RectOp) and not (isinstance(op, RectOp) and op.fill is not None):
            if op.width != current_width:
                canvas.setLineWidth(op.width)
                current_width = op.width
            if op.color is not None:
                canvas.setStrokeColorRGB(*op.color)
            if isinstance(op, LineOp):
                canvas.line(op.x0, op.y0, op.x1, op.y1)
            else:
                canvas.rect(op.x, op.y, op.w, op.h, stroke=1, fill=0)
            if op.color is not None:
                canvas.setStrokeGray(0)
    for op in ops:
        if isinstance(op, ImageOp):
            _image(canvas, op)
        elif isinstance(op, PathOp):
            canvas.saveState()
            _path(canvas, op)
            canvas.restoreState()
    text = canvas.beginText()
    font: tuple[str, float] | None = None
    for op in ops:
        if isinstance(op, TextOp):
            if font != (op.font, op.size):
                text.setFont(op.font, op.size)
                font = (op.font, op.size)
            if op.color is not None:
                text.setFillColorRGB(*op.color)
            if op.angle:
                text.setTextTransform(*_rotation(op.x, op.y, op.angle))
            else:
                text.setTextOrigin(op.x, op.y)
            text.textOut(op.text)
            if op.color is not None:
                text.setFillGray(0)
    canvas.drawText(text)
    for op in ops:
        if isinstance(op, DrawOp):
            canvas.saveState()
            op.draw(canvas)
            canvas.restoreState()


def _emit_loose(canvas: Canvas, ops: list[Op]) -> None:
    """An overlay layer, in drawing order, each operation in its own graphics state."""
    for op in ops:
        canvas.saveState()
        if isinstance(op, RectOp):
            if op.alpha is not None:
                canvas.setFillAlpha(op.alpha)
                canvas.setStrokeAlpha(op.alpha)
            if op.fill is not None:
                if op.color is not None:
                    canvas.setFillColorRGB(*op.color)
                else:
                    canvas.setFillGray(op.fill)
                canvas.rect(op.x, op.y, op.w, op.h, stroke=0, fill=1)
            else:
                canvas.setLineWidth(op.width)
                if op.color is not None:
                    canvas.setStrokeColorRGB(*op.color)
                canvas.rect(op.x, op.y, op.w, op.h, stroke=1, fill=0)
        elif isinstance(op, LineOp):
            canvas.setLineWidth(op.width)
            if op.color is not None:
                canvas.setStrokeColorRGB(*op.color)
            canvas.line(op.x0, op.y0, op.x1, op.y1)
        elif isinstance(op, ImageOp):
            _image(canvas, op)
        elif isinstance(op, DrawOp):
            op.draw(canvas)
        elif isinstance(op, PathOp):
            _path(canvas, op)
        else:
            if op.alpha is not None:
                canvas.setFillAlpha(op.alpha)
            if op.color is not None:
                canvas.setFillColorRGB(*op.color)
            text = canvas.beginText()
            text.setFont(op.font, op.size)
            if op.angle:
                text.setTextTransform(*_rotation(op.x, op.y, op.angle))
            else:
                text.setTextOrigin(op.x, op.y)
            text.textOut(op.text)
            canvas.drawText(text)
        canvas.restoreState()


def _rotation(x: float, y: float, angle: float) -> tuple[float, float, float, float, float, float]:
    import math

    radians = math.radians(angle)
    cos, sin = round(math.cos(radians), 6), round(math.sin(radians), 6)
    return cos, sin, -sin, cos, x, y


class _KnownPixels(ImageReader):  # type: ignore[misc]
    """An image whose gray pixels are known: reportlab names every image by the md5 of its
    decoded pixels, and would decode a scanned page again for that alone. A JPEG is still
    embedded as it is; an image with no encoded form is compressed from its pixels as
    reportlab compresses a PNG's (what a lossless image decodes to is its pixels)."""

    def __init__(self, encoded: bytes, pixels: Any) -> None:
        from PIL import Image

        super().__init__(io.BytesIO(encoded) if encoded else Image.fromarray(pixels))
        if self._image.mode != "L" or self._image.size != pixels.shape[::-1]:
            raise ValueError(f"{self._image.mode} {self._image.size}: not the pixels given")
        self._known: bytes = pixels.tobytes()

    def getRGBData(self) -> bytes:
        self._dataA = None
        self.mode = "L"
        return self._known


def _image(canvas: Canvas, op: ImageOp) -> None:
    reader = (
        ImageReader(io.BytesIO(op.png)) if op.pixels is None else _KnownPixels(op.png, op.pixels)
    )
    canvas.drawImage(reader, op.x, op.y, op.w, op.h, mask=None if op.jpeg else "auto")


def _path(canvas: Canvas, op: PathOp) -> None:
    """Outlines filled by the non-zero rule (how fonts fill their glyphs)."""
    if op.alpha is not None:
        canvas.setFillAlpha(op.alpha)
        canvas.setStrokeAlpha(op.alpha)
    canvas.setFillColorRGB(*op.color)
    path = canvas.beginPath()
    for command in op.commands:
        kind = command[0]
        if kind == "M":
            path.moveTo(*command[1:])
        elif kind == "L":
            path.lineTo(*command[1:])
        elif kind == "C":
            path.curveTo(*command[1:])
        else:
            path.close()
    if op.stroke > 0:
        canvas.setStrokeColorRGB(*op.color)
        canvas.setLineWidth(op.stroke)
        canvas.setLineJoin(1)
    canvas.drawPath(path, stroke=1 if op.stroke > 0 else 0, fill=1, fillMode=1)
