"""scan.* — pages that reach the underwriter as images (scan phase).

A scan pattern asks, after layout, that pages be emitted as their scanned images
(`Presentation.scans`; the raster pipeline is generator.render.scan). The truth does not change:
a scanned value is still what a careful reader sees (docs/patterns.md rule 2), located on the
scanned page (its box moved with the page, `quad` its exact corners) and marked
`text_layer: false`, so the audit reads it by OCR of the page image.

scan.ocr_layer is a scan that brings its own text layer: invisible, offset from the glyphs and
misreading some words, drawn with the OCR-layer helpers of `textlayer.invisible_ocr` where the
scan put the page's words.

One scan per document: the levels exclude each other. A scan cannot be combined with what only
a text layer carries (a redaction's covered text), or with what Tesseract's English model cannot
read back (Hebrew and Arabic names, status icons drawn as dingbats).
"""

from __future__ import annotations

import math
from typing import Any

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.textlayer.common import _finish, _unreadable, _values
from packetbench.generator.patterns.textlayer.invisible_ocr import _ocr_words
from packetbench.generator.render import attack, faxheader
from packetbench.generator.render.ops import Op
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.scan_levels import LEVELS

# What a scanned page cannot carry (see the module docstring).
UNSCANNABLE = ("overlay.redaction", "data.rtl_names", "overlay.status_icons")
# What a scan excludes: any other scan, and what a scanned page cannot carry.
EXCLUDES = ("scan.*", *UNSCANNABLE)


def _scan(staging: Staging, level: str, mixed: bool = False) -> bool:
    """Ask that the document's pages be emitted as scans at `level` (`mixed`: some pages, at
    a level chosen here)."""
    rng = staging.rng
    look = staging.presentation
    chosen = rng.choice(("clean", "moderate")) if mixed else level
    staging.applied.details["level"] = chosen
    staging.applied.details["capture_mode"] = _mode(chosen)

    def scan(pdf: PdfDocument) -> None:
        count = len(pdf.pages)
        if mixed:
            if count < 2:
                return  # nothing to mix: the document stays native
            share = rng.sample(range(count), rng.randint(1, count - 1))
            pages = sorted(share)
        else:
            pages = list(range(count))
        # One seed per sheet: a level printing two pages to a sheet (`two_up`) scans each
        # pair once; every other level draws a seed per page.
        up = LEVELS[chosen].up
        seed = 0
        for index in pages:
            if index % up == 0:
                seed = rng.getrandbits(63)
            look.scans[index] = (chosen, seed)
            staging.applied.pages.add(index + 1)
        if up > 1:
            staging.applied.details["sheets"] = [
                [page + 1 for page in pages[first : first + up]]
                for first in range(0, len(pages), up)
            ]
        if pages and LEVELS[chosen].header:
            _fax_header(pdf, staging, look.scans[pages[0]][1], count)
        on_pages = {index + 1 for index in pages}
        for path, drawn in pdf.recorder.drawn.items():
            if any(loc.get("page") in on_pages for loc in drawn.locations):
                staging.applied.targets.append(path)

    def scanned(recorder: Recorder) -> bool:
        """Kept only when pages were really scanned (a one-page document cannot be
        mixed); the manifest then says how each page was moved, and which values a fax's
        header left past reading. For a level printing two pages to a sheet, `pages` is keyed
        by sheet (each with the `matrices` of its halves, in the order of `sheets`)."""
        done = recorder.presentation.scanned
        staging.applied.details["pages"] = {str(page): done[page] for page in sorted(done)}
        if recorder.presentation.fax_header is not None:
            _struck(recorder, staging)
        return bool(done)

    staging.after_layout(scan)
    staging.confirm(scanned)
    return True


def _mode(level: str) -> str:
    """The capture mode of a scan level (`render.scan_levels.MODES`)."""
    return LEVELS[level].mode


def _fax_header(pdf: PdfDocument, staging: Staging, seed: int, count: int) -> None:
    """A fax's transmission header (`faxheader`), the same on every page but for its page
    marker, drawn from the first scanned page's seed (the document's draws stay as they were).
    Its fields are visible text of each page, in pixels only."""
    header = faxheader.draw(seed, count)
    staging.presentation.fax_header = header
    staging.applied.details["header"] = header.record()
    for index in range(count):
        for text in header.fields(index + 1):
            pdf.recorder.visible(text, index + 1, text_layer=False)


def _struck(recorder: Recorder, staging: Staging) -> None:
    """Values the header printed over past reading everywhere they are drawn (the legibility
    rule judged their boxes, `PdfDocument._mark_legible`): abstention expected
    (docs/patterns.md rule 3b), recorded as the pattern's effect on the truth. A blotted value
    is the blot's."""
    applied = staging.applied
    blotted = set(recorder.presentation.blotted)
    for path in recorder.illegible_paths():
        if path in blotted:
            continue
        applied.targets.append(path)
        applied.delta[path] = {
            "canonical": recorder.leaf(path)[0],
            "shown": recorder.drawn[path].rendered_as,
            "illegible": True,
            "damage": "under the fax header",
        }


# The patterns below are declared in catalogue order, the order in which a document's
# patterns are chosen and applied: moving a declaration changes packets.


@pattern(
    "scan.clean",
    "Clean scan",
    phase="scan",
    truth="none",
    incompatible=EXCLUDES,
    description="A flatbed scan at 200 dpi: straight, sharp, light noise.",
)
def _clean(staging: Staging) -> bool:
    return _scan(staging, "clean")


@pattern(
    "scan.moderate",
    "Moderate scan",
    phase="scan",
    truth="none",
    reference="p34_scan_noise",
    incompatible=EXCLUDES,
    description="Rotated up to 1.5 degrees, blurred, noisy, dark edges, dust.",
)
def _moderate(staging: Staging) -> bool:
    return _scan(staging, "moderate")


@pattern(
    "scan.fax",
    "Fax",
    phase="scan",
    truth="none",
    incompatible=EXCLUDES,
    description="Black and white at fax resolution, noise thresholded into the strokes, "
    "streaks along the paper path.",
)
def _fax(staging: Staging) -> bool:
    return _scan(staging, "fax")


@pattern(
    "scan.skewed",
    "Skewed scan",
    phase="scan",
    truth="none",
    reference="p43_scan_skewed",
    incompatible=EXCLUDES,
    description="Rotated 2 to 4 degrees and shrunk, a shadow along one side.",
)
def _skewed(staging: Staging) -> bool:
    return _scan(staging, "skewed")


@pattern(
    "scan.degraded",
    "Degraded scan",
    phase="scan",
    truth="none",
    reference="p53_heavy_degradation",
    incompatible=EXCLUDES,
    description="150 dpi, rotated, blurred, noisy, JPEG quality 25; still legible to a person.",
)
def _degraded(staging: Staging) -> bool:
    return _scan(staging, "degraded")


@pattern(
    "scan.photo",
    "Phone photo",
    phase="scan",
    truth="none",
    incompatible=EXCLUDES,
    description="Perspective (each corner pulled in), rotation, uneven light.",
)
def _photo(staging: Staging) -> bool:
    return _scan(staging, "photo")


@pattern(
    "scan.mixed",
    "Mixed native and scanned pages",
    phase="scan",
    truth="none",
    incompatible=EXCLUDES,
    description="Some pages of the document scanned (clean or moderate), the "
    "others native: one file, two ways of reading it.",
)
def _mixed(staging: Staging) -> bool:
    return _scan(staging, "", mixed=True)


@pattern(
    "scan.ocr_layer",
    "Scan with an OCR layer",
    phase="scan",
    truth="none",
    incompatible=("scan.*", "textlayer.*", *UNSCANNABLE),
    description="A clean or moderate scan carrying an invisible OCR text layer, offset from "
    "the glyphs, that misreads some words.",
)
def _ocr_layer(staging: Staging) -> bool:
    """A clean or moderate scan whose page carries an invisible OCR layer: the page's words,
    where the scan put them, offset and some misread."""
    rng = staging.rng
    level = rng.choice(("clean", "moderate"))
    if not _scan(staging, level):
        return False
    applied = staging.applied
    dx = round(rng.choice((-1, 1)) * rng.uniform(0.8, 2.0), 2)
    dy = round(rng.choice((-1, 1)) * rng.uniform(0.6, 1.4), 2)
    applied.details["offset"] = [dx, dy]
    # 0-based page -> (the layer's words on the native page, paths holding a misread word,
    # the misread words): read before the scan, placed after it.
    layers: dict[int, tuple[list[attack.Word], list[str], list[str]]] = {}

    def capture(pdf: PdfDocument) -> None:
        for index in sorted(staging.presentation.scans):
            words, wrong, misread = _ocr_words(pdf, index + 1, staging, dx, dy)
            layers[index] = (words, _misread_paths(pdf, index + 1, wrong), sorted(set(misread)))

    def layer(index: int, transform: Any) -> list[Op]:
        words, _, bad = layers.get(index, ([], [], []))
        matrix = transform.matrix
        angle = math.degrees(math.atan2(float(matrix[1, 0]), float(matrix[0, 0])))
        scale = math.sqrt(abs(float(matrix[0, 0] * matrix[1, 1] - matrix[0, 1] * matrix[1, 0])))
        moved = []
        for word in words:
            ((x, y),) = transform.points([(word.x, word.y)])
            moved.append(attack.Word(word.text, x, y, word.size * scale, angle, word.stretch))
        recorder = holder[0]
        for text in bad:
            recorder.invisible(text, index + 1)  # after the scan dropped the page's hidden
        return [attack.invisible_layer(moved)] if moved else []

    holder: list[Recorder] = []

    def claims(recorder: Recorder) -> bool:
        misread = 0
        for index in sorted(layers):
            _, paths, bad = layers[index]
            for path in paths:
                for location in recorder.drawn[path].locations:
                    if location.get("page") == index + 1:
                        _unreadable(applied, index + 1, path, location)
            misread += len(bad)
        applied.details["misread_words"] = misread
        _finish(applied)
        return True

    def remember(pdf: PdfDocument) -> None:
        holder.append(pdf.recorder)

    staging.after_layout(remember)
    staging.after_layout(capture)
    staging.presentation.on_scan.append(layer)
    staging.confirm(claims)
    return True


def _misread_paths(pdf: PdfDocument, page: int, wrong: dict[tuple[int, str], str]) -> list[str]:
    """Values on `page` the layer misreads wherever the page draws them (a value drawn twice
    and misread once still reads right in the other place)."""
    hit: dict[str, list[bool]] = {}
    for path, _, indices in _values(pdf, page):
        rendered = pdf.recorder.drawn[path].rendered_as
        hit.setdefault(path, []).append(
            any(index in indices and word in rendered for index, word in wrong)
        )
    located = {
        path: sum(1 for loc in pdf.recorder.drawn[path].locations if loc.get("page") == page)
        for path in hit
    }
    return [path for path, marks in hit.items() if all(marks) and len(marks) == located[path]]


# The harder levels: damage up to the edge of legibility, every value still legible to a person.
# In the N4-N5 draw (presets.py) but for the opt-in ones (OPT_IN below); force one with
# --set patterns.scan.<id>=1. Each level's capture mode is its
# `render.scan_levels.Level.mode`.
_HARDER: dict[str, tuple[str, str]] = {
    "blurred": ("Out-of-focus scan", "Gaussian blur of 1.4 pixels at 200 dpi."),
    "motion_blur": ("Motion-blurred scan", "The page moved while scanned: a 4-pixel smear."),
    "jpeg_blocks": ("JPEG blocks", "150 dpi saved at JPEG quality 14: visible 8x8 blocks."),
    "photocopy_2nd": (
        "Second-generation photocopy",
        "A copy of a copy: toner lost in patches, strokes spread and darker, a gray cast, a "
        "dark band along one side, speckle; scanned at 170 dpi.",
    ),
    "photocopy_3rd": (
        "Third-generation photocopy",
        "The copier's pass three times over: toner lost in patches, strokes spread, the gray "
        "cast and the dark bands compounding; scanned at 150 dpi with streaks.",
    ),
    "blurred_patch": ("Blurred patch", "A smudge on the glass: one region out of focus."),
    "roller_bar": ("Roller bar", "A gray bar down the page where a dirty roller touched."),
    "crease": ("Fold crease", "A fold across the page: a dark line and its shadow."),
    "coffee_ring": ("Coffee ring", "A stain's dark rim around a tinted inside."),
    "punch_holes": ("Punch holes", "Three holes punched in the left margin."),
    "rotated": (
        "Page fed turned",
        "Fed sideways (90 or 270 degrees, shrunk to fit) or, as often, upside down.",
    ),
    "reduced": (
        "Reduced copy",
        "The page copied at 60-70 % onto a larger sheet, laid crooked (2.5-5 degrees).",
    ),
    "crooked": (
        "Page fed crooked",
        "Turned 4.5 to 8 degrees by a document feeder, shrunk to fit, a shadow on one side.",
    ),
    "two_up": (
        "Two pages on one sheet",
        "Consecutive pages reduced to about 60 % side by side on a landscape sheet (a "
        "copier's 2 in 1), scanned at 300 dpi: the file has a page per sheet.",
    ),
    "low_res": (
        "Low-resolution scan",
        "A scanner's draft mode: the page stored at 120 dpi, slightly soft, JPEG quality 30, "
        "skewed under 1.2 degrees.",
    ),
    "phone_photo": (
        "Phone photo on a table",
        "The camera tilted (one side of the page 8-13 % shorter than the one across), the "
        "table around the page, uneven light and a phone's shadow, 160 dpi JPEG quality 70.",
    ),
    "far_photo": (
        "Phone photo from further back",
        "The page 55-65 % of the frame, half the time upside down, turned 2-6 degrees, the "
        "phone well off square (one side 14-20 % shorter), on a table in uneven light, 260 "
        "dpi JPEG quality 75.",
    ),
    "fax_g3": (
        "Group 3 fax",
        "Sent at 204 x 98 dpi (fine, 204 x 196, for small type) and stored back at 204 dpi: "
        "bilevel with a dithered halftone, lines garbled or lost, a thermal print fading "
        "across the page, the sender's header line.",
    ),
}


# Levels in no tier's draw, named with --set. photocopy_3rd: on an N5 packet's dense tables
# the audit's calibration refuses it (its reading disagrees with the pixel rule too often).
# two_up: no lever on a reader without restoration, and the pixel half of the audit cannot
# judge a sheet yet (`audit.pixels.scan_details`: one matrix per page). low_res, phone_photo
# and fax_g3: each alone too mild for the careful readers (a tier drawn as a mix of the
# capture modes reads as far easier than N5: docs/measurements.md#capture-modes-at-n5).
# Figures in docs/measurements.md#levels-out-of-the-tiers-draw; far_photo, which costs both
# careful readers at once, is most of N5's draw (presets.py).
OPT_IN = frozenset({"photocopy_3rd", "two_up", "low_res", "phone_photo", "fax_g3"})
# A reduced copy is never stamped VOID: at 60-70 % the type is 3.5 points, and a VOID or
# SUPERSEDED stamp's frame and letters across it left values a person reads that the audit's
# OCR did not (14 of 94 on one N5 page the calibration drew, past the 5 % it accepts).
ALSO_EXCLUDES = {"reduced": ("overlay.void_stamp",), "far_photo": ("overlay.void_stamp",)}


def _declare(level: str, name: str, description: str) -> None:
    @pattern(
        f"scan.{level}",
        name,
        phase="scan",
        truth="none",
        incompatible=(*EXCLUDES, *ALSO_EXCLUDES.get(level, ())),
        description=description,
        opt_in=level in OPT_IN,
    )
    def _harder(staging: Staging) -> bool:
        return _scan(staging, level)


for _level, (_name, _description) in _HARDER.items():
    _declare(_level, _name, _description)
