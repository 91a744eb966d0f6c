"""What a scanned page's audit keeps while it reads a document: the pixel rule's calibration
sample and what OCR found, pieces found intact, strings left to OCR and where, pages shown
to draw only their image, strings spread across or printed over a page, and the boxes cut
for OCR; with the manifest's facts every part of the reading asks."""

from __future__ import annotations

from collections import defaultdict

from packetbench.audit.pixels import sampled
from packetbench.audit.rungs import PageBoxes
from packetbench.audit.sources.base import DocumentState, SourceAuditor
from packetbench.audit.sources.textlayer import TextLayerAuditor
from packetbench.reading.legibility import DAMAGED_VERDICT, UNDECIDED_VERDICT, may_be_illegible
from packetbench.reading.pdftext import PdfText
from packetbench.reading.strategies import Crops
from packetbench.reading.tesseract import Tesseract


class ScanState(SourceAuditor):
    """The accumulators and shared facts of `ScannedPageAuditor`, which `ScanOcr` (reading by
    OCR) and the pixel rule (`scanned`) fill and read."""

    def __init__(
        self, state: DocumentState, pdf: PdfText, engine: Tesseract, text: TextLayerAuditor
    ) -> None:
        super().__init__(state)
        self.pdf = pdf
        self.engine = engine
        self.text = text  # reads a page whose attack drew nothing (`by_unattacked`)
        # The pixel rule's calibration sample: page -> (field, verdict); what OCR found.
        self.calibration: dict[int, list[tuple[int, str]]] = {}
        self.ocr_found: dict[tuple[int, int], bool] = {}
        # Pieces of split values the pixel rule found intact: field index -> piece numbers.
        self.intact_pieces: dict[int, set[int]] = defaultdict(set)
        # Strings the pixel rule left to OCR: (page, string index) -> the quad to read it in.
        self.string_boxes: dict[tuple[int, int], list[float]] = {}
        # Attacked pages shown to draw nothing but their image: hidden text settled by pixels.
        self.image_only: set[int] = set()
        # Strings drawn across their page (`PixelPage.spreads`): string_boxes holds the
        # rectangle along their line, and OCR reads them there (`reading.strategies.read_lines`).
        self.spread: set[tuple[int, int]] = set()
        # Strings printed over a scanned page after its scan (a fax header: `Rebuilt.printed`).
        self.overprinted: set[tuple[int, int]] = set()
        # Boxes cut out of the document's pages for OCR, each once (`reading.strategies.cut_boxes`).
        self.crops: Crops = {}
        # The document's boxes whose rungs the pixels decide, by page (`rungs.pixel_boxes`),
        # sorted out once for all its scanned pages.
        self.pixel_boxes: PageBoxes | None = None

    def taken(self, said: str, index: int) -> str:
        """The pixel rule's verdict on value `index`'s box as the audit takes it: a damaged
        value too short for the rule's margin is undecided, OCR's to read (`may_be_illegible`);
        the calibration sample takes it so too, so it measures the verdicts the audit uses."""
        if said == DAMAGED_VERDICT and not may_be_illegible(
            str(self.doc.fields[index]["rendered_as"])
        ):
            return UNDECIDED_VERDICT
        return said

    def stamped(self, page: int) -> set[str]:
        """Values a stamp is printed across on `page` (`overlay.void_stamp`'s targets). The
        stamp is on the clean page too, so the pixel rule finds such a value as drawn, stamp
        and all, and a reader reads it through the stamp; OCR does not always (fresh N3 seed
        820016: 14 of the 25 under a SUPERSEDED stamp unread), which says nothing of the rule, so
        they stay out of its calibration sample."""
        out: set[str] = set()
        for pattern in self.doc.manifest.get("patterns_applied") or []:
            if not isinstance(pattern, dict) or pattern.get("id") != "overlay.void_stamp":
                continue
            affected = pattern.get("pages_affected")
            targets = pattern.get("targets")
            if isinstance(affected, list) and page in affected and isinstance(targets, list):
                out.update(t for t in targets if isinstance(t, str))
        return out

    def post_attacked(self) -> set[int]:
        """Pages that text-layer attacks made on the emitted file touched, and no other
        text-layer attack did (one made while drawing changes what the unattacked file
        holds too)."""
        post: set[int] = set()
        drawn: set[int] = set()
        for pattern in self.doc.manifest.get("patterns_applied") or []:
            if not isinstance(pattern, dict) or pattern.get("family") != "textlayer":
                continue
            affected = pattern.get("pages_affected")
            pages = {p for p in affected if type(p) is int} if isinstance(affected, list) else set()
            (post if pattern.get("phase") == "post" else drawn).update(pages)
        return post - drawn

    def calibrating(self, page: int) -> bool:
        """Whether scanned `page` is in the pixel rule's calibration sample."""
        if self.state.calibrate is not None:
            return page in self.state.calibrate
        return sampled(self.state.packet_id, self.doc.doc_id, page)

    def placeless(self, page: int, texts: list[int]) -> bool:
        """Whether a string of `texts` on `page` has no place to read it in (none on its native
        page, or one drawn across the page, `PixelPage.spreads`, with no line to read it
        along). Such a page is read whole."""
        return any((page, index) not in self.string_boxes for index in texts)

    def page_strings(self, page: int) -> list[str]:
        """The visible strings scanned `page` shows."""
        return [s["text"] for s in self.doc.strings if s.get("page") == page]
