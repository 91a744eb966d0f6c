"""OCR of rendered pages, for pages whose text layer is missing or deliberately unreliable.

A page is rendered with pypdfium2 (300 dpi, grayscale) and read by the `tesseract` binary
(TSV output: every word with its box; no Python binding needed). A field is found when the
words whose centres fall inside its bbox (scaled to pixels, with a small margin) equal its
`rendered_as` under `normalize.string` (spaces aside: OCR drops and adds them) and `folded`
(what tesseract's English model cannot tell apart); failing that,
when its normalized text occurs in the page's OCR text as whole words. The second rule is
weaker, so its finds are counted apart. A visible string is found by the second rule, or with
its spaces removed when OCR merged its words ("SQ FT" read as "SQFT"). A checkbox is a mark,
not a word (OCR reads an empty box as "LJ" or "[J"): it is read as ticked when enough of its
interior is dark.

Tesseract runs single-threaded (OMP_THREAD_LIMIT=1, unless the caller set it): its OpenMP
threads made a page 4.6 times slower on the 2-core reference machine. Pages run in parallel
instead, one tesseract process per core. Boxes map to pixels through the page's crop box; a
page rotated by /Rotate would need the rotation applied too (no pattern rotates pages yet).
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from packetbench.audit import ppocr
from packetbench.benchmark.score import normalize
from packetbench.core.errors import BadInput, UsageError

DPI = 300
MARGIN = 2.0  # points added around a bbox: OCR boxes are looser than glyph boxes
# Page segmentation: tesseract's default, fully automatic. On rasterized canonical pages it
# found 97.9% of located values against 94.4% for "sparse text" (11), which drops lone digits.
PSM = "3"
# Boxes read again (`BoxReader`) are read three ways: as one line of text (reads a lone digit
# that sparse text drops), as sparse text (reads a lone letter a line can take for two), and,
# a box that holds more than one line of ink only, alone as one block (BLOCK): a value wrapped
# in a narrow cell, of which the other two keep the line they take for the text and drop the
# rest as noise on a blurred scan.
BLOCK = "6"
READINGS = ("7", "11", BLOCK)
# A box no reading found its value in is read once more sharpened (`sharpened`): twice the
# size, then an unsharp mask, as a careful reader restores a blurred scan. Tesseract loses
# 5-point type out of focus that a person reads at once (fresh N5 seed 820003: 55 of 65
# values of a blurred driver schedule unread in every reading, 36 of them read sharpened).
SHARPEN_SCALE = 2
SHARPEN = {"radius": 3, "percent": 200, "threshold": 0}
INK = 0.04  # a checkbox interior with at least this share of dark pixels is ticked
MARK_INSET = 0.5  # points trimmed off a checkbox interior, clear of its border's anti-aliasing


# Tokens with a digit are identifiers or numbers: a letter O, I or l in one is drawn like the
# digit beside it in Helvetica ("O25896314"), and OCR reads it as that digit.
_AS_DIGIT = str.maketrans({"o": "0", "i": "1", "l": "1"})


def folded(text: str) -> str:
    """`normalize.string` without what tesseract's English model cannot read apart.

    Its alphabet has no accented letters (it reads "Simön" as "Simon" or "Sim6n"; both are
    legible to a person); a capital I and a small l are one glyph in Helvetica; in a token
    with a digit, O/I/l are drawn like 0/1. The audit asks whether a scan is legible, so
    these are folded on both sides; anything else still has to match.
    """
    plain = normalize.string(
        "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    )
    return " ".join(
        t.translate(_AS_DIGIT) if any(c.isdigit() for c in t) else t.replace("l", "i")
        for t in plain.split()
    )


def same_text(read: str, expected: str) -> bool:
    """Whether OCR's `read` is `expected`, spaces aside (OCR drops and adds them), with or
    without folding: folding goes by token, and OCR glues "0646 Logan" into one."""
    return any(
        form(read).replace(" ", "") == form(expected).replace(" ", "")
        for form in (folded, normalize.string)
    )


@dataclass(frozen=True)
class Word:
    text: str
    left: float
    top: float
    right: float
    bottom: float  # pixels, origin top-left


class Halted(Exception):
    """A reading asked of a `Tesseract` that was halted (its result is no longer wanted)."""


# The largest image (pixels) read by the tesseract library in this process rather than by a
# tesseract process: a box, a sheet of boxes or a band; a whole page at the OCR resolution
# (8.4 million pixels for a letter page) runs in a process, which an interrupt can stop.
LIBRARY_PIXELS = 2_000_000


class _Library:
    """libtesseract, in this process, one engine per thread (loaded once, the language model
    with it). It reads an image exactly as the tesseract command does (the same API under
    it: page segmentation mode, `user_defined_dpi`, the TSV renderer's text; a test compares
    the two on real crops and pages), minus starting a process and loading the model for
    each call, which is most of the cost of reading a small image. One OpenMP thread per
    engine, as the command runs (OMP_THREAD_LIMIT=1). `get` is None where the library or
    its English model cannot be loaded: the command reads then."""

    _loaded: ClassVar[Any] = None
    _failed = False
    enabled = True  # False: every reading runs the command (`benchmarks/audit.py`'s old path)
    _lock = threading.Lock()
    _local = threading.local()
    _engines: ClassVar[list[int]] = []

    def __init__(self, lib: Any) -> None:
        self.lib = lib
        handle = lib.TessBaseAPICreate()
        if not handle or lib.TessBaseAPIInit3(handle, None, b"eng") != 0:
            if handle:
                lib.TessBaseAPIDelete(handle)
            raise OSError("libtesseract has no English model")
        # Tesseract's own messages go nowhere (the command's stderr was read only on failure).
        lib.TessBaseAPISetVariable(handle, b"debug_file", os.devnull.encode())
        self.handle = handle
        with _Library._lock:
            _Library._engines.append(handle)

    @classmethod
    def get(cls) -> _Library | None:
        if not cls.enabled:
            return None
        engine: _Library | None = getattr(cls._local, "engine", None)
        if engine is not None or cls._failed:
            return engine
        with cls._lock:
            lib = cls._loaded if cls._loaded is not None else cls._load()
        try:
            engine = cls(lib) if lib is not None else None
        except OSError:
            engine = None
        if engine is None:
            cls._failed = True
            return None
        cls._local.engine = engine
        return engine

    @classmethod
    def _load(cls) -> Any:
        import atexit
        import ctypes
        import ctypes.util

        os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # read when libgomp starts
        name = ctypes.util.find_library("tesseract")
        if os.environ.get("PACKETBENCH_OCR_LIBRARY") == "0" or not name:
            return None
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            return None
        void, text, integer = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
        for function, arguments, result in (
            ("TessBaseAPICreate", [], void),
            ("TessBaseAPIInit3", [void, text, text], integer),
            ("TessBaseAPIDelete", [void], None),
            ("TessBaseAPIEnd", [void], None),
            ("TessBaseAPISetVariable", [void, text, text], integer),
            ("TessBaseAPISetPageSegMode", [void, integer], None),
            ("TessBaseAPISetImage", [void, void, integer, integer, integer, integer], None),
            ("TessBaseAPISetSourceResolution", [void, integer], None),
            ("TessBaseAPIRecognize", [void, void], integer),
            ("TessBaseAPIGetTsvText", [void, integer], void),
            ("TessBaseAPIClear", [void], None),
            ("TessDeleteText", [void], None),
        ):
            try:
                bound = getattr(lib, function)
            except AttributeError:
                return None
            bound.argtypes, bound.restype = arguments, result
        cls._loaded = lib
        cls._quiet()
        atexit.register(cls._close)
        return lib

    @staticmethod
    def _quiet() -> None:
        """Leptonica's own messages off ("Error in boxClipToRectangle: box outside rectangle"
        on stderr, for a crop tesseract's layout analysis finds empty): the command's stderr
        is not shown either."""
        import ctypes
        import ctypes.util

        name = ctypes.util.find_library("lept") or ctypes.util.find_library("leptonica")
        try:
            lept = ctypes.CDLL(name) if name else None
            if lept is not None:
                lept.setMsgSeverity.argtypes, lept.setMsgSeverity.restype = [ctypes.c_int], None
                lept.setMsgSeverity(6)  # L_SEVERITY_NONE
        except (OSError, AttributeError):
            pass

    @classmethod
    def _close(cls) -> None:
        with cls._lock:
            for handle in cls._engines:
                cls._loaded.TessBaseAPIEnd(handle)
                cls._loaded.TessBaseAPIDelete(handle)
            cls._engines.clear()

    def tsv(self, image: np.ndarray[Any, Any], dpi: int, psm: str) -> str:
        """Tesseract's TSV for one grayscale image, as `tesseract - stdout --dpi DPI --psm
        PSM tsv` prints it."""
        import ctypes

        lib, handle = self.lib, self.handle
        pixels = np.ascontiguousarray(image.reshape(image.shape[:2]), dtype=np.uint8)
        height, width = pixels.shape
        lib.TessBaseAPISetPageSegMode(handle, int(psm))
        lib.TessBaseAPISetVariable(handle, b"user_defined_dpi", str(dpi).encode())
        lib.TessBaseAPISetImage(handle, pixels.ctypes.data, width, height, 1, width)
        lib.TessBaseAPISetSourceResolution(handle, dpi)
        try:
            if lib.TessBaseAPIRecognize(handle, None) != 0:
                return ""
            pointer = lib.TessBaseAPIGetTsvText(handle, 0)
            if not pointer:
                return ""
            try:
                body = ctypes.string_at(pointer).decode("utf-8", "replace")
            finally:
                lib.TessDeleteText(pointer)
        finally:
            lib.TessBaseAPIClear(handle)
        return TSV_HEADER + body


# The header line of tesseract's TSV output (the library's text comes without it).
TSV_HEADER = (
    "\t".join(
        [
            "level",
            "page_num",
            "block_num",
            "par_num",
            "line_num",
            "word_num",
            "left",
            "top",
            "width",
            "height",
            "conf",
            "text",
        ]
    )
    + "\n"
)


class Tesseract:
    """The tesseract binary; constructing one fails with a usage error when it is absent."""

    def __init__(self, binary: str | None = None) -> None:
        found = binary or shutil.which("tesseract")
        if not found:
            raise UsageError(
                "--ocr needs the tesseract binary, which is not installed "
                "(Debian/Ubuntu: apt-get install tesseract-ocr)"
            )
        self.binary = found
        self._guard = threading.Lock()
        self._running: set[subprocess.Popen[bytes]] = set()
        self._halted = False

    def __getstate__(self) -> dict[str, Any]:
        return {"binary": self.binary}  # what runs is this process's own

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["binary"])  # type: ignore[misc]

    def halt(self) -> None:
        """Kill every tesseract process this engine runs and start none until `resume`: a
        reading that stops (an interrupt, a failure) leaves no process reading on after it."""
        with self._guard:
            self._halted = True
            running = list(self._running)
        for process in running:
            process.kill()

    def resume(self) -> None:
        with self._guard:
            self._halted = False

    def words(
        self, image: np.ndarray[Any, Any], dpi: int, source: str, psm: str = PSM
    ) -> list[Word]:
        """The words tesseract reads on a grayscale image, in its reading order. A small
        image (a box, a sheet of boxes, a band) is read in this process by the tesseract
        library when it loads (`_Library`: the same words, without starting a process and
        loading the language model each time); a page, in a tesseract process that `halt`
        can stop at once."""
        if image.size <= LIBRARY_PIXELS:
            library = _Library.get()
            if library is not None:
                with self._guard:
                    if self._halted:
                        raise Halted(f"{source}: tesseract was stopped")
                return _parse_tsv(library.tsv(image, dpi, psm))
        return _parse_tsv(self._run("stdin", _pgm(image), dpi, source, psm))

    def orientation(self, image: np.ndarray[Any, Any], dpi: int, source: str) -> int:
        """Degrees clockwise tesseract's orientation detection (`--psm 0`) says a grayscale
        page must turn to stand upright; 0 when it finds too little text to say (it then
        exits 1)."""
        report = self._run("stdin", _pgm(image), dpi, source, "0", tsv=False)
        for line in report.splitlines():
            name, _, value = line.partition(":")
            if name.strip() == "Rotate" and value.strip() in {"0", "90", "180", "270"}:
                return int(value)
        return 0

    def _run(
        self, images: str, stdin: bytes | None, dpi: int, source: str, psm: str, tsv: bool = True
    ) -> str:
        """Tesseract's TSV for `images` ("stdin", or a file listing image files); without
        `tsv`, its plain report, and what it printed even when it failed (an orientation
        detection that found too little text exits 1)."""
        env = {**os.environ, "OMP_THREAD_LIMIT": os.environ.get("OMP_THREAD_LIMIT", "1")}
        with self._guard:  # started and registered at once: `halt` misses none
            if self._halted:
                raise Halted(f"{source}: tesseract was stopped")
            try:
                process = subprocess.Popen(
                    [
                        *(self.binary, images, "stdout", "--dpi", str(dpi), "--psm", psm),
                        *(("tsv",) if tsv else ()),
                    ],
                    stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    env=env,
                )
            except OSError as error:
                raise BadInput(f"{source}: tesseract failed ({error})") from None
            self._running.add(process)
        try:
            try:
                out, err = process.communicate(stdin, timeout=600)
            except subprocess.TimeoutExpired as error:
                process.kill()
                process.communicate()
                raise BadInput(f"{source}: tesseract failed ({error})") from None
            except BaseException:  # an interrupt: the process ends with the reading
                process.kill()
                process.wait()
                raise
        finally:
            with self._guard:
                self._running.discard(process)
        if process.returncode != 0 and tsv:
            lines = err.decode("utf-8", "replace").strip().splitlines()
            reason = lines[-1] if lines else f"exit code {process.returncode}"
            raise BadInput(f"{source}: tesseract failed ({reason})")
        return out.decode("utf-8", "replace")

    def words_many(
        self, images: Sequence[np.ndarray[Any, Any]], dpi: int, source: str, psm: str = PSM
    ) -> list[list[Word]]:
        """The words of each image, read by one tesseract process: the images are written as
        PGM files and listed in a file tesseract reads them from (its TSV numbers them by
        `page_num`). Loading the language model is most of the cost of reading a small image,
        and this pays it once for all of them."""
        if len(images) <= 1 or (
            max(image.size for image in images) <= LIBRARY_PIXELS and _Library.get() is not None
        ):
            return [self.words(image, dpi, source, psm) for image in images]
        import tempfile

        with tempfile.TemporaryDirectory(prefix="packetbench-ocr-") as folder:
            names = []
            for number, image in enumerate(images):
                name = Path(folder) / f"{number:05d}.pgm"
                name.write_bytes(_pgm(image))
                names.append(str(name))
            listing = Path(folder) / "images.txt"
            listing.write_text("\n".join(names) + "\n")
            tsv = self._run(str(listing), None, dpi, source, psm)
        out: list[list[Word]] = [[] for _ in images]
        for number, words in _parse_tsv_pages(tsv).items():
            if 1 <= number <= len(images):
                out[number - 1] = words
        return out


def misread_everywhere(scan: OcrPage, text: str, misreadings: Counter[str]) -> bool:
    """Whether every time OCR reads `text` on the page, it reads it in the box of a value the
    page shows otherwise (`misreadings`: folded OCR readings of the page's boxes that did not
    match their values). An invisible OCR layer's false words are OCR-style confusions of
    the words they cover ("$3,001" -> "$8,001"); tesseract can make the same confusion on
    the image, which proves nothing about the hidden text being visible."""
    form = folded(text)
    return bool(form) and 0 < scan.count(text) <= misreadings[form]


def shown_elsewhere(text: str, strings: Sequence[str]) -> int:
    """How many times `text` occurs as whole words in the strings a page shows. A hidden tail
    may be a word the page also shows in its own right (a clipped "Preventive" beside the
    visible "Preventive maintenance every ..."): OCR reading it that often proves nothing."""
    form = folded(text)
    if not form:
        return 0
    pattern = _whole_words(form)
    # Each shown word folded as OCR's words are (`_folded_word`), side by side as one phrase.
    return sum(
        len(pattern.findall(" " + " ".join(_folded_word(w) for w in shown.split()) + " "))
        for shown in strings
    )


def confusable_shown(text: str, strings: Sequence[str]) -> int:
    """How many words the page shows that one OCR confusion turns into `text` (a single
    word): an invisible OCR layer's false word is such a confusion of a word it covers
    ("limit" -> "lirnit", `generator.render.attack.CONFUSIONS`), and tesseract makes the same
    confusion on the image now and then, which proves nothing about the hidden word."""
    from packetbench.generator.render.attack import CONFUSIONS, fold

    target = fold(text)
    if not target or " " in target:
        return 0
    count = 0
    for shown in strings:
        for word in shown.split():
            variants = {
                word[:i] + right + word[i + len(wrong) :]
                for wrong, right in CONFUSIONS
                for i in range(len(word))
                if word.startswith(wrong, i)
            }
            count += any(fold(variant) == target for variant in variants)
    return count


WORD_GAP = 0.8  # the widest gap between two words of one phrase, in word heights


def _beside(first: Word, then: Word) -> bool:
    """Whether `then` follows `first` on its line a word space away (not a column away)."""
    height = max(first.bottom - first.top, then.bottom - then.top, 1.0)
    overlap = min(first.bottom, then.bottom) - max(first.top, then.top)
    gap = then.left - first.right
    return overlap >= 0.5 * min(first.bottom - first.top, then.bottom - then.top) and (
        -0.5 * height <= gap <= WORD_GAP * height
    )


# Joins the pieces folding splits one OCR word into ("68,800" folds to "68 800"): a match of
# hidden text must start and end at a word's edges, never at a piece inside it.
WITHIN = "~"


def _folded_word(text: str) -> str:
    """One OCR word folded, its pieces joined by WITHIN ("$68,800" -> "68~800")."""
    return folded(text).replace(" ", WITHIN)


def _phrases(words: Sequence[Word]) -> str:
    """The page's words folded (`_folded_word`), phrase by phrase (runs of words side by
    side in reading order), the phrases joined by " | " so that no whole-word match runs
    from one into the next."""
    phrases: list[list[str]] = []
    for index, word in enumerate(words):
        if index == 0 or not _beside(words[index - 1], word):
            phrases.append([])
        if form := _folded_word(word.text):
            phrases[-1].append(form)
    return " | ".join(" ".join(phrase) for phrase in phrases if phrase)


def _whole_words(form: str) -> re.Pattern[str]:
    """The folded text `form` as a run of whole OCR words: its pieces may fall inside one
    word or across words side by side, but the run starts and ends at word edges. So a
    hidden "800" is not seen in a shown "52,800" (one word, whose last piece it is), while a
    hidden "68,800" is seen in a shown "68,800", or in "68," and "800" read as two words."""
    return re.compile(
        "(?<= )" + f"[ {WITHIN}]".join(re.escape(piece) for piece in form.split()) + "(?= )"
    )


def _parse_tsv(tsv: str) -> list[Word]:
    words: list[Word] = []
    for line in tsv.splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) < 12 or cells[0] != "5" or not cells[11].strip():
            continue
        left, top, width, height = (float(c) for c in cells[6:10])
        words.append(Word(cells[11], left, top, left + width, top + height))
    return words


def _parse_tsv_pages(tsv: str) -> dict[int, list[Word]]:
    """The words of a TSV holding several images, by page number (1-based)."""
    pages: dict[int, list[Word]] = {}
    for line in tsv.splitlines():
        cells = line.split("\t")
        if len(cells) < 12 or cells[0] != "5" or not cells[11].strip():
            continue
        left, top, width, height = (float(c) for c in cells[6:10])
        pages.setdefault(int(cells[1]), []).append(
            Word(cells[11], left, top, left + width, top + height)
        )
    return pages


class OcrPage:
    """The OCR words of one page and the page-to-pixel mapping of its PDF coordinates."""

    def __init__(
        self,
        words: Sequence[Word],
        scale: float,
        left: float,
        top: float,
        image: np.ndarray[Any, Any] | None = None,
        reader: BoxReader | None = None,
    ) -> None:
        self.words = list(words)
        self.image = image  # grayscale, 0 = black
        self.reader = reader
        self.scale, self.left, self.top = scale, left, top
        self.text = folded(" ".join(w.text for w in self.words))
        self._padded = f" {self.text} "
        self._spaceless = self.text.replace(" ", "")
        centres = np.array(
            [((w.left + w.right) / 2, (w.top + w.bottom) / 2) for w in self.words], dtype=np.float64
        ).reshape(-1, 2)
        self._cx, self._cy = centres[:, 0], centres[:, 1]
        self._read: dict[tuple[float, ...], str] = {}

    def _inside(self, region: Sequence[float]) -> np.ndarray[Any, Any]:
        """Which words' centres lie in `region`: a bbox (4 numbers) or a scanned page's quad
        (8: four corners in order), grown by MARGIN points."""
        if len(region) != 8:
            left, top, right, bottom = self._pixels(region, MARGIN)
            return (
                (self._cx >= left) & (self._cx <= right) & (self._cy >= top) & (self._cy <= bottom)
            )
        xs, ys = (np.array(axis) for axis in zip(*self.corners(region), strict=True))
        # Grow the quad about its centre by MARGIN points, then test each edge's side.
        cx, cy = xs.mean(), ys.mean()
        grow = MARGIN * self.scale
        dx, dy = xs - cx, ys - cy
        length = np.hypot(dx, dy)
        xs = xs + dx / np.maximum(length, 1e-9) * grow * 1.5
        ys = ys + dy / np.maximum(length, 1e-9) * grow * 1.5
        inside = np.ones(len(self.words), dtype=bool)
        # The corners run counter-clockwise in PDF space, so clockwise in pixels: every
        # point inside is on the same side of each edge.
        sign = None
        for i in range(4):
            x0, y0, x1, y1 = xs[i], ys[i], xs[(i + 1) % 4], ys[(i + 1) % 4]
            cross = (x1 - x0) * (self._cy - y0) - (y1 - y0) * (self._cx - x0)
            side = (x1 - x0) * (cy - y0) - (y1 - y0) * (cx - x0)
            sign = np.sign(side) if sign is None else sign
            inside &= cross * sign >= 0
        return inside

    def _pixels(self, bbox: Sequence[float], margin: float) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) in pixels of `bbox` (PDF points, origin bottom-left)
        grown by `margin` points (shrunk when negative)."""
        x0, y0, x1, y1 = (float(v) for v in bbox)
        return (
            (min(x0, x1) - margin - self.left) * self.scale,
            (self.top - max(y0, y1) - margin) * self.scale,
            (max(x0, x1) + margin - self.left) * self.scale,
            (self.top - min(y0, y1) + margin) * self.scale,
        )

    def in_box(self, bbox: Sequence[float]) -> str:
        """The words whose centres lie in `bbox` (PDF points, origin bottom-left; or a quad)
        + margin. Remembered per box: an attacked page reads each box twice (for the hidden
        text check, then for the value)."""
        key = tuple(float(v) for v in bbox)
        read = self._read.get(key)
        if read is None:
            inside = self._inside(bbox)
            read = " ".join(self.words[i].text for i in np.flatnonzero(inside).tolist())
            self._read[key] = read
        return read

    def on_page(self, expected: str) -> bool:
        """Whether `expected`, normalized, occurs in the page's OCR text as whole words."""
        form = folded(expected)
        return not form or f" {form} " in self._padded

    def has_string(self, text: str) -> bool:
        """A visible string: on the page as whole words, or with OCR having merged its words."""
        form = folded(text)
        return self.on_page(text) or (" " in form and form.replace(" ", "") in self._spaceless)

    def shows(self, text: str) -> bool:
        """Whether the page shows `text` (hidden text looked for): as whole words, or its
        words merged into one whole word, within one phrase (words side by side on a line, as
        a string is drawn). Never inside a longer word: "800" is no word of "52,800" (which
        folds to "52 800"), and "$8,001" merged is "8001", inside many a claim number; never
        across phrases: "2.15" folds to "2 15", the "2" ending one table row and the "15"
        starting the next."""
        form = folded(text)
        return bool(form) and (
            _whole_words(form).search(self._phrases) is not None
            or f" {form.replace(' ', '')} " in self._phrases
        )

    @cached_property
    def _phrases(self) -> str:
        """The page's phrases, padded (made when hidden text is first looked for)."""
        return f" {_phrases(self.words)} "

    @cached_property
    def _words_text(self) -> str:
        """The page's OCR words folded (`_folded_word`), padded: where `count` looks."""
        return f" {' '.join(w for w in map(_folded_word, (w.text for w in self.words)) if w)} "

    def count(self, text: str) -> int:
        """How many times `text`, normalized, occurs in the page's OCR text as whole words
        (never as the last pieces of a longer word: see `shows`)."""
        form = folded(text)
        return len(_whole_words(form).findall(self._words_text)) if form else 0

    def ink(self, bbox: Sequence[float]) -> float:
        """The share of dark pixels inside `bbox`, trimmed by MARK_INSET points."""
        if self.image is None:
            return 0.0
        if len(bbox) == 8:
            # A scanned box is turned: read the middle of it, clear of its turned border.
            xs, ys = bbox[0::2], bbox[1::2]
            cx, cy = sum(xs) / 4, sum(ys) / 4
            half = (max(xs) - min(xs)) * 0.3
            bbox = [cx - half, cy - half, cx + half, cy + half]
        left, top, right, bottom = (round(v) for v in self._pixels(bbox, -MARK_INSET))
        region = self.image[max(top, 0) : max(bottom, 0), max(left, 0) : max(right, 0)]
        return float((region < 128).mean()) if region.size else 0.0

    def find_mark(self, bbox: Sequence[float], expected: str) -> tuple[bool, str]:
        """(found, what was seen) for a checkbox drawn ticked ("X") or empty ("")."""
        ink = self.ink(bbox)
        ticked = ink >= INK
        seen = f"{'ticked' if ticked else 'empty'} box ({ink:.0%} ink)"
        return ticked == bool(expected.strip()), seen

    def corners(self, region: Sequence[float]) -> list[tuple[float, float]]:
        """A bbox's or a quad's corners in pixels of the page image."""
        if len(region) == 8:
            points = list(zip(region[0::2], region[1::2], strict=True))
        else:
            x0, y0, x1, y1 = region
            points = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        return [
            ((float(x) - self.left) * self.scale, (self.top - float(y)) * self.scale)
            for x, y in points
        ]

    def reread(
        self, regions: Sequence[Sequence[float]], sharpen: bool = False
    ) -> list[tuple[str, ...]]:
        """What OCR reads in each region on its own, one reading per way of reading (see
        `BoxReader`; `sharpen`: each region sharpened); none when the page has no reader."""
        if self.reader is None or not regions:
            return [() for _ in regions]
        corners = [self.corners(region) for region in regions]
        return self.reader.read(corners, MARGIN * self.scale, sharpen)

    def second(
        self, regions: Sequence[Sequence[float]], wanted: Sequence[str] | None = None
    ) -> list[tuple[str, ...]]:
        """What the second engine reads in each region on its own, cut out as `reread` cuts
        it (`ppocr.PpOcr.read_box`; `wanted`: what each should read, its lines not looked for
        when its line reads that); nothing when the page has no reader."""
        if self.reader is None or not regions:
            return [() for _ in regions]
        corners = [self.corners(region) for region in regions]
        return self.reader.second(corners, MARGIN * self.scale, wanted)

    def find(self, bbox: Sequence[float], expected: str) -> tuple[bool, bool, str]:
        """(found, found only on the page, text read in the box) for a located value."""
        read = self.in_box(bbox)
        form = folded(expected)
        if same_text(read, expected):
            return True, False, read
        if form and self.on_page(expected):
            return True, True, read
        return False, False, read


def render_page(pdf: Any, number: int, dpi: int) -> tuple[np.ndarray[Any, Any], float, float]:
    """Page `number` (1-based) in gray at `dpi`, and its crop box's left and top in points."""
    page = pdf[number - 1]
    try:
        left, _bottom, _right, top = page.get_cropbox()
        image = page.render(scale=dpi / 72, grayscale=True).to_numpy()
    finally:
        page.close()
    return image, float(left), float(top)


def _deskewed(image: np.ndarray[Any, Any], angle: float) -> np.ndarray[Any, Any]:
    """The page image turned back by `angle` degrees (counter-clockwise as the page shows
    it), as any OCR pipeline deskews a scan before reading it."""
    from PIL import Image

    picture = Image.fromarray(np.ascontiguousarray(image.reshape(image.shape[:2])))
    turned = picture.rotate(-angle, resample=Image.Resampling.BILINEAR, fillcolor=255)
    return np.asarray(turned)


def flattened(image: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The page with its paper made even: divided by an estimate of the background (the
    brightest nearby pixels, smoothed), so dark edges, shadows and uneven light no longer
    shift tesseract's single global threshold."""
    from PIL import Image, ImageFilter

    pixels = np.ascontiguousarray(image.reshape(image.shape[:2]))
    picture = Image.fromarray(pixels)
    width, height = picture.size
    small = picture.resize((max(width // 8, 1), max(height // 8, 1)), Image.Resampling.BOX)
    small = small.filter(ImageFilter.MaxFilter(5)).filter(ImageFilter.GaussianBlur(3))
    background = np.asarray(
        small.resize((width, height), Image.Resampling.BILINEAR), dtype=np.float32
    )
    flat = pixels.astype(np.float32) / np.maximum(background, 1.0) * 255.0
    return np.clip(flat, 0.0, 255.0).astype(np.uint8)


RULE = 0.25  # inches: a dark run this long along a row or a column may be a rule...
RULE_WIDTH = 0.02  # inches: ...when it is at most this thick across (a glyph's stroke is thicker)
DARK = 160  # gray below which a pixel is ink for finding rules
ACROSS = 0.8  # share of a box's crop a line crosses to be a rule (`_lines_cut`)


def _unruled(image: np.ndarray[Any, Any], dpi: int) -> np.ndarray[Any, Any]:
    """The page with its table and form rules painted over with paper.

    Tesseract takes a lone letter or a short number tight against a cell's rule for part
    of the rule: on a clean scan it dropped a code "P" beside its column rule on every row
    of a schedule, though a person reads it at a glance. Removing lines before OCR is what
    form-reading pipelines do. A rule is a dark run at least RULE long along a row (or a
    column) and at most RULE_WIDTH thick across it; strokes of glyphs below about 18 pt are
    shorter, and longer strokes of larger type are thicker, so text stays as it is."""
    from scipy import ndimage

    pixels = np.ascontiguousarray(image.reshape(image.shape[:2]))
    dark = (pixels < DARK).astype(np.uint8)
    length = max(3, round(RULE * dpi))
    across = max(1, round(RULE_WIDTH * dpi)) + 1  # one pixel thicker than a rule can be
    rules = np.zeros(dark.shape, dtype=bool)
    for along, other in ((1, 0), (0, 1)):
        lines = ndimage.maximum_filter1d(
            ndimage.minimum_filter1d(dark, length, axis=along), length, axis=along
        )
        thick = ndimage.maximum_filter1d(
            ndimage.minimum_filter1d(lines, across, axis=other), across, axis=other
        )
        rules |= lines > thick
    if not rules.any():
        return pixels
    # The rule's anti-aliased fringe goes with it.
    rules = ndimage.maximum_filter(rules.astype(np.uint8), size=3).astype(bool)
    cleaned = pixels.copy()
    cleaned[rules] = 255
    return cleaned


def _lines_cut(crop: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A box's crop without the rules crossing it. The crop is the value's box plus a margin:
    no glyph covers ACROSS of its height (a bracket, the tallest, covers about 70 %), and a
    cell's rule does, even one too short for `_unruled` (the divider of a short row beside
    a lone digit; its ends may have gone with the row's rules)."""
    dark = crop < DARK
    height, width = crop.shape
    rows = np.flatnonzero(dark.sum(axis=1) >= ACROSS * width)
    cols = np.flatnonzero(dark.sum(axis=0) >= ACROSS * height)
    if not rows.size and not cols.size:
        return crop
    cut = crop.copy()
    for index in rows:
        cut[max(0, index - 1) : index + 2, :] = 255
    for index in cols:
        cut[:, max(0, index - 1) : index + 2] = 255
    return cut


def _moved(
    corners: list[tuple[float, float]], angle: float, width: int, height: int
) -> list[tuple[float, float]]:
    """`corners` (pixels of a page image of `width` x `height`) on the image turned back by
    `angle` (`_deskewed`): the inverse of `_turned_back`."""
    import math

    cx, cy = width / 2, height / 2
    radians = math.radians(angle)
    cos, sin = math.cos(radians), math.sin(radians)
    return [
        (cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos)
        for x, y in corners
    ]


def upright(
    corners: list[tuple[float, float]], grow: float, angle: float, width: int, height: int
) -> tuple[int, int, int, int]:
    """The pixel rectangle of a page image of `width` x `height` turned back by `angle`
    (`_deskewed`) holding `corners` (pixels of the page image), grown by `grow` pixels."""
    import math

    moved = _moved(corners, angle, width, height)
    xs, ys = [x for x, _ in moved], [y for _, y in moved]
    return (
        max(0, math.floor(min(xs) - grow)),
        max(0, math.floor(min(ys) - grow)),
        min(width, math.ceil(max(xs) + grow)),
        min(height, math.ceil(max(ys) + grow)),
    )


# A box whose own line is turned more than this many degrees on the deskewed page (a page
# photographed at a slant, whose lines no single deskew angle levels) is cut along its line.
LEVEL_MIN = 0.5


def levelled(
    crop: np.ndarray[Any, Any], corners: list[tuple[float, float]], grow: float
) -> np.ndarray[Any, Any]:
    """`crop` with the box whose `corners` (lower-left, lower-right, upper-right, upper-left
    of its text, pixels of `crop`) it holds cut along the box's own line: the box's
    parallelogram mapped onto an upright rectangle grown by `grow` pixels (bicubic, white
    beyond the crop), as a person turns the sheet to read a slanted line, when that line is
    turned more than LEVEL_MIN degrees; otherwise `crop` as it is."""
    import math

    from PIL import Image

    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    turned = math.degrees(math.atan2(y1 - y0, x1 - x0))
    if abs(turned) <= LEVEL_MIN or crop.size == 0:
        return crop
    along, down = math.hypot(x2 - x3, y2 - y3), math.hypot(x0 - x3, y0 - y3)
    if along < 1.0 or down < 1.0:
        return crop
    ex, ey = ((x2 - x3) / along, (y2 - y3) / along), ((x0 - x3) / down, (y0 - y3) / down)
    width = max(along, math.hypot(x1 - x0, y1 - y0))
    height = max(down, math.hypot(x1 - x2, y1 - y2))
    size = (math.ceil(width + 2 * grow), math.ceil(height + 2 * grow))
    data = (
        ex[0],
        ey[0],
        x3 - grow * (ex[0] + ey[0]),
        ex[1],
        ey[1],
        y3 - grow * (ex[1] + ey[1]),
    )
    picture = Image.fromarray(np.ascontiguousarray(crop))
    cut = picture.transform(
        size, Image.Transform.AFFINE, data, Image.Resampling.BICUBIC, fillcolor=255
    )
    return np.asarray(cut)


class BoxReader:
    """OCR of chosen boxes of a page, cut out of the image tesseract read (evened out,
    deskewed, rules removed) and read together in one call.

    Tesseract's page segmentation drops some lone short words, a single letter in a cell
    most of all, which a person reads at a glance. The audit's question is whether the
    value is legible inside its box, so a value the page's OCR did not find there is read
    again from exactly its box (plus MARGIN): the boxes are set side by side on a blank sheet,
    well apart, and read in each of READINGS; a word belongs to the box whose band holds
    its middle, and a box is read when one reading equals its value. Nothing outside the
    boxes is read, so this cannot find a value elsewhere."""

    GAP = 80  # blank pixels around each box: apart, tesseract takes each for a word
    WIDTH = 6000  # pixels: a wider row of boxes is read in more calls

    def __init__(
        self, engine: Tesseract, image: np.ndarray[Any, Any], angle: float, dpi: int, source: str
    ) -> None:
        self.engine, self.image, self.angle = engine, image, angle
        self.dpi, self.source = dpi, source

    def _upright(
        self, corners: list[tuple[float, float]], grow: float
    ) -> tuple[int, int, int, int]:
        """The pixel rectangle of the prepared (deskewed) image holding the corners."""
        height, width = self.image.shape
        return upright(corners, grow, self.angle, width, height)

    def crops(
        self, regions: list[list[tuple[float, float]]], grow: float
    ) -> list[np.ndarray[Any, Any]]:
        """Each region cut out of the prepared image (along its own line when the deskew
        left it slanted: `levelled`), the rules crossing it removed."""
        height, width = self.image.shape
        cut = []
        for corners in regions:
            left, top, right, bottom = self._upright(corners, grow)
            moved = _moved(corners, self.angle, width, height)
            inside = [(x - left, y - top) for x, y in moved]
            cut.append(_lines_cut(levelled(self.image[top:bottom, left:right], inside, grow)))
        return cut

    def read(
        self, regions: list[list[tuple[float, float]]], grow: float, sharpen: bool = False
    ) -> list[tuple[str, ...]]:
        """Per region, what each way of reading (READINGS) reads in it (`sharpen`: in the
        region sharpened)."""
        crops = self.crops(regions, grow)
        return read_crops(self.engine, crops, self.dpi, self.source, sharpen=sharpen)

    def second(
        self,
        regions: list[list[tuple[float, float]]],
        grow: float,
        wanted: Sequence[str] | None = None,
    ) -> list[tuple[str, ...]]:
        """What the second engine (`audit.ppocr`) reads in each region on its own (`wanted`:
        what each should read, see `PpOcr.read_box`)."""
        crops = self.crops(regions, grow)
        return ppocr.engine().read_boxes(crops, self.dpi, self.source, _enough(wanted))

    @classmethod
    def rows(cls, crops: Sequence[np.ndarray[Any, Any]]) -> list[list[int]]:
        """The crops in rows of at most WIDTH pixels, each row one sheet."""
        rows: list[list[int]] = [[]]
        width = cls.GAP
        for index, crop in enumerate(crops):
            if rows[-1] and width + crop.shape[1] > cls.WIDTH:
                rows.append([])
                width = cls.GAP
            rows[-1].append(index)
            width += crop.shape[1] + cls.GAP
        return [row for row in rows if row]

    @classmethod
    def sheet(
        cls, crops: Sequence[np.ndarray[Any, Any]], row: list[int]
    ) -> tuple[np.ndarray[Any, Any], list[tuple[int, int, int]]]:
        """Boxes `row` side by side, centred on one line of a blank sheet, and each one's
        (index, left, right) on it."""
        tallest = max(crops[i].shape[0] for i in row)
        width = sum(crops[i].shape[1] + cls.GAP for i in row) + cls.GAP
        sheet = np.full((tallest + 2 * cls.GAP, width), 255, dtype=np.uint8)
        bands = []
        x = cls.GAP
        for index in row:
            crop = crops[index]
            top = cls.GAP + (tallest - crop.shape[0]) // 2
            sheet[top : top + crop.shape[0], x : x + crop.shape[1]] = crop
            bands.append((index, x, x + crop.shape[1]))
            x += crop.shape[1] + cls.GAP
        return sheet, bands


def read_crops(
    engine: Tesseract,
    crops: Sequence[np.ndarray[Any, Any]],
    dpi: int,
    source: str,
    batched: bool = False,
    sharpen: bool = False,
) -> list[tuple[str, ...]]:
    """Per crop, what each way of reading (READINGS) reads in it: the crops set side by side
    on sheets (`BoxReader.sheet`), each sheet read by one tesseract call per reading, or, when
    `batched`, every sheet by one tesseract process per reading (`Tesseract.words_many`).
    `sharpen`: each crop read sharpened (`sharpened`) instead. Every crop is read every way
    on the same sheets, whatever an earlier way read in it: what tesseract reads in a crop
    depends on the crops beside it on its sheet."""
    if sharpen:
        crops = [sharpened(crop) for crop in crops]
        dpi *= SHARPEN_SCALE
    read: list[list[str]] = [[] for _ in crops]
    sheets = [BoxReader.sheet(crops, row) for row in BoxReader.rows(crops)]
    for psm in READINGS:
        if psm == BLOCK:
            continue
        if batched:
            pages = engine.words_many([sheet for sheet, _ in sheets], dpi, source, psm=psm)
        else:
            pages = [engine.words(sheet, dpi, source, psm=psm) for sheet, _ in sheets]
        for (_, bands), found in zip(sheets, pages, strict=True):
            for index, left, right in bands:
                inside = [w for w in found if left <= (w.left + w.right) / 2 <= right]
                read[index].append(" ".join(w.text for w in in_lines(inside)))
    # A box of several lines is read alone as a block, on a blank margin as a sheet sets it.
    wrapped = [i for i, crop in enumerate(crops) if ink_lines(crop) > 1]
    blocks = [BoxReader.sheet(crops, [i])[0] for i in wrapped]
    if batched:
        found_blocks = engine.words_many(blocks, dpi, source, psm=BLOCK)
    else:
        found_blocks = [engine.words(block, dpi, source, psm=BLOCK) for block in blocks]
    block_text = {
        i: " ".join(w.text for w in in_lines(words))
        for i, words in zip(wrapped, found_blocks, strict=True)
    }
    for index, texts in enumerate(read):
        texts.append(block_text.get(index, ""))
    return [tuple(texts) for texts in read]


def sharpened(crop: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """`crop` SHARPEN_SCALE times the size (Lanczos), then unsharp-masked (SHARPEN)."""
    from PIL import Image, ImageFilter

    if crop.size == 0:
        return crop
    image = Image.fromarray(np.ascontiguousarray(crop))
    size = (image.width * SHARPEN_SCALE, image.height * SHARPEN_SCALE)
    image = image.resize(size, Image.Resampling.LANCZOS).filter(ImageFilter.UnsharpMask(**SHARPEN))
    return np.asarray(image, dtype=np.uint8)


def ink_lines(crop: np.ndarray[Any, Any]) -> int:
    """How many lines of ink `crop` holds: runs of rows with a dark pixel, apart by rows
    with none, each at least a fifth of the tallest run high (a speck or the tail of a
    blurred stroke is not a line)."""
    if crop.size == 0:
        return 0
    inked = (crop < DARK).any(axis=1).astype(np.int8)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], inked, [0]))))
    heights = edges[1::2] - edges[0::2]
    if heights.size == 0:
        return 0
    return int((heights >= max(2, heights.max() / 5)).sum())


def in_lines(words: Sequence[Word]) -> list[Word]:
    """`words` in reading order: line by line from the top (a word whose middle lies within a
    line's height joins it), each line left to right. A value wrapped on two lines in its box
    reads as drawn ("Enterprise Fleet" then "Management, Inc."), not with its lines' words
    interleaved, as ordering by their left edges alone reads it."""
    lines: list[tuple[float, float, list[Word]]] = []
    for word in sorted(words, key=lambda w: (w.top + w.bottom) / 2):
        middle = (word.top + word.bottom) / 2
        if lines and lines[-1][0] <= middle <= lines[-1][1]:
            top, bottom, members = lines[-1]
            members.append(word)
            lines[-1] = (min(top, word.top), max(bottom, word.bottom), members)
        else:
            lines.append((word.top, word.bottom, [word]))
    return [w for _, _, members in lines for w in sorted(members, key=lambda w: w.left)]


def _evened(
    pdf: Any, number: int, dpi: int, angle: float | None
) -> tuple[np.ndarray[Any, Any], float, float]:
    """Page `number` rendered as `read_pages` renders it for tesseract (a scan, `angle` not
    None: evened out and deskewed), its rules not yet removed, with its crop box's left and
    top."""
    image, left, top = render_page(pdf, number, dpi)
    image = np.ascontiguousarray(image.reshape(image.shape[:2]))
    if angle is None:
        return image, left, top
    flat = flattened(image)
    return (_deskewed(flat, angle) if angle else flat), left, top


# Pixels around a box whose rules are removed with it (`_unruled` is local: a rule is found
# within RULE of a pixel, 75 pixels at 300 dpi, then grown by one), so a box's crop is
# unruled exactly as on the whole page at a fraction of the cost.
REACH = 100


def _reads(wanted: str, reading: str) -> bool:
    return same_text(reading, wanted)


def _enough(wanted: Sequence[str] | None) -> list[Callable[[str], bool]] | None:
    """For the second engine, a test per box of whether a reading reads what it should."""
    return None if wanted is None else [partial(_reads, text) for text in wanted]


def read_boxes(
    pdf: Any,
    regions: Mapping[int, Sequence[Sequence[float]]],
    engine: Tesseract,
    source: Path,
    dpi: int = DPI,
    angles: dict[int, float] | None = None,
    sharpen: bool = False,
    dropout: bool = False,
    cache: Crops | None = None,
) -> dict[int, list[tuple[str, ...]]]:
    """What OCR reads in each box of `regions` (page -> bboxes or quads, PDF points) on its
    own, as `OcrPage.reread` reads it, without reading any page whole: each box is cut out of
    its page prepared as for whole-page OCR (`cut_boxes`), and the boxes of every page read
    together, one tesseract process per way of reading (READINGS); `sharpen`: sharpened;
    `dropout`: a page drawn, not scanned, read in its red channel (`cut_boxes`); `cache`: the
    crops cut before (`cut_boxes`)."""
    crops = cut_boxes(pdf, regions, dpi, angles, dropout, cache)
    out: dict[int, list[tuple[str, ...]]] = {number: [] for number in regions}
    if not crops:
        return out
    owners = [number for number in sorted(regions) for _ in regions[number]]
    readings = read_crops(engine, crops, dpi, str(source), True, sharpen)
    for number, read in zip(owners, readings, strict=True):
        out[number].append(read)
    return out


def second_boxes(
    pdf: Any,
    regions: Mapping[int, Sequence[Sequence[float]]],
    source: Path,
    dpi: int = DPI,
    angles: dict[int, float] | None = None,
    cache: Crops | None = None,
    wanted: Mapping[int, Sequence[str]] | None = None,
) -> dict[int, list[tuple[str, ...]]]:
    """What the second engine (`audit.ppocr`) reads in each box of `regions` on its own, each
    cut out as `read_boxes` cuts it (`cut_boxes`; `cache`: the crops cut before; `wanted`:
    what each box should read, its lines not looked for when its line reads that). The
    engine loads only when there is one."""
    if not any(regions.values()):
        return {number: [] for number in sorted(regions)}
    crops = cut_boxes(pdf, regions, dpi, angles, cache=cache)
    texts = None
    if wanted is not None:
        texts = [text for number in sorted(regions) for text in wanted[number]]
        if len(texts) != len(crops):
            raise ValueError("second_boxes: wanted must name one text per box")
    read = iter(ppocr.engine().read_boxes(crops, dpi, str(source), _enough(texts)))
    return {number: [next(read) for _ in regions[number]] for number in sorted(regions)}


def _frame(page: Any, scale: float) -> tuple[OcrPage, int, int]:
    """An open page's mapping from PDF points to pixels at `scale` (an `OcrPage` without
    words, from its crop box), and its size in pixels."""
    from packetbench.audit import boxcrops

    left, _bottom, _right, top = page.get_cropbox()
    width, height = boxcrops.page_size(page, scale)
    return OcrPage([], scale, float(left), float(top)), width, height


def cut_boxes(
    pdf: Any,
    regions: Mapping[int, Sequence[Sequence[float]]],
    dpi: int = DPI,
    angles: dict[int, float] | None = None,
    dropout: bool = False,
    cache: Crops | None = None,
) -> list[np.ndarray[Any, Any]]:
    """Each box of `regions` (page -> bboxes or quads, PDF points), pages in order, cut out of
    its page prepared as for whole-page OCR (a scan, its page in `angles`: evened out and
    turned back) with the rules around it removed, as `OcrPage.reread` cuts it: the
    preparation computed around each box only (`boxcrops`). `dropout`: a page drawn, not
    scanned, in its red channel (`boxcrops.render_rect`). `cache`: crops of this `pdf` cut
    before (`Crops`), taken from it and kept in it."""
    from packetbench.audit import boxcrops

    angles = angles or {}
    crops: list[np.ndarray[Any, Any]] = []
    scale = dpi / 72
    for number in sorted(regions):
        if not regions[number]:
            continue
        angle = angles.get(number)
        keys = [
            (number, tuple(float(v) for v in region), angle, dropout, dpi)
            for region in regions[number]
        ]
        if cache is not None and all(key in cache for key in keys):
            crops.extend(cache[key] for key in keys)
            continue
        page = pdf[number - 1]
        try:
            mapper, width, height = _frame(page, scale)
            for key, region in zip(keys, regions[number], strict=True):
                if cache is not None and key in cache:
                    crops.append(cache[key])
                    continue
                corners = mapper.corners(region)
                x0, y0, x1, y1 = upright(corners, MARGIN * scale, angle or 0.0, width, height)
                if x1 <= x0 or y1 <= y0:  # beside the page: nothing to read
                    crops.append(np.full((max(y1 - y0, 0), max(x1 - x0, 0)), 255, np.uint8))
                    continue
                wx, wy = max(x0 - REACH, 0), max(y0 - REACH, 0)
                window = boxcrops.evened(
                    page,
                    scale,
                    angle,
                    (wx, wy, min(x1 + REACH, width), min(y1 + REACH, height)),
                    dropout,
                )
                inside = [(x - x0, y - y0) for x, y in _moved(corners, angle or 0.0, width, height)]
                box = _unruled(window, dpi)[y0 - wy : y1 - wy, x0 - wx : x1 - wx]
                crops.append(_lines_cut(levelled(box, inside, MARGIN * scale)))
                if cache is not None:
                    crops[-1].setflags(write=False)  # shared: no reader may change it
                    cache[key] = crops[-1]
        finally:
            page.close()
    return crops


# Boxes of one document cut out by `cut_boxes`, by (page, region, angle, dropout, dpi): a box
# the plain readings leave unread is read again sharpened, then by the second engine, and
# an illegible box all three ways, each reading of the same crop.
Crops = dict[tuple[int, tuple[float, ...], float | None, bool, int], np.ndarray[Any, Any]]


# A band read in place of a whole page (`read_bands`) reaches this many box heights above and
# below its box, and never less than BAND_MIN points: the value's line and its neighbours,
# across the whole width of the page.
BAND_LINES = 1.5
BAND_MIN = 14.0


def read_bands(
    pdf: Any,
    regions: Mapping[int, Sequence[Sequence[float]]],
    engine: Tesseract,
    source: Path,
    dpi: int = DPI,
    angles: dict[int, float] | None = None,
    lines: Mapping[int, Sequence[Sequence[float]]] | None = None,
) -> dict[int, OcrPage]:
    """Per page of `regions` (page -> bboxes or quads, PDF points), an `OcrPage` of the words
    tesseract reads (as `read_pages` reads a page: PSM, evened out, deskewed, unruled) in
    bands of the page around the regions: each region's rows grown by BAND_LINES of its
    height above and below, across the page's full width. A value the box reading missed is
    looked for there, not on the whole page: reading a band costs a fraction of a page (every
    band of every page is read by one tesseract process), and a value is where it is drawn.
    With `lines` (page -> quads along a line, `read_lines`), the words read along each line
    join its page's. The words are placed back on the page image, so `OcrPage.in_box`,
    `find` and `has_string` work as on a page read whole (the page carries no image: no
    ink, no rereading)."""
    from packetbench.audit import boxcrops

    angles = angles or {}
    lines = lines or {}
    scale = dpi / 72
    strips: list[np.ndarray[Any, Any]] = []
    owners: list[tuple[int, int]] = []  # (page, top row of the strip in the upright image)
    pages: dict[int, tuple[float, float, int, int]] = {}  # page -> left, top, width, height
    for number in sorted(set(regions) | set(lines)):
        if not regions.get(number) and not lines.get(number):
            continue
        page = pdf[number - 1]
        try:
            mapper, width, height = _frame(page, scale)
            pages[number] = (mapper.left, mapper.top, width, height)
            angle = angles.get(number)
            spans: list[list[int]] = []
            for region in regions.get(number, []):
                _, y0, _, y1 = upright(mapper.corners(region), 0.0, angle or 0.0, width, height)
                reach = math.ceil(max(BAND_LINES * (y1 - y0), BAND_MIN * scale))
                spans.append([max(y0 - reach, 0), min(y1 + reach, height)])
            merged: list[list[int]] = []
            for span in sorted(spans):
                if merged and span[0] <= merged[-1][1]:
                    merged[-1][1] = max(merged[-1][1], span[1])
                elif span[1] > span[0]:
                    merged.append(span)
            for y0, y1 in merged:
                wy0, wy1 = max(y0 - REACH, 0), min(y1 + REACH, height)
                window = boxcrops.evened(page, scale, angle, (0, wy0, width, wy1))
                strips.append(np.ascontiguousarray(_unruled(window, dpi)[y0 - wy0 : y1 - wy0]))
                owners.append((number, y0))
        finally:
            page.close()
    found: dict[int, list[Word]] = {number: [] for number in pages}
    for (number, y0), words in zip(
        owners, engine.words_many(strips, dpi, str(source)), strict=True
    ):
        found[number].extend(
            Word(w.text, w.left, w.top + y0, w.right, w.bottom + y0) for w in words
        )
    along = read_lines(pdf, {n: q for n, q in lines.items() if q}, engine, source, dpi)
    out: dict[int, OcrPage] = {}
    for number, (left, top, width, height) in pages.items():
        words = _turned_back(found[number], angles.get(number) or 0.0, width, height)
        out[number] = OcrPage(words + along.get(number, []), scale, left, top)
    return out


def read_lines(
    pdf: Any,
    lines: Mapping[int, Sequence[Sequence[float]]],
    engine: Tesseract,
    source: Path,
    dpi: int = DPI,
) -> dict[int, list[Word]]:
    """Per page of `lines` (page -> quads along a line of text, PDF points: the first two
    corners along its lower edge, `DrawnText.line`), the words tesseract reads in each line
    cut out of the page image and turned level, however the line runs: a watermark drawn
    corner to corner, which neither the page's deskew nor a band of the page sets level.
    The words are placed back on the page image (centres turned back, boxes their size).
    Every strip of every page is read by one tesseract process."""
    from PIL import Image

    from packetbench.audit import boxcrops

    scale = dpi / 72
    strips: list[np.ndarray[Any, Any]] = []
    owners: list[tuple[int, float, float, float, float, float, float]] = []
    for number in sorted(lines):
        page = pdf[number - 1]
        try:
            mapper, width, height = _frame(page, scale)
            for quad in lines[number]:
                corners = mapper.corners(quad)
                (x0, y0), (x1, y1), _, (x3, y3) = corners
                angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
                length, thick = math.hypot(x1 - x0, y1 - y0), math.hypot(x3 - x0, y3 - y0)
                grow = max(0.15 * thick, MARGIN * scale)
                xs, ys = [x for x, _ in corners], [y for _, y in corners]
                rect = (
                    max(0, math.floor(min(xs) - grow)),
                    max(0, math.floor(min(ys) - grow)),
                    min(width, math.ceil(max(xs) + grow)),
                    min(height, math.ceil(max(ys) + grow)),
                )
                if rect[2] - rect[0] < 2 or rect[3] - rect[1] < 2:
                    continue
                picture = Image.fromarray(boxcrops.render_rect(page, scale, rect))
                turned = picture.rotate(
                    angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255
                )
                # Where the line's centre landed: turned with the picture about its centre.
                cx, cy = sum(xs) / 4 - rect[0], sum(ys) / 4 - rect[1]
                dx, dy = cx - picture.width / 2, cy - picture.height / 2
                radians = math.radians(angle)
                cos, sin = math.cos(radians), math.sin(radians)
                tx = turned.width / 2 + dx * cos + dy * sin
                ty = turned.height / 2 - dx * sin + dy * cos
                half_w, half_h = length / 2 + grow, thick / 2 + grow
                strip = turned.crop(
                    (
                        round(tx - half_w),
                        round(ty - half_h),
                        round(tx + half_w),
                        round(ty + half_h),
                    )
                )
                strip, factor = _big_type(strip)
                strips.append(np.ascontiguousarray(np.asarray(strip, dtype=np.uint8)))
                owners.append(
                    (
                        number,
                        angle,
                        sum(xs) / 4,
                        sum(ys) / 4,
                        factor,
                        strip.width / 2,
                        strip.height / 2,
                    )
                )
        finally:
            page.close()
    found: dict[int, list[Word]] = {number: [] for number in lines}
    for (number, angle, px, py, factor, sx, sy), words in zip(
        owners, engine.words_many(strips, dpi, str(source), psm="7"), strict=True
    ):
        radians = math.radians(angle)
        cos, sin = math.cos(radians), math.sin(radians)
        for word in words:
            # The word's centre, from the level strip back onto the page image.
            dx = ((word.left + word.right) / 2 - sx) / factor
            dy = ((word.top + word.bottom) / 2 - sy) / factor
            x, y = px + dx * cos - dy * sin, py + dx * sin + dy * cos
            half_w = (word.right - word.left) / 2 / factor
            half_h = (word.bottom - word.top) / 2 / factor
            found[number].append(Word(word.text, x - half_w, y - half_h, x + half_w, y + half_h))
    return found


# A line taller than BIG_TYPE pixels (a watermark's letters, several times a text line) is
# read at LINE_HEIGHT pixels, after a grey dilation of about one BIG_STROKE of its height
# has filled in the thin strokes of the text it is drawn over (its own strokes are broad),
# and what is still darker than FAINT (a heavy rule or a black box, never a watermark's
# faint ink) is set to paper.
BIG_TYPE = 240
LINE_HEIGHT = 160
BIG_STROKE = 0.012
FAINT = 128


def _big_type(strip: Any) -> tuple[Any, float]:
    """A level line prepared for tesseract (`BIG_TYPE`), and the factor it was scaled by."""
    from PIL import Image, ImageFilter, ImageOps

    if strip.height <= BIG_TYPE:
        return strip, 1.0
    size = max(5, 2 * round(BIG_STROKE * strip.height / 2) + 1)
    factor = LINE_HEIGHT / strip.height
    shrunk = np.array(
        strip.filter(ImageFilter.MaxFilter(size)).resize(
            (max(1, round(strip.width * factor)), LINE_HEIGHT), Image.Resampling.BOX
        )
    )
    shrunk[shrunk < FAINT] = 255
    return ImageOps.autocontrast(Image.fromarray(shrunk), cutoff=1), factor


def _turned_back(words: list[Word], angle: float, width: int, height: int) -> list[Word]:
    """Words read on the deskewed image, placed back on the page image: each centre turned by
    `angle` about the image's centre (the box keeps its size)."""
    if not angle:
        return words
    import math

    radians = math.radians(angle)
    cos, sin = math.cos(radians), math.sin(radians)
    cx, cy = width / 2, height / 2
    moved = []
    for word in words:
        x, y = (word.left + word.right) / 2 - cx, (word.top + word.bottom) / 2 - cy
        nx, ny = cx + x * cos + y * sin, cy - x * sin + y * cos
        half_w, half_h = (word.right - word.left) / 2, (word.bottom - word.top) / 2
        moved.append(Word(word.text, nx - half_w, ny - half_h, nx + half_w, ny + half_h))
    return moved


def read_pages(
    pdf: Any,
    numbers: Sequence[int],
    engine: Tesseract,
    source: Path,
    dpi: int = DPI,
    angles: dict[int, float] | None = None,
) -> Iterator[tuple[int, OcrPage]]:
    """(page number, OCR) for pages `numbers` (1-based) of an open pypdfium2 document.

    A page with an angle in `angles` (a scan, turned by that many degrees) has its paper
    evened out and is deskewed before tesseract reads it, and the words are placed back where
    the page shows them.
    pdfium renders in this thread, a batch of one page per core at a time; tesseract reads
    the batch in parallel processes.
    """
    workers = max(1, os.cpu_count() or 1)
    angles = angles or {}

    def read(item: tuple[int, np.ndarray[Any, Any], float, float]) -> tuple[list[Word], BoxReader]:
        number, image = item[0], item[1]
        where = f"{source} page {number}"
        if number not in angles:
            prepared = _unruled(image, dpi)
            return engine.words(prepared, dpi, where), BoxReader(engine, prepared, 0.0, dpi, where)
        angle = angles[number]
        flat = flattened(image)
        prepared = _unruled(_deskewed(flat, angle) if angle else flat, dpi)
        found = engine.words(prepared, dpi, where)
        return (
            _turned_back(found, angle, image.shape[1], image.shape[0]),
            BoxReader(engine, prepared, angle, dpi, where),
        )

    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        for start in range(0, len(numbers), workers):
            batch = [
                (number, *render_page(pdf, number, dpi))
                for number in numbers[start : start + workers]
            ]
            words = pool.map(read, batch)
            for (number, image, left, top), (found, reader) in zip(batch, words, strict=True):
                yield (
                    number,
                    OcrPage(found, dpi / 72, left, top, image.reshape(image.shape[:2]), reader),
                )
    except BaseException:
        # Stopped (an interrupt, a failure, a reader that stopped reading): the pages in
        # flight are not waited for, and no tesseract reads on, or starts, after this.
        engine.halt()
        pool.shutdown(wait=True, cancel_futures=True)
        engine.resume()
        raise
    finally:
        pool.shutdown(wait=True)


def _pgm(image: np.ndarray[Any, Any]) -> bytes:
    """A grayscale image as a binary PGM file."""
    height, width = image.shape[:2]
    return (
        b"P5\n%d %d\n255\n" % (width, height)
        + np.ascontiguousarray(image.reshape(height, width), dtype=np.uint8).tobytes()
    )
