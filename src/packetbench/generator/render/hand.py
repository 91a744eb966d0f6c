"""Ink: text drawn as filled glyph outlines (handwriting, rubber stamps), never as PDF text.

Handwriting on a real submission is ink on paper: a text extractor finds nothing there, only a
reader of the pixels does. So a written string is drawn as the outlines of a shipped font's
glyphs (read with fontTools), each glyph nudged the way a hand moves (baseline drift, slant,
size and spacing that vary a little), as vector paths on the page (`PathOp`). The same
machinery draws printed stamps without the wobble.

Everything is drawn from the arguments alone: the jitter comes from the caller's random stream
and coordinates are rounded, so the same seed gives the same bytes.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont

from packetbench.generator.render.fonts import FOLDER

# Hand name -> font file under generator/fonts (licences beside them, see its README).
HAND_FONTS: dict[str, str] = {
    "print": "ComicNeue-Regular.otf",  # a careful print: form values, corrections
    "note": "Humor-Sans.ttf",  # quick capitals: a reader's notes
    "script": "DancingScript-Regular.otf",  # joined-up cursive: signatures
    "stamp": "DejaVuSans.ttf",  # a rubber stamp's type
}
# PDF path commands: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x3, y3), ("Z",).
Command = tuple[Any, ...]
INKS: dict[str, tuple[float, float, float]] = {
    "blue": (0.08, 0.16, 0.55),
    "black": (0.1, 0.1, 0.12),
    "red": (0.72, 0.08, 0.1),
    "purple": (0.38, 0.12, 0.5),
}


@dataclass(frozen=True)
class Glyphs:
    """One font's outlines (font units) and metrics."""

    upm: float
    cmap: dict[int, str]
    advances: dict[str, float]
    outlines: dict[str, tuple[Command, ...]]
    ascender: float
    descender: float


class _Recorder(BasePen):  # type: ignore[misc]
    """Records a glyph's outline as cubic path commands (quadratic curves converted)."""

    def __init__(self, glyphset: Any) -> None:
        super().__init__(glyphset)
        self.commands: list[Command] = []

    def _moveTo(self, pt: tuple[float, float]) -> None:
        self.commands.append(("M", *pt))

    def _lineTo(self, pt: tuple[float, float]) -> None:
        self.commands.append(("L", *pt))

    def _curveToOne(
        self, p1: tuple[float, float], p2: tuple[float, float], p3: tuple[float, float]
    ) -> None:
        self.commands.append(("C", *p1, *p2, *p3))

    def _closePath(self) -> None:
        self.commands.append(("Z",))

    _endPath = _closePath


class _Outlines(dict[str, tuple[Command, ...]]):
    """A font's glyph outlines, each recorded the first time it is asked for: a hand writes a
    few dozen of its font's glyphs, and recording all of them is most of loading the font."""

    def __init__(self, glyphset: Any) -> None:
        super().__init__()
        self.glyphset = glyphset

    def __missing__(self, name: str) -> tuple[Command, ...]:
        pen = _Recorder(self.glyphset)
        self.glyphset[name].draw(pen)
        self[name] = outline = tuple(pen.commands)
        return outline


@cache
def glyphs(hand: str) -> Glyphs:
    font = TTFont(str(FOLDER / HAND_FONTS[hand]), lazy=True)
    cmap = dict(font.getBestCmap())
    hmtx = font["hmtx"]
    advances = {name: float(hmtx[name][0]) for name in sorted(set(cmap.values()))}
    hhea = font["hhea"]
    upm = float(font["head"].unitsPerEm)
    # The font stays open: its outlines are read as they are first drawn.
    outlines = _Outlines(font.getGlyphSet())
    return Glyphs(upm, cmap, advances, outlines, float(hhea.ascent), float(hhea.descent))


def writable(hand: str, text: str) -> bool:
    """Whether `hand` has a glyph for every character of `text` (spaces aside)."""
    cmap = glyphs(hand).cmap
    return all(ch == " " or ord(ch) in cmap for ch in text)


def width(hand: str, text: str, size: float) -> float:
    """The advance of `text` written in `hand` at `size`, without jitter."""
    font = glyphs(hand)
    space = font.advances.get(font.cmap.get(32, ""), font.upm * 0.3)
    return (
        sum(space if ch == " " else font.advances[font.cmap[ord(ch)]] for ch in text)
        * size
        / font.upm
    )


@dataclass(frozen=True)
class Style:
    """How a hand moves: 0 for a stamp's steady type."""

    slant: float = 0.0  # shear, x per unit of height (0.15 leans right)
    drift: float = 0.0  # baseline drift per glyph, share of the size
    wobble: float = 0.0  # glyph rotation, degrees
    scatter: float = 0.0  # size and spacing variation, share


STEADY = Style()
NEAT = Style(slant=0.08, drift=0.025, wobble=2.0, scatter=0.04)
LOOSE = Style(slant=0.14, drift=0.04, wobble=3.5, scatter=0.07)


@dataclass
class Written:
    """Path commands (page points) and the box they cover."""

    commands: list[Command]
    bbox: list[float]  # x0, y0, x1, y1

    @property
    def width(self) -> float:
        return self.bbox[2] - self.bbox[0]


def write(
    hand: str,
    text: str,
    x: float,
    y: float,
    size: float,
    rng: random.Random,
    style: Style = NEAT,
    angle: float = 0.0,
) -> Written:
    """`text` written from (x, y) on its baseline at `size` points, turned by `angle` degrees
    about (x, y); every glyph jittered by `style` from `rng`."""
    font = glyphs(hand)
    unit = size / font.upm
    turn = math.radians(angle)
    cos_t, sin_t = math.cos(turn), math.sin(turn)
    commands: list[Command] = []
    pen_x = 0.0
    drift = 0.0
    xs: list[float] = []
    ys: list[float] = []
    for ch in text:
        if ch == " ":
            name = font.cmap.get(32)
            advance = font.advances[name] if name else font.upm * 0.3
            pen_x += advance * unit * (1 + rng.uniform(-style.scatter, style.scatter))
            continue
        name = font.cmap[ord(ch)]
        scale = unit * (1 + rng.uniform(-style.scatter, style.scatter))
        drift = max(-0.08, min(0.08, drift + rng.uniform(-style.drift, style.drift)))
        lift = drift * size
        rot = math.radians(rng.uniform(-style.wobble, style.wobble))
        cos_g, sin_g = math.cos(rot), math.sin(rot)

        def place(
            gx: float,
            gy: float,
            scale: float = scale,
            lift: float = lift,
            cos_g: float = cos_g,
            sin_g: float = sin_g,
            origin: float = pen_x,
        ) -> tuple[float, float]:
            # Glyph units -> the glyph turned about its origin, slanted, on the drifting
            # baseline -> the line turned by `angle` about (x, y).
            lx, ly = gx * scale, gy * scale
            lx, ly = lx * cos_g - ly * sin_g, lx * sin_g + ly * cos_g
            lx += ly * style.slant + origin
            ly += lift
            px = x + lx * cos_t - ly * sin_t
            py = y + lx * sin_t + ly * cos_t
            xs.append(px)
            ys.append(py)
            return round(px, 2), round(py, 2)

        for command in font.outlines[name]:
            op = command[0]
            if op == "Z":
                commands.append(command)
                continue
            points = command[1:]
            placed: list[float] = []
            for i in range(0, len(points), 2):
                placed.extend(place(points[i], points[i + 1]))
            commands.append((op, *placed))
        pen_x += (
            font.advances[name] * scale * (1 + rng.uniform(-style.scatter, style.scatter) * 0.5)
        )
    if not xs:
        return Written([], [x, y, x, y])
    bbox = [round(min(xs), 2), round(min(ys), 2), round(max(xs), 2), round(max(ys), 2)]
    return Written(commands, bbox)


def shipped_files() -> list[Path]:
    """The hand fonts' files (tests check each is shipped with its licence)."""
    return [FOLDER / name for name in sorted(set(HAND_FONTS.values()))]
