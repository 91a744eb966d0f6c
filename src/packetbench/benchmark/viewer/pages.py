"""Page images and page geometry of a document's PDF, through pypdfium2.

Pages are rendered lazily, one page at one scale when it is first asked for, and cached on
disk under the document file's sha256 (the same file in two runs or two packets folders is
one set of images). PDFium is not thread-safe: every call into it holds one lock.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from packetbench.core import stopping
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.writing import write_atomic

SCALES = (1, 2, 3, 4)  # x 72 dpi
MAX_PAGES = 100_000  # a page number beyond this is no page of any document
_SHA = re.compile(r"^[0-9a-f]{64}$")
_PDFIUM = stopping.PDFIUM  # pdfium is not thread-safe: one lock for every use of it
MAX_HIDDEN_BOXES = 8  # boxes found per hidden string


def default_cache() -> Path:
    """Where page images are cached unless told: $PACKETBENCH_PAGE_CACHE, else
    ~/.cache/packetbench/pages."""
    found = os.environ.get("PACKETBENCH_PAGE_CACHE")
    return Path(found) if found else Path.home() / ".cache" / "packetbench" / "pages"


@dataclass(frozen=True)
class PageBox:
    """A page's size in points and the origin of its crop box (boxes are drawn from it)."""

    width: float
    height: float
    left: float
    bottom: float
    rotation: int


def _open(pdf: Path):  # type: ignore[no-untyped-def]
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(str(pdf))
    except (pdfium.PdfiumError, OSError) as error:
        raise BadInput(f"{pdf}: not a readable PDF ({error})") from None


class Pages:
    """Rendered pages of PDFs, cached on disk under `cache`."""

    def __init__(self, cache: Path) -> None:
        self.cache = cache
        self._geometry: dict[str, list[PageBox]] = {}

    def check_cache(self) -> None:
        """Refuse, before anything is served or exported, a cache that cannot be written:
        every page image is written there before it is answered."""
        import tempfile

        try:
            self.cache.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self.cache, prefix=".write-probe-"):
                pass
        except OSError as error:
            reason = error.strerror or type(error).__name__
            raise UsageError(
                f"{self.cache}: cannot write the page cache ({reason}); give --cache a "
                "folder this user can write"
            ) from None

    def geometry(self, pdf: Path, sha: str) -> list[PageBox]:
        """Every page's box (remembered per file)."""
        if sha not in self._geometry:
            with _PDFIUM:
                document = _open(pdf)
                try:
                    boxes = []
                    for index in range(len(document)):
                        page = document[index]
                        left, bottom, right, top = page.get_cropbox()
                        boxes.append(
                            PageBox(
                                round(right - left, 2),
                                round(top - bottom, 2),
                                round(left, 2),
                                round(bottom, 2),
                                int(page.get_rotation()),
                            )
                        )
                        page.close()
                finally:
                    document.close()
            self._geometry[sha] = boxes
        return self._geometry[sha]

    def image(self, pdf: Path, sha: str, page: int, scale: int) -> Path:
        """The PNG of page `page` (1-based) at `scale` x 72 dpi, rendered when first asked."""
        if not _SHA.match(sha):
            raise UsageError(f"{sha[:70]!r} is not a document's sha256")
        if scale not in SCALES:
            raise UsageError(f"scale must be one of {', '.join(map(str, SCALES))}")
        if not 1 <= page <= MAX_PAGES:
            raise UsageError(f"no page {str(page)[:20]} (pages are 1 to {MAX_PAGES:,} at most)")
        target = self.cache / sha[:2] / f"{sha}-p{page}-x{scale}.png"
        if target.is_file():
            return target
        count = len(self.geometry(pdf, sha))
        if not 1 <= page <= count:
            raise UsageError(f"{pdf}: no page {page} (it has {count})")
        import io

        with _PDFIUM:
            document = _open(pdf)
            try:
                rendered = document[page - 1].render(scale=scale, may_draw_forms=False)
                image = rendered.to_pil()
            finally:
                document.close()
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", optimize=False, compress_level=3)
        write_atomic(target, buffer.getvalue())
        return target

    def find_text(self, pdf: Path, page: int, text: str) -> list[list[float]]:
        """Boxes ([x0, y0, x1, y1], PDF points) of `text` in the text layer of page `page`:
        where hidden text (under a redaction, white, in a switched-off layer) actually is."""
        needle = " ".join(text.split())
        if not needle:
            return []
        boxes: list[list[float]] = []
        with _PDFIUM:
            document = _open(pdf)
            try:
                if not 1 <= page <= len(document):
                    return []
                textpage = document[page - 1].get_textpage()
                searcher = textpage.search(needle, match_case=True)
                while len(boxes) < MAX_HIDDEN_BOXES:
                    found = searcher.get_next()
                    if found is None:
                        break
                    start, count = found
                    rects = [
                        textpage.get_rect(i) for i in range(textpage.count_rects(start, count))
                    ]
                    if rects:
                        boxes.append(
                            [
                                round(min(r[0] for r in rects), 2),
                                round(min(r[1] for r in rects), 2),
                                round(max(r[2] for r in rects), 2),
                                round(max(r[3] for r in rects), 2),
                            ]
                        )
                searcher.close()
                textpage.close()
            finally:
                document.close()
        return boxes
