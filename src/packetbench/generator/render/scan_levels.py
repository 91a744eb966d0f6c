"""The scan levels: how hard each kind of scan is (`Level`), and the capture mode it belongs to.

`generator.render.scan` draws a page at a level; `generator.patterns.scan` draws the levels.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

# The capture modes: the ways a page reaches the underwriter as an image, the tier's vocabulary
# (docs/tiers.md). Every level belongs to exactly one (`Level.mode`); a page drawn natively is
# "native". The manifest names a scanned page's mode (`capture_mode`), and the difficulty card
# slices its readings by mode.
MODES: dict[str, str] = {
    "office_scan": "a flatbed or feeder scan, straight or nearly, with the scanner's own faults",
    "misfed": "fed crooked, skewed or turned by a document feeder",
    "fax": "a fax: bilevel at fax resolution, streaks, the sending machine's header",
    "photocopy": "a copy of a copy, reduced or two to a sheet, then scanned",
    "low_res_scan": "stored at 120-150 dpi with heavy JPEG (quality 14-30)",
    "phone_near": "a phone photo of the page filling the frame: tilt, curl, a fold, uneven light",
    "phone_far": "a phone photo from further back: the page half the frame, tilted, turned",
    "distorted_paper": "the paper itself bent and marked: folded in thirds, stained, punched",
}
NATIVE = "native"  # the capture mode of a page drawn natively (text layer kept)


@dataclass(frozen=True)
class Level:
    """How hard one kind of scan is: geometry ranges and degradation strengths."""

    name: str
    dpi: int
    mode: str  # the capture mode the level belongs to (a key of MODES)
    angle: float  # largest rotation, degrees (either direction)
    min_angle: float = 0.0  # smallest rotation (a skewed scan is never straight)
    scale: tuple[float, float] = (1.0, 1.0)
    shift: float = 0.0  # largest shift, points
    perspective: float = 0.0  # largest corner displacement, share of the page's size
    # A camera tilted toward one side of the page (a phone photo): that side's two corners
    # drawn together, each by a share of the side's length in this range (0, 0: none).
    keystone: tuple[float, float] = (0.0, 0.0)
    noise: float = 0.0  # standard deviation of pixel noise, gray levels
    edges: float = 0.0  # darkening of the page's borders (0-1)
    shadow: float = 0.0  # a dark band along one side (0-1)
    light: float = 0.0  # uneven light across the page (0-1)
    speckle: float = 0.0  # share of pixels turned into dust
    lines: int = 0  # streaks along the paper path
    binarize: bool = False  # fax: black and white only
    quality: int = 80  # JPEG quality (ignored for binarized pages, kept lossless)
    paper: int = 255  # gray of the paper
    background: int | None = None  # what shows around a moved page (None: the paper)
    whiten: float = 14.0  # the scanner's background removal: this close to the paper is paper
    ink: float = 1.0  # contrast of the ink (1: as printed)
    # The harder levels' damage (every default leaves a level as it was: no extra random draw).
    blur: float = 0.0  # Gaussian blur radius, pixels (out of focus)
    motion: int = 0  # length of a motion blur along the paper path (across the page), pixels
    thicken: int = 0  # toner spread: strokes grown by one pixel this many times (counters fill)
    turns: tuple[int, ...] = ()  # quarter turns a page may be fed at (degrees: 90, 180, 270)
    damage: tuple[str, ...] = ()  # local damage: keys of `damage.DAMAGE`, applied in order
    header: bool = False  # a fax: the sending machine's header line over the page's top
    # Pages printed on one sheet before the scan (2: two consecutive pages side by side,
    # `generator.render.twoup`); the scanned file then has one page per sheet.
    up: int = 1
    # Rows and columns of tiles a perspective is drawn in (`scan_draw._tile_matrices`; None:
    # `scan_draw.TILES`).
    tiles: tuple[int, int] | None = None
    # A phone's camera: the uneven light with the phone's shadow over a corner
    # (`damage.phone_shadow`) drawn as one smooth field (`scan_degrade._camera_light`).
    camera: bool = False
    # Paper that is not flat, drawn as a mesh (`scan_mesh`): a lifted edge or corner rising up
    # to `curl` points, `folds` fold lines (1: across the middle; 2: in thirds, for an
    # envelope), each side of a fold turned `fold` (points per point of distance) from the other.
    curl: float = 0.0
    folds: int = 0
    fold: float = 0.0
    # A Group 3 fax (`scan_fax`): lines per inch sent down the page (98: standard; a page with
    # small type goes fine, `scan_fax.resolution`), stored back at `dpi` (0: not such a fax).
    rows: int = 0
    dropouts: int = 0  # bursts of lines the fax's line garbled or lost
    fade: float = 0.0  # a thermal printer's fade: the largest share of black dots dropped
    # A photocopy of a copy (`scan_copy`): how many times the copier's pass is applied.
    copies: int = 0


LEVELS: dict[str, Level] = {
    "clean": Level(
        "clean", 200, mode="office_scan", angle=0.3, shift=2.0, noise=3.0, quality=75, paper=250
    ),
    "moderate": Level(
        "moderate",
        170,
        mode="office_scan",
        angle=1.5,
        scale=(0.98, 1.0),
        shift=6.0,
        noise=7.0,
        edges=0.35,
        speckle=0.0004,
        quality=60,
        paper=244,
        ink=0.92,
    ),
    "skewed": Level(
        "skewed",
        180,
        mode="misfed",
        angle=4.0,
        min_angle=2.0,
        scale=(0.96, 0.99),
        shift=8.0,
        noise=6.0,
        edges=0.25,
        shadow=0.45,
        quality=60,
        paper=242,
    ),
    "fax": Level(
        "fax",
        200,
        mode="fax",
        angle=0.8,
        shift=4.0,
        noise=18.0,
        speckle=0.0008,
        lines=3,
        binarize=True,
        paper=255,
        header=True,
    ),
    "degraded": Level(
        "degraded",
        150,
        mode="low_res_scan",
        angle=2.0,
        scale=(0.97, 1.0),
        shift=6.0,
        noise=10.0,
        edges=0.35,
        speckle=0.0008,
        quality=25,
        paper=238,
        ink=0.85,
    ),
    # A phone photo near, the page on bent paper (`scan_mesh`), its focus falling off to one
    # side, taken sideways or from across the desk three times in five.
    "photo": Level(
        "photo",
        200,
        mode="phone_near",
        angle=2.0,
        scale=(0.95, 0.98),
        shift=6.0,
        perspective=0.02,
        noise=4.0,
        light=0.25,
        quality=60,
        paper=236,
        ink=0.95,
        background=72,
        whiten=0.0,
        turns=(0, 0, 90, 180, 270),
        damage=("soft",),
        curl=20.0,
        folds=1,
        fold=0.01,
    ),
}

# The harder levels: damage up to the edge of legibility (every value stays legible to a person).
# The tiers draw them from N4 on, except those opt-in (patterns.scan.OPT_IN), which only
# --set patterns.scan.<level>=1 forces.
_BASE: dict[str, Any] = {"dpi": 200, "angle": 0.8, "shift": 4.0, "noise": 4.0, "paper": 246}
HARDER_LEVELS: dict[str, Level] = {
    "blurred": Level("blurred", mode="office_scan", **_BASE, blur=1.4, quality=70),
    "motion_blur": Level("motion_blur", mode="office_scan", **_BASE, motion=4, quality=70),
    # JPEG at quality 14: blocky, the type's edges ringing; lower and the audit's OCR loses a
    # dense schedule's 5-point type (see docs/measurements.md#the-scan-levels-settings).
    "jpeg_blocks": Level(
        "jpeg_blocks",
        150,
        mode="low_res_scan",
        angle=0.8,
        shift=4.0,
        noise=4.0,
        quality=14,
        paper=244,
    ),
    # Copies of copies (`scan_copy`): the copier's pass (toner lost in patches, strokes spread
    # and printed darker, the gray cast, a dark band along one side, drum speckle) applied
    # twice or three times, then scanned (see docs/measurements.md#photocopies-of-copies).
    "photocopy_2nd": Level(
        "photocopy_2nd",
        170,
        mode="photocopy",
        angle=1.0,
        shift=5.0,
        noise=6.0,
        edges=0.3,
        speckle=0.0002,
        quality=60,
        paper=240,
        whiten=8.0,
        blur=0.3,
        copies=2,
    ),
    "photocopy_3rd": Level(
        "photocopy_3rd",
        150,
        mode="photocopy",
        angle=1.5,
        shift=6.0,
        noise=8.0,
        edges=0.45,
        speckle=0.0002,
        lines=2,
        quality=50,
        paper=236,
        whiten=6.0,
        blur=0.3,
        copies=3,
    ),
    "blurred_patch": Level(
        "blurred_patch", mode="office_scan", **_BASE, quality=70, damage=("patch",)
    ),
    "roller_bar": Level("roller_bar", mode="office_scan", **_BASE, quality=70, damage=("roller",)),
    # A letter folded in thirds for an envelope and flattened on the glass: two ridges, each
    # third turned a little from the next, a corner curling up; laid on the glass any way round
    # (PP-OCR reads through the folds, not a page on its side: see
    # docs/measurements.md#bent-paper-phone-photos-near-and-distorted-paper).
    "crease": Level(
        "crease",
        mode="distorted_paper",
        **_BASE,
        quality=70,
        turns=(0, 90, 180, 270),
        curl=20.0,
        folds=2,
        fold=0.012,
    ),
    "coffee_ring": Level(
        "coffee_ring",
        mode="distorted_paper",
        **_BASE,
        quality=70,
        damage=("coffee",),
        turns=(0, 0, 90, 180, 270),
        curl=25.0,
        folds=1,
        fold=0.01,
    ),
    "punch_holes": Level(
        "punch_holes", mode="distorted_paper", **_BASE, quality=70, damage=("punch",), curl=25.0
    ),
    # Fed sideways (a quarter turn either way) or, twice as often, upside down (a stack fed
    # the wrong way up): Tesseract finds sideways lines of text on its own, never upside-down
    # ones.
    "rotated": Level(
        "rotated", mode="misfed", **_BASE, quality=70, turns=(90, 180, 180, 180, 180, 270)
    ),
    # A reduced copy (a copier's "fit to page", then the copy laid crooked on the glass, half
    # the time the wrong way up): 60-70 %, turned 2.5 to 5 degrees, scanned at 240 dpi. Hard
    # for a reader that does not turn the page back, not for one that does (see
    # docs/measurements.md#the-scan-levels-settings).
    "reduced": Level(
        "reduced",
        mode="photocopy",
        **{**_BASE, "dpi": 240, "angle": 5.0},
        min_angle=2.5,
        scale=(0.6, 0.7),
        quality=70,
        background=200,
        turns=(0, 180),
    ),
    # A sheet fed crooked through a document feeder: turned 4.5 to 8 degrees (shrunk so its
    # corners stay on the sheet), a shadow along the side that lifted. A person turns the page
    # in their head; a reader that does not deskew loses most of it.
    "crooked": Level(
        "crooked",
        180,
        mode="misfed",
        angle=8.0,
        min_angle=4.5,
        scale=(0.9, 0.94),
        shift=8.0,
        noise=6.0,
        edges=0.3,
        shadow=0.35,
        quality=60,
        paper=242,
    ),
    # Two consecutive pages reduced side by side on one landscape sheet (a copier's "2 in 1"),
    # scanned at 300 dpi, JPEG quality 85 (`generator.render.twoup`): a page of the file holds
    # two of the document's pages, so every page number moves (`Presentation.sheets`). A dense
    # schedule's 5-point type is 3 points on the sheet: less and the audit's OCR loses it (see
    # docs/measurements.md#the-scan-levels-settings).
    "two_up": Level(
        "two_up",
        300,
        mode="photocopy",
        angle=0.8,
        shift=4.0,
        noise=4.0,
        quality=85,
        paper=246,
        up=2,
    ),
    # A scanner's or a fax's draft mode: the page stored at 120 dpi (zooming in shows bigger
    # pixels, nothing more), slightly soft, heavy JPEG (quality 30, gray), skewed 0.3 to 1.2
    # degrees. 120 dpi is the lowest at which a 6-point "rn" still stands apart from "m" and
    # the audit reads the boxes it must, and at 110 or 100 dpi a 4.5-point schedule's digits
    # run together for a person (see docs/measurements.md#the-scan-levels-settings and
    # #low-resolution-scans).
    "low_res": Level(
        "low_res",
        120,
        mode="low_res_scan",
        angle=1.2,
        min_angle=0.3,
        scale=(0.98, 1.0),
        shift=5.0,
        noise=5.0,
        edges=0.2,
        quality=30,
        paper=240,
        ink=0.95,
        blur=0.35,
    ),
    # A Group 3 fax as a fax server stores it (`scan_fax`): sent at 204 x 98 dpi (204 x 196,
    # fine, when the page has type under 5.5 points), each line repeated down to 204 dpi so the
    # page keeps its size, fed 0.5-2 degrees crooked, bilevel (type thresholded, gray shading
    # an ordered dither), ten bursts of lines garbled or lost, the receiver's thermal print
    # fading towards one side, and the sending machine's header (see
    # docs/measurements.md#fax-at-group-3-resolution). `fax` above is the same fax without
    # the line's resolution, kept for N3.
    "fax_g3": Level(
        "fax_g3",
        204,
        mode="fax",
        angle=2.0,
        min_angle=0.5,
        shift=4.0,
        noise=4.0,
        speckle=0.0003,
        binarize=True,
        paper=255,
        header=True,
        rows=98,
        dropouts=10,
        fade=0.5,
    ),
    # A phone photo of the page on a table: the camera well off square (one side of the page
    # 8-13 % shorter than the one across), turned up to 3 degrees, the table top around the
    # page, uneven light and the phone's shadow, 160 dpi JPEG quality 70: the lowest
    # resolution and quality at which the audit still reads a 5-point VIN on the far side of
    # the tilt and a 6-point "6" under the shadow stays open (see
    # docs/measurements.md#tuning-the-phone-photos). The paper curls at an edge or corner and
    # is folded once (`scan_mesh`), the focus falls off toward one side, and three photos in
    # five are taken sideways (the phone's orientation wrong) or from across the desk, upside
    # down: PP-OCR reads through bent paper, not a page on its side (see
    # docs/measurements.md#bent-paper-phone-photos-near-and-distorted-paper).
    "phone_photo": Level(
        "phone_photo",
        160,
        mode="phone_near",
        angle=3.0,
        scale=(0.9, 0.95),
        shift=8.0,
        perspective=0.03,
        keystone=(0.04, 0.065),
        noise=4.0,
        light=0.5,
        quality=70,
        paper=232,
        ink=0.92,
        background=84,
        whiten=0.0,
        turns=(0, 0, 90, 180, 270),
        damage=("soft",),
        camera=True,
        curl=30.0,
        folds=1,
        fold=0.012,
    ),
}
# The same photo taken from further back: the page 55-65 % of the frame (half the time the
# wrong way up), the phone well off square (one side 14-20 % shorter) and turned 2-6 degrees.
# It costs both careful readers at once (small type for PP-OCR at 150 dpi, a tilt no single
# deskew undoes for Tesseract); 260 dpi keeps 8-point type, about 4.5 points in the photo,
# legible to a person and to the audit, and 55-65 % of the frame keeps a schedule's 5-point
# names on the far side readable (see docs/measurements.md#tuning-the-phone-photos).
HARDER_LEVELS["far_photo"] = replace(
    HARDER_LEVELS["phone_photo"],
    name="far_photo",
    dpi=260,
    mode="phone_far",
    angle=6.0,
    min_angle=2.0,
    scale=(0.55, 0.65),
    keystone=(0.07, 0.1),
    quality=75,
    blur=0.0,
    turns=(0, 180),
    tiles=(32, 16),  # the stronger tilt needs the smaller tiles (most are on the table)
    damage=(),
    curl=0.0,  # flat: from this far a page's curl is lost in its tilt
    folds=0,
    fold=0.0,
)
LEVELS.update(HARDER_LEVELS)
