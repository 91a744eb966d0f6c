"""The audit's second reader: PP-OCRv4, an engine independent of tesseract.

Tesseract alone cannot prove a page honest: what it misses on a blurred scan a person and a
modern recognizer read (a blurred form's boxes unread by every tesseract reading leave the
audit unverified: see docs/measurements.md#pp-ocr-as-the-second-reader), and what it cannot
read in a box judged illegible another engine may (then the generator claimed abstention where
a reader can answer). So every box tesseract leaves unread, and every box judged illegible, is read
again by PP-OCRv4 as packaged by `rapidocr-onnxruntime` (text detection, the 180-degree line
classifier and recognition; its models ship inside the package, nothing is downloaded). A
value counts as read when either engine reads it in its box.

The engine runs on one thread, in the process that asks (one per process, loaded on first
use): its answer for the same pixels is the same every run.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from packetbench.core.errors import BadInput, UsageError

Matrix = np.ndarray[Any, Any]
PACKAGE = "rapidocr-onnxruntime"
PAD = 16  # white pixels around a box read on its own: the detector needs a margin to see text
BLANK = 230  # a box with no pixel darker than this holds no ink to read
# The detector reads a box at this resolution: at 300 dpi a blurred scan's small type is out of
# what it learned (see docs/measurements.md#pp-ocr-as-the-second-reader).
DETECT_DPI = 150


def _no_telemetry() -> None:
    """onnxruntime 1.32 on Linux starts a telemetry client (events sent to Microsoft, a session
    file written to the temporary folder) unless ORT_DISABLE_TELEMETRY is set when it loads:
    an audit sends nothing anywhere and leaves no file behind. A caller's own setting stands."""
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")


def available() -> bool:
    """Whether the engine's package imports (it needs its own native libraries)."""
    _no_telemetry()
    try:
        import rapidocr_onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


def required(why: str) -> None:
    """A usage error unless the engine is there: `why` names what needs it."""
    if not available():
        raise UsageError(
            f"{why} needs PP-OCR ({PACKAGE}), which does not import here "
            f'(reinstall packetbench: pip install -e ".")'
        )


def _part(corners: Matrix, start: float, end: float, text: str) -> tuple[float, ...]:
    """The upright box (left, top, right, bottom) of the part of a read line (corners:
    top-left, top-right, bottom-right, bottom-left) between fractions `start` and `end` of
    its length."""
    top_left, top_right, bottom_right, bottom_left = corners
    points = np.array(
        [
            top_left + (top_right - top_left) * start,
            top_left + (top_right - top_left) * end,
            bottom_left + (bottom_right - bottom_left) * end,
            bottom_left + (bottom_right - bottom_left) * start,
        ]
    )
    xs, ys = points[:, 0], points[:, 1]
    return float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())


def split_line(
    corners: Matrix, text: str
) -> tuple[list[tuple[str, tuple[float, ...]]], list[tuple[str, tuple[float, ...]]]]:
    """A read line's characters (spread evenly along it: the engine reads lines and often
    drops their spaces) and its space-separated pieces, each with its upright box."""
    chars: list[tuple[str, tuple[float, ...]]] = []
    tokens: list[tuple[str, tuple[float, ...]]] = []
    n = len(text)
    at = 0
    for piece in text.split(" "):
        if piece:
            tokens.append((piece, _part(corners, at / n, (at + len(piece)) / n, piece)))
            chars.extend(
                (char, _part(corners, (at + i) / n, (at + i + 1) / n, char))
                for i, char in enumerate(piece)
            )
        at += len(piece) + 1
    return chars, tokens


# Sessions are made one engine at a time (`PpOcr` amends the package's options meanwhile).
_LOADING_SESSIONS = threading.Lock()


class PpOcr:
    """PP-OCRv4 on one thread. `lines` reads an image whole; `read_box` reads a box cut out
    of a page on its own, as the audit reads a box tesseract missed."""

    def __init__(self) -> None:
        required("this reader")  # (and no telemetry)
        from rapidocr_onnxruntime import RapidOCR
        from rapidocr_onnxruntime.utils import infer_engine

        # The package turns onnxruntime's memory arena off: then every run maps and unmaps its
        # large tensors afresh (a box's detection reads it enlarged to 736 pixels a side), a
        # fifth of the engine's CPU time in the kernel zeroing pages. With the arena the same
        # kernels compute the same numbers in memory kept from run to run (its peak is the
        # same: one call at a time). The package has no setting for it, so its session
        # options are amended while the engine's sessions are made.
        # (A version of the package without that hook makes its sessions as it does.)
        session = getattr(infer_engine, "OrtInferSession", None)
        made = vars(session).get("_init_sess_opts") if session is not None else None

        def options(config: dict[str, Any]) -> Any:
            opts = made.__func__(config)  # type: ignore[union-attr]
            opts.enable_cpu_mem_arena = True
            return opts

        with _LOADING_SESSIONS:
            if isinstance(made, staticmethod):
                session._init_sess_opts = staticmethod(options)  # type: ignore[union-attr]
            try:
                self._engine = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)
            finally:
                if isinstance(made, staticmethod):
                    session._init_sess_opts = made  # type: ignore[union-attr]
        self._guard = threading.Lock()  # the wrapper keeps per-call state: one call at a time

    def lines(self, image: Matrix, source: str) -> list[tuple[Matrix, str]]:
        """Each line read on a gray image: its four corners (pixels) and its text."""
        rgb = np.ascontiguousarray(np.repeat(image[:, :, None], 3, axis=2))
        try:
            with self._guard:
                found, _elapsed = self._engine(rgb, use_cls=True)
        except Exception as error:  # the engine's own failures, whatever their class
            raise BadInput(f"{source}: PP-OCR failed ({error})") from None
        return [
            (np.asarray(box, dtype=np.float64).reshape(4, 2), str(text))
            for box, text, _score in found or []
            if str(text).strip()
        ]

    def read_box(
        self, crop: Matrix, dpi: int, source: str, enough: Callable[[str], bool] | None = None
    ) -> tuple[str, str]:
        """What the engine reads in a box on its own (`crop`: gray, cut out of its page at
        `dpi`), two ways: its lines found and read at DETECT_DPI, in reading order (top to
        bottom, each left to right) and joined by spaces (a value wrapped on two lines), and
        the box read as one line as it is (type the detector splits or loses). The line is
        read first; when `enough` says it reads what the caller looks for, the lines are not
        looked for (the detector is most of the cost) and the first reading is ""."""
        if crop.size == 0 or crop.min() >= BLANK:  # no ink: nothing to read
            return "", ""
        line = self._line(crop, source)
        if enough is not None and enough(line):
            return "", line
        return self._detected(_resized(crop, DETECT_DPI / dpi), source), line

    def _detected(self, crop: Matrix, source: str) -> str:
        sheet = np.full((crop.shape[0] + 2 * PAD, crop.shape[1] + 2 * PAD), 255, dtype=np.uint8)
        sheet[PAD : PAD + crop.shape[0], PAD : PAD + crop.shape[1]] = crop
        rows: list[tuple[float, float, list[tuple[float, str]]]] = []
        for corners, text in sorted(
            self.lines(sheet, source), key=lambda line: float(line[0][:, 1].mean())
        ):
            top, bottom = float(corners[:, 1].min()), float(corners[:, 1].max())
            middle, left = (top + bottom) / 2, float(corners[:, 0].min())
            if rows and rows[-1][0] <= middle <= rows[-1][1]:
                rows[-1][2].append((left, text))
            else:
                rows.append((top, bottom, [(left, text)]))
        return " ".join(text for _, _, row in rows for _, text in sorted(row))

    def _line(self, crop: Matrix, source: str) -> str:
        rgb = np.ascontiguousarray(np.repeat(crop[:, :, None], 3, axis=2))
        try:
            with self._guard:
                found, _elapsed = self._engine(rgb, use_det=False, use_cls=True)
        except Exception as error:  # the engine's own failures, whatever their class
            raise BadInput(f"{source}: PP-OCR failed ({error})") from None
        return " ".join(str(line[0]) for line in found or [])

    def read_boxes(
        self,
        crops: Sequence[Matrix],
        dpi: int,
        source: str,
        enough: Sequence[Callable[[str], bool]] | None = None,
    ) -> list[tuple[str, ...]]:
        """`read_box` of each crop (`enough`: its test, crop by crop)."""
        tests = enough if enough is not None else [None] * len(crops)
        return [
            self.read_box(crop, dpi, source, test) for crop, test in zip(crops, tests, strict=True)
        ]


def _resized(crop: Matrix, scale: float) -> Matrix:
    """`crop` scaled by `scale` (Lanczos), unchanged when that is within a tenth of 1."""
    if abs(scale - 1) < 0.1:
        return crop
    from PIL import Image

    image = Image.fromarray(np.ascontiguousarray(crop))
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return np.asarray(image.resize(size, Image.Resampling.LANCZOS), dtype=np.uint8)


_ENGINE: list[PpOcr] = []
_LOADING = threading.Lock()


def engine() -> PpOcr:
    """This process's engine, loaded on first use (its models take a tenth of a second to
    load again)."""
    with _LOADING:
        if not _ENGINE:
            _ENGINE.append(PpOcr())
        return _ENGINE[0]


def release() -> None:
    """Drop this process's engine, if loaded, and with it the memory its sessions' arenas
    keep (the largest tensors of every image it read: an arena never shrinks). An audit
    releases it after each packet, so what one packet's pages took is not kept for the
    rest of a corpus; the next packet loads it again."""
    with _LOADING:
        _ENGINE.clear()
