"""The PDF text layer as a source: each located value read at its box through pypdfium2, each
visible string looked up in its page's text; and what the text layer itself must show, the
attacks the manifest claims and no word that belongs to nothing (`unaccounted`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, ClassVar

from packetbench.audit.result import ATTACK_ABSENT, UNACCOUNTED, Finding
from packetbench.audit.sources.base import (
    NUMBER_TYPES,
    DocumentState,
    Pages,
    SourceAuditor,
    reads,
    squash,
)
from packetbench.audit.unaccounted import (
    GARBLED,
    OCR_LAYERS,
    accounted,
    describe,
    orphans,
    pages_of,
    unaccounted,
)
from packetbench.reading.located import Located
from packetbench.reading.pdftext import PdfText

# Brackets folded to one direction: text extraction mirrors them beside right-to-left text.
_MIRRORED = str.maketrans(")]}>", "([{<")


class TextLayerAuditor(SourceAuditor):
    """Reads PDF pages through their text layer (`pdftext`)."""

    reader: ClassVar[str] = "pdf"

    def __init__(self, state: DocumentState, pdf: PdfText) -> None:
        super().__init__(state)
        self.pdf = pdf

    def check(self, pages: Pages) -> None:
        for page in pages.numbers:
            self.read_page(self.pdf, page, pages.located.get(page, []), pages.strings.get(page, []))

    def read_page(
        self,
        pdf: PdfText,
        page: int,
        fields: list[Located],
        texts: list[int],
        reader: str = "pdf",
    ) -> None:
        with pdf.page(page, sizes=page in self.doc.overlay_pages()) as layer:
            read = layer.bounded_many([bbox for _, bbox, *_ in fields], display=False)
            page_text = reads(layer.text)
        entries = self.doc.fields
        misses = whole = 0
        for (index, bbox, piece, _), got in zip(fields, read, strict=True):
            if piece[1] > 1:
                self.state.pieces[index][piece[0]] = got  # judged once every piece is read
                continue
            whole += 1
            expected = entries[index]["rendered_as"]
            if got != expected and reads(got) != reads(expected):
                misses += 1
                self.state.field_result(
                    index,
                    False,
                    reader,
                    page=page,
                    where=f"page {page} bbox {bbox}",
                    got=squash(got),
                )
        tally = self.audit.tally("fields", reader)
        tally.checked += whole - misses  # the misses counted themselves
        tally.found += whole - misses
        strings, misses = self.doc.strings, 0
        unmirrored = page_text.translate(_MIRRORED)
        for index in texts:
            text = strings[index]["text"]
            # A string found as written is found squashed too (the page text has no runs);
            # beside right-to-left text pdfium's bidi pass mirrors a bracket ("(" reads ")").
            if (
                text not in page_text
                and reads(text) not in page_text
                and reads(text).translate(_MIRRORED) not in unmirrored
            ):
                misses += 1
                self.state.string_result(index, False, reader, page)
        tally = self.audit.tally("strings", reader)
        tally.checked += len(texts) - misses
        tally.found += len(texts) - misses

    def check_attacks(self, pdf: PdfText, located: dict[int, list[Located]]) -> None:
        """Every attack the manifest claims is in the file: the text layer does not yield a
        value it claims unreadable at that value's box, holds every hidden string of the
        page, and meets a page's last string before its first when it claims so."""
        claims = self.state.attacks
        hidden: dict[int, list[int]] = defaultdict(list)
        for index, entry in enumerate(self.doc.hidden):
            page = entry.get("page")
            if type(page) is int and page in claims.pages:
                hidden[page].append(index)
        pages = sorted(set(claims.unreadable) | set(claims.out_of_order) | set(hidden))
        for page in pages:
            if not 1 <= page <= pdf.pages:
                self.state.problem(
                    ATTACK_ABSENT,
                    "",
                    f"an attack claims page {page}; the document has {pdf.pages} page(s)",
                    self.doc.truth_file("manifest").name,
                )
                continue
            wanted = set(claims.unreadable.get(page, []))
            # The claim covers the value's locations on that page its text layer cannot
            # read (a value drawn twice may be attacked in one place only).
            boxes = [
                (index, self._upright(location))
                for index, entry in enumerate(self.doc.fields)
                if entry["path"] in wanted
                for location in entry.get("locations") or []
                if isinstance(location, dict)
                and location.get("page") == page
                and location.get("text_layer") is False
            ]
            with pdf.page(page, sizes=page in self.doc.overlay_pages()) as layer:
                read = layer.bounded_many([box for _, box in boxes], display=False)
                text = reads(layer.text)
            for (index, box), got in zip(boxes, read, strict=True):
                entry = self.doc.fields[index]
                if reads(got) == reads(entry["rendered_as"]):
                    self.attack_absent(
                        entry["path"],
                        page,
                        f"page {page} bbox {box}",
                        entry["rendered_as"],
                        got,
                        "the text layer yields the value a text-layer attack claims it does not",
                    )
                else:
                    self.audit.attacks["unreadable"] += 1
            # Text extraction spaces words its own way (kerned runs have no spaces at all).
            compact = "".join(text.split())
            for index in hidden.get(page, []):
                shown = self.doc.hidden[index]["text"]
                if "".join(reads(shown).split()) in compact:
                    self.audit.attacks["hidden_in_layer"] += 1
                else:
                    self.attack_absent(
                        f"hidden[{index}]",
                        page,
                        f"page {page}",
                        shown,
                        "",
                        "hidden text a text-layer attack put in the text layer is not there",
                        self.state.strings_file,
                    )
            order = claims.out_of_order.get(page)
            if order:
                first, last = (text.find(reads(s)) for s in (order[0], order[-1]))
                if 0 <= last < first:
                    self.audit.attacks["out_of_order"] += 1
                else:
                    self.attack_absent(
                        "",
                        page,
                        f"page {page}",
                        f"{order[-1]!r} before {order[0]!r}",
                        "",
                        "the text layer reads the page in order",
                        self.doc.truth_file("manifest").name,
                    )

    @staticmethod
    def _upright(location: dict[str, Any]) -> list[float]:
        bbox = location.get("bbox")
        if type(bbox) is not list or len(bbox) != 4 or set(map(type, bbox)) - NUMBER_TYPES:
            return [0.0, 0.0, 0.0, 0.0]
        return [float(v) for v in bbox]

    def attack_absent(
        self, path: str, page: int, where: str, expected: str, got: str, detail: str, file: str = ""
    ) -> None:
        self.audit.findings.append(
            Finding(
                ATTACK_ABSENT,
                self.doc.doc_id,
                file or self.state.fields_file,
                path,
                "pdf",
                page,
                where,
                expected,
                squash(got),
                detail,
            )
        )

    def check_unaccounted(self, pdf: PdfText) -> None:
        """Every word of every page's text layer belongs to a value, a string or a hidden
        misreading of that page (`unaccounted`)."""
        drawn, hidden = accounted(self.doc)
        lost = orphans(self.doc)
        garbled, layered = pages_of(self.doc, GARBLED), pages_of(self.doc, OCR_LAYERS)
        for page in range(1, pdf.pages + 1):
            if page in garbled:
                continue
            left = unaccounted(
                pdf.text(page),
                drawn.get(page, Counter()),
                hidden.get(page, set()),
                ocr_layer=page in layered,
            )
            if left:
                named = lost.get(page)
                self.audit.findings.append(
                    Finding(
                        UNACCOUNTED,
                        self.doc.doc_id,
                        self.doc.file.name,
                        "",
                        "pdf",
                        page,
                        f"page {page}",
                        "",
                        describe(left),
                        f"{sum(left.values())} piece(s) of the text layer belong to no truth "
                        "value, declared label or hidden text"
                        + (
                            f" (the universe shows {', '.join(named)}, which no truth holds)"
                            if named
                            else ""
                        ),
                    )
                )
