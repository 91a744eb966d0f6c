"""The Tesseract engine: the `tesseract` binary (TSV output: every word with its box; no Python
binding needed), or its library in this process for small images, and the settings every
reading shares (resolution, page segmentation, the ways a box is read).

Tesseract runs single-threaded (OMP_THREAD_LIMIT=1, unless the caller set it): its OpenMP
threads slow a page down several times on two cores (see
docs/measurements.md#tesseracts-threads). Pages run in parallel instead, one tesseract process
per core.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from packetbench.core.errors import BadInput, UsageError

DPI = 300

MARGIN = 2.0  # points added around a bbox: OCR boxes are looser than glyph boxes

# Page segmentation: tesseract's default, fully automatic. "Sparse text" (11) drops lone
# digits (see docs/measurements.md#tesseracts-page-segmentation).
PSM = "3"

# Boxes read again (`BoxReader`) are read three ways: as one line of text (reads a lone digit
# that sparse text drops), as sparse text (reads a lone letter a line can take for two), and,
# a box that holds more than one line of ink only, alone as one block (BLOCK): a value wrapped
# in a narrow cell, of which the other two keep the line they take for the text and drop the
# rest as noise on a blurred scan.
BLOCK = "6"

READINGS = ("7", "11", BLOCK)


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
    enabled = True  # False: every reading runs the command (`benchmarks/audit.py` times it)
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


def _pgm(image: np.ndarray[Any, Any]) -> bytes:
    """A grayscale image as a binary PGM file."""
    height, width = image.shape[:2]
    return (
        b"P5\n%d %d\n255\n" % (width, height)
        + np.ascontiguousarray(image.reshape(height, width), dtype=np.uint8).tobytes()
    )
