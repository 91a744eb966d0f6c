"""The pixel-first half of `audit --ocr`: scanned pages judged against their clean selves.

A scanned page's manifest records how it was scanned (its level, dpi and the exact 3x3
transform, `generator.render.scan.scan_page`). The page's native PDF, the pages as drawn
before any scan, is not in the packet; the document is built again from the packet's seed,
tier and knobs (`generator.packet.rebuild_document`) and used only when the rebuilt file's
sha256 is the one its manifest records, so the native pages are exactly the ones that were
scanned, and when its field truth and rendered universe are byte for byte the packet's: the
rule never reads a value, so it stands in for OCR only where the truth is what the generator
wrote for what it drew (a packet of another version or other knobs, or with an edited truth
file, falls back to OCR; the reason is in the audit's JSON, `pixels.unavailable`).
The clean page is that native page drawn under the recorded transform (`scan.clean_page`);
every located box on the scanned page is judged against the same box of the clean page by
`packetbench.legibility.judge`, and the page as a whole (for the visible strings, which have
no boxes) tile by tile.

Calibration: a seeded sample of scanned pages (`SAMPLE`: about one page in that many, chosen
by a hash of the document and page) is read by OCR exactly as `--ocr-mode full` reads it (so
its findings are a full audit's), and each of its boxes' pixel verdicts is set beside what OCR
found there. The agreement is reported with its 95 % interval, and an audit where the rule
calls more than `MAX_DISAGREEMENT` of the sampled boxes otherwise than OCR does is not
verified.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from packetbench import __version__, safe_read
from packetbench.benchmark.audit.files import Document
from packetbench.legibility import (
    DAMAGED_VERDICT,
    INTACT_VERDICT,
    UNDECIDED_VERDICT,
    Judgement,
    box_pixels,
    judge,
)

Pixels = np.ndarray[Any, Any]

# One scanned page in SAMPLE is also read by OCR to calibrate the rule (seeded by the
# document and page, so the same packet always samples the same pages).
SAMPLE = 32
# The most the rule and OCR may disagree on sampled boxes before the audit is not verified.
MAX_DISAGREEMENT = 0.05
# A page's strings are verified by pixels when every tile of the page with ink is intact.
TILE = 96  # pixels
MARGIN = 1.0  # points around a value's quad that belong to its box (a glyph's soft edge)


def sampled(doc_id: str, page: int, seed: int = 0) -> bool:
    """Whether page `page` of `doc_id` is in the calibration sample."""
    digest = hashlib.sha256(f"{seed}:{doc_id}:{page}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % SAMPLE == 0


@dataclass
class Agreement:
    """Sampled boxes the rule decided, and how many OCR read the same way."""

    intact_read: int = 0  # intact, and OCR read the value in its box
    intact_unread: int = 0
    damaged_read: int = 0
    damaged_unread: int = 0
    undecided: int = 0  # sampled boxes the rule left to OCR (not part of the agreement)

    @property
    def boxes(self) -> int:
        return self.intact_read + self.intact_unread + self.damaged_read + self.damaged_unread

    @property
    def agreed(self) -> int:
        return self.intact_read + self.damaged_unread

    def __add__(self, other: Agreement) -> Agreement:
        return Agreement(
            self.intact_read + other.intact_read,
            self.intact_unread + other.intact_unread,
            self.damaged_read + other.damaged_read,
            self.damaged_unread + other.damaged_unread,
            self.undecided + other.undecided,
        )

    def interval(self) -> tuple[float, float]:
        """The agreement's 95 % Wilson interval (0, 1 when nothing was sampled)."""
        return wilson(self.agreed, self.boxes)

    def too_low(self) -> bool:
        return bool(self.boxes) and (self.boxes - self.agreed) > MAX_DISAGREEMENT * self.boxes

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        return {
            "boxes": self.boxes,
            "agreed": self.agreed,
            "rate": round(self.agreed / self.boxes, 4) if self.boxes else None,
            "interval_95": [round(low, 4), round(high, 4)],
            "intact_read": self.intact_read,
            "intact_unread": self.intact_unread,
            "damaged_read": self.damaged_read,
            "damaged_unread": self.damaged_unread,
            "undecided_sampled": self.undecided,
            "max_disagreement": MAX_DISAGREEMENT,
        }


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return 0.0, 1.0
    share = hits / n
    centre = share + z * z / (2 * n)
    spread = z * float(np.sqrt(share * (1 - share) / n + z * z / (4 * n * n)))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@dataclass
class PixelStats:
    """What the pixel rule did in one document (the audit's JSON `pixels`)."""

    boxes: dict[str, int] = field(
        default_factory=lambda: {INTACT_VERDICT: 0, DAMAGED_VERDICT: 0, UNDECIDED_VERDICT: 0}
    )
    pages: int = 0  # scanned pages judged by pixels
    pages_sampled: int = 0  # ...read by OCR instead, to calibrate the rule
    pages_strings_intact: int = 0  # ...whose strings were all verified by pixels
    pages_ocr: int = 0  # ...that still needed whole-page OCR
    boxes_read: int = 0  # undecided boxes read by OCR box by box (no whole page)
    boxes_read_found: int = 0  # ...whose value that reading found
    unavailable: str = ""  # why the clean side could not be had ("" when it could)
    agreement: Agreement = field(default_factory=Agreement)

    def __add__(self, other: PixelStats) -> PixelStats:
        boxes = {k: self.boxes[k] + other.boxes[k] for k in self.boxes}
        return PixelStats(
            boxes,
            self.pages + other.pages,
            self.pages_sampled + other.pages_sampled,
            self.pages_strings_intact + other.pages_strings_intact,
            self.pages_ocr + other.pages_ocr,
            self.boxes_read + other.boxes_read,
            self.boxes_read_found + other.boxes_read_found,
            self.unavailable or other.unavailable,
            self.agreement + other.agreement,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "boxes": dict(self.boxes),
            "pages": self.pages,
            "pages_sampled": self.pages_sampled,
            "pages_strings_intact": self.pages_strings_intact,
            "pages_ocr": self.pages_ocr,
            "boxes_read": self.boxes_read,
            "boxes_read_found": self.boxes_read_found,
            "unavailable": self.unavailable,
            "agreement": self.agreement.to_json(),
        }


def scan_details(doc: Document) -> dict[int, dict[str, Any]]:
    """Scanned page -> how it was scanned ({level, dpi, matrix, ...}) from the manifest; only
    pages whose record is complete."""
    out: dict[int, dict[str, Any]] = {}
    for page, how, _pattern in doc.scanned_pages():
        matrix = how.get("matrix")
        if (
            isinstance(how.get("level"), str)
            and type(how.get("dpi")) is int
            and isinstance(matrix, list)
            and len(matrix) == 9
            and all(type(v) in (int, float) and np.isfinite(v) for v in matrix)
        ):
            out[page] = how
    return out


def native_pdf(doc: Document, packet: dict[str, Any]) -> tuple[bytes | None, str]:
    """The document's native PDF rebuilt from `packet` (packet_truth.json), or None and why
    not."""
    if packet.get("generator_version") != __version__:
        return None, (
            f"made by generator {packet.get('generator_version')!r}, this is {__version__}"
        )
    tier, seed, knobs = packet.get("tier"), packet.get("seed"), packet.get("knobs")
    if not isinstance(tier, str) or type(seed) is not int or not isinstance(knobs, dict):
        return None, "packet_truth.json has no tier, seed and knobs to rebuild it from"
    try:
        rebuilt = _rebuilt(packet, tier, seed, knobs, doc.doc_id, doc.file.name)
    except Exception as error:
        return None, f"rebuilding it failed ({type(error).__name__})"
    if rebuilt is None or rebuilt.native is None:
        return None, "the packet's seed and knobs do not make this document"
    data = rebuilt.files.get(doc.file.name, b"")
    if hashlib.sha256(data).hexdigest() != doc.manifest.get("sha256"):
        return None, "rebuilt from its seed and knobs it is another file than its manifest's"
    # The rule compares pixels with pixels and never reads a value: it may stand in for OCR
    # only where the truth files are the ones the generator wrote for what it drew.
    for kind in ("field_truth", "rendered_universe"):
        path = doc.truth_file(kind)
        if rebuilt.files.get(path.name) != safe_read.read_bytes(path, "truth"):
            return None, f"{path.name} is not the one its seed and knobs make"
    return rebuilt.native, ""


# The last packet's PDF documents rebuilt together: (tier, seed, knobs) -> doc_id -> Rebuilt.
_REBUILT: dict[str, dict[str, Any]] = {}


def _rebuilt(
    packet: dict[str, Any], tier: str, seed: int, knobs: dict[str, Any], doc_id: str, file: str
) -> Any:
    """Document `doc_id` rebuilt: every PDF document the packet lists is rebuilt in one pass
    the first time one of them is asked for (the world is built once, not once per document),
    and kept until another packet's is asked for. A document that pass does not make as
    `file` is rebuilt on its own."""
    import json

    from packetbench.generator.packet import rebuild_document, rebuild_documents

    key = json.dumps([tier, seed, knobs], sort_keys=True)
    if key not in _REBUILT:
        wanted = {
            str(d["doc_id"]): str(d["file"])
            for d in packet.get("documents") or []
            if isinstance(d, dict)
            and d.get("format") == "pdf"
            and d.get("doc_id")
            and d.get("file")
        }
        _REBUILT.clear()
        _REBUILT[key] = dict(rebuild_documents(tier, seed, knobs, wanted)) if wanted else {}
    rebuilt = _REBUILT[key].get(doc_id)
    if rebuilt is None or file not in rebuilt.files:
        return rebuild_document(tier, seed, knobs, doc_id, file)
    return rebuilt


def scanned_image(pdf: Any, number: int, size: tuple[int, int], dpi: int) -> Pixels:
    """The image of scanned page `number` (1-based) as gray pixels of `size` (rows, columns):
    the page's one image as stored when it has that size, else the page drawn by pdfium at
    the scan's dpi (a page changed since: its pixels, as a reader sees them)."""
    import pypdfium2 as pdfium

    page = pdf[number - 1]
    try:
        images = [o for o in page.get_objects() if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
        if len(images) == 1:
            bitmap = images[0].get_bitmap(render=False)
            pixels = bitmap.to_numpy()
            if pixels.ndim == 3:
                pixels = pixels[..., 0] if pixels.shape[2] == 1 else pixels.mean(axis=2)
            if pixels.shape == size:
                return np.ascontiguousarray(pixels.astype(np.uint8))
        drawn = page.render(scale=dpi / 72, grayscale=True).to_numpy()
    finally:
        page.close()
    drawn = drawn.reshape(drawn.shape[:2])
    out = np.full(size, 255, dtype=np.uint8)
    rows, cols = min(size[0], drawn.shape[0]), min(size[1], drawn.shape[1])
    out[:rows, :cols] = drawn[:rows, :cols]
    return out


@dataclass
class PixelPage:
    """One scanned page, clean and as scanned, at the scan's dpi."""

    clean: Pixels
    scanned: Pixels
    dpi: int
    height: float  # the page's height, points

    def judge_box(self, quad: list[float]) -> Judgement:
        """The verdict on one value's box: only the pixels inside its quad (grown by MARGIN
        points) are compared, the rest of the upright rectangle around a turned box set to
        paper on both sides, so a form's rule or a neighbour's text beside the value cannot
        vouch for it."""
        from PIL import Image, ImageDraw

        where = box_pixels(quad, self.dpi, self.height, self.clean.shape, MARGIN)
        if where is None:
            return Judgement(UNDECIDED_VERDICT, 1.0, 0)
        left, top, right, bottom = where
        clean = self.clean[top:bottom, left:right].copy()
        scanned = self.scanned[top:bottom, left:right].copy()
        if len(quad) == 8:
            scale = self.dpi / 72
            points = np.array(list(zip(quad[0::2], quad[1::2], strict=True)), dtype=np.float64)
            out = points - points.mean(axis=0)
            grown = points + out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9) * (
                MARGIN * 1.414
            )
            mask = Image.new("L", (right - left, bottom - top), 0)
            ImageDraw.Draw(mask).polygon(
                [(x * scale - left, (self.height - y) * scale - top) for x, y in grown], fill=1
            )
            outside = np.asarray(mask) == 0
            clean[outside] = int(clean.max())
            scanned[outside] = int(np.median(scanned))
        return judge(clean, scanned)

    def judge_page(self, hidden: list[list[float]] | None = None) -> Judgement:
        """The page tile by tile: the worst tile's verdict (intact when every tile with ink
        is). The boxes `hidden` (quads or bboxes, grown by MARGIN points) are paper on both
        sides: nothing in them vouches for or against the page."""
        clean_page, scanned_page = self.clean, self.scanned
        if hidden:
            from PIL import Image, ImageDraw

            scale = self.dpi / 72
            mask = Image.new("L", (self.clean.shape[1], self.clean.shape[0]), 0)
            draw = ImageDraw.Draw(mask)
            for quad in hidden:
                xs, ys = quad[0::2], quad[1::2]
                # A blot covers its box grown by a fifth of the box's height each way (and
                # at least 2 pixels; `generator.render.damage.blot`): a third, and the margin.
                grow = MARGIN + (max(ys) - min(ys)) / 3 + 2 / scale
                x0, x1 = min(xs) - grow, max(xs) + grow
                y0, y1 = min(ys) - grow, max(ys) + grow
                draw.rectangle(
                    [
                        x0 * scale,
                        (self.height - y1) * scale,
                        x1 * scale,
                        (self.height - y0) * scale,
                    ],
                    fill=1,
                )
            covered = np.asarray(mask) == 1
            clean_page, scanned_page = self.clean.copy(), self.scanned.copy()
            clean_page[covered] = int(self.clean.max())
            scanned_page[covered] = int(np.median(self.scanned))
        worst = Judgement(INTACT_VERDICT, 1.0, 0)
        rows, cols = clean_page.shape
        cells = 0
        for top in range(0, rows, TILE):
            for left in range(0, cols, TILE):
                clean = clean_page[top : top + TILE, left : left + TILE]
                if int(clean.min()) > int(clean.max()) - 40:
                    continue  # no ink in the tile
                tile = judge(clean, scanned_page[top : top + TILE, left : left + TILE])
                cells += tile.cells
                if tile.cells and tile.score < worst.score:
                    worst = tile
        return Judgement(worst.verdict if cells else UNDECIDED_VERDICT, worst.score, cells)


def pixel_pages(
    doc: Document, packet: dict[str, Any], pdf: Any
) -> tuple[dict[int, PixelPage], str]:
    """Every scanned page of `doc` that can be judged by pixels (page -> PixelPage), and why
    none can ("" when they can, or the document has no scanned page)."""
    from packetbench.generator.render import scan

    details = scan_details(doc)
    if not details:
        return {}, ""
    native, why = native_pdf(doc, packet)
    if native is None:
        return {}, why
    pages: dict[int, PixelPage] = {}
    source = scan.open_pdf(native)
    try:
        for page, how in sorted(details.items()):
            level = scan.LEVELS.get(how["level"])
            if level is None or level.dpi != how["dpi"] or not 1 <= page <= len(source):
                continue
            native = source[page - 1]
            height = float(native.get_size()[1])
            native.close()
            clean = scan.clean_page(source, page - 1, level, [float(v) for v in how["matrix"]])
            pages[page] = PixelPage(
                clean, scanned_image(pdf, page, clean.shape, level.dpi), level.dpi, height
            )
    finally:
        source.close()
    return pages, ""
