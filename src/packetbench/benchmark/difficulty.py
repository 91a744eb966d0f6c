"""The difficulty card: how hard a corpus of packets is to perceive, tier by tier.

Everything is measured from the files a reader gets, with the same code for any corpus (ours or
an imported one): PDF pages are opened with pypdfium2, never taken from our manifests, so a page
counts as an image page when it carries no text at all or is one image covering most of the page
(a scan, with or without an OCR layer over it). Located values come from the field truth's
locations (page + bbox on a PDF); a value drawn twice counts twice. Checkboxes are marks, not
words, and are left out of the located values, and so are locations the generator judged
illegible (`legible: false`, docs/patterns.md rule 3b): nobody is expected to read them, so the
naive OCR baseline is measured on legible values only. Illegible values (a value with no
legible location in its document: `illegible: true` in the field truth) are counted apart,
per packet.

The naive OCR baseline is what a pipeline without restoration gets: each sampled page rendered
at 300 dpi in gray, read whole by Tesseract (automatic page segmentation), nothing evened out,
deskewed or unruled; a located value is recovered when the words in its box, or a whole-word
run anywhere on the page, read as its `rendered_as` (the audit's rule, `OcrPage.find`). It is
slow, so it reads a seeded sample of pages per tier (pages holding at least one located value).

Conflicts are what the manifests record: applications of the cross-document variant patterns
(name, address, policy-number, building facts), their ids or the ids they correspond to, and
of `hand.signature_conflict` (a signature and handwritten date contradicting the typed ones).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from packetbench.benchmark import readers
from packetbench.core import safe_read
from packetbench.core.errors import BadInput, UsageError
from packetbench.reading import ppocr
from packetbench.reading.imaging import render_page
from packetbench.reading.located import page_turn
from packetbench.reading.page import OcrPage
from packetbench.reading.pdftext import PdfText
from packetbench.reading.resolution import legible_at
from packetbench.reading.strategies import read_pages
from packetbench.reading.tesseract import DPI, Tesseract
from packetbench.reading.text import same_text
from packetbench.truth import normalize
from packetbench.truth.documents import Document, packet_folders, read_packet

# Cross-document variants: the same fact stated differently by two current documents; and a
# form whose signature and handwritten date contradict its typed signer and date.
CONFLICT_PATTERNS = frozenset(
    {
        "packet.name_variants",
        "packet.address_variants",
        "packet.policy_number_formats",
        "packet.conflicting_values",
        "hand.signature_conflict",
    }
)
IMAGE_COVER = 0.85  # an image covering this share of the page makes it an image page
MARGIN = 2.0  # points around a value's box when its text layer is read (as the audit's OCR)
DEFAULT_OCR_SAMPLE = 4
Located = tuple[list[float], str, bool]  # box or quad, rendered_as, declared text_layer
# packet id, PDF, page number, its located values, how the page was made: its scan level, or
# "native" (drawn, text layer kept), or "image, no record" (an image page no manifest explains);
# and its capture mode: the scan's (`capture_mode` in the manifest), or the same two words.
Page = tuple[str, Path, int, list[Located], str, str]
NATIVE = "native"  # a PDF page drawn natively (the generator's `render.scan_levels.NATIVE`)
NO_RECORD = "image, no record"
# The readers of a sampled page. naive and restored are always read; the careful readers
# (benchmark.readers) at the resolutions a model is sent pages (96 and 110 dpi, about a
# provider's own rasterisation; 150, `extract --input images`) and at 300 dpi.
CAREFUL = (
    "careful_96",
    "careful_110",
    "careful_150",
    "careful_300",
    "ppocr_96",
    "ppocr_110",
    "ppocr_150",
    "ppocr_300",
)
READER_GROUPS = {"careful": CAREFUL[:4], "ppocr": CAREFUL[4:], "all": CAREFUL}
# The delivered resolutions whose share of legible located values the card shows
# (`resolution.legible_at`): a provider's own rasterisation (about 90 and 110 dpi), a
# screen's 96, and `extract --input images` (150).
DELIVERED = (90, 96, 110, 150)
DEFAULT_READERS = READER_GROUPS["careful"]


@dataclass
class TierCard:
    """One tier's row of the card: sums, turned into rates by `row`."""

    tier: str
    packets: int = 0
    documents: int = 0
    pdf_pages: int = 0
    image_pages: int = 0
    located: int = 0
    not_in_text_layer: int = 0
    declared_no_text_layer: int = 0
    ocr_pages: int = 0
    ocr_located: int = 0
    ocr_recovered: int = 0
    restored_recovered: int = 0  # the same pages read as the audit reads them
    conflicts: int = 0
    illegible: int = 0  # values with no legible location (field truth `illegible: true`)
    pattern_uses: int = 0
    largest_table: int = 0
    # Recovered values per careful reader (`READERS` beyond naive and restored), when read.
    careful: dict[str, int] = field(default_factory=dict)
    # Located values on PDF pages legible in the file, and how many of them are still legible
    # at each delivered resolution of DELIVERED (`resolution.legible_at`).
    legible: int = 0
    legible_at: dict[int, int] = field(default_factory=dict)
    # Per capture mode: PDF pages, image pages, and located values on its pages.
    mode_pages: dict[str, int] = field(default_factory=dict)
    mode_images: dict[str, int] = field(default_factory=dict)
    mode_located: dict[str, int] = field(default_factory=dict)
    # (packet id, PDF file, page number, located values, how the page was made) to sample from
    pages: list[Page] = field(default_factory=list, repr=False)

    def row(self) -> dict[str, Any]:
        def share(part: int, whole: int) -> float | None:
            return round(part / whole, 4) if whole else None  # a rate over nothing is None

        def per(total: int, count: int) -> float | None:
            return round(total / count, 2) if count else None

        return {
            "tier": self.tier,
            "packets": self.packets,
            "documents_per_packet": per(self.documents, self.packets),
            "pdf_pages_per_packet": per(self.pdf_pages, self.packets),
            "image_page_share": share(self.image_pages, self.pdf_pages),
            "located_values": self.located,
            "not_in_text_layer_share": share(self.not_in_text_layer, self.located),
            "declared_no_text_layer_share": share(self.declared_no_text_layer, self.located),
            "ocr_pages_read": self.ocr_pages,
            "ocr_located_values": self.ocr_located,
            "ocr_recovered_share": share(self.ocr_recovered, self.ocr_located),
            "restored_ocr_recovered_share": share(self.restored_recovered, self.ocr_located),
            **{
                f"{name}_recovered_share": (
                    share(self.careful[name], self.ocr_located) if name in self.careful else None
                )
                for name in CAREFUL
            },
            **{
                f"legible_at_{dpi}_share": share(self.legible_at.get(dpi, 0), self.legible)
                for dpi in DELIVERED
            },
            "conflicts_per_packet": per(self.conflicts, self.packets),
            "illegible_values_per_packet": per(self.illegible, self.packets),
            "pattern_uses_per_document": per(self.pattern_uses, self.documents),
            "largest_table_rows": self.largest_table,
        }


@dataclass(frozen=True)
class Card:
    tiers: list[dict[str, Any]]
    ocr_sample: int
    seed: int
    readers: list[str] = field(default_factory=list)  # the careful readers the sample had
    # One row per tier and page kind of the sampled pages: the readers' shares there.
    levels: list[dict[str, Any]] = field(default_factory=list)
    # One row per tier and capture mode: its pages and values in the tier, the readers'
    # shares on its sampled pages.
    modes: list[dict[str, Any]] = field(default_factory=list)
    # Pages each capture mode of a tier is read on at least (`_topped_up`; 0: the mode rows
    # read only the tier's sample).
    ocr_per_mode: int = 0

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def image_page(page: Any) -> bool:
    """Whether a pypdfium2 page is an image page: no text at all, or one image covering at
    least IMAGE_COVER of the page (a scan, an OCR layer over it or not)."""
    textpage = page.get_textpage()
    try:
        if textpage.count_chars() == 0:
            return True
    finally:
        textpage.close()
    width, height = page.get_size()
    area = float(width * height) or 1.0
    for obj in page.get_objects(filter=(raw.FPDF_PAGEOBJ_IMAGE,)):
        left, bottom, right, top = obj.get_bounds()
        if (right - left) * (top - bottom) >= IMAGE_COVER * area:
            return True
    return False


def _located(document: Document) -> dict[int, list[Located]]:
    """Page -> (box, rendered_as, text_layer as the truth declares it) of each located value
    of a PDF (checkboxes left out). A scanned page's quad is its exact box; otherwise the
    bbox."""
    pages: dict[int, list[Located]] = {}
    for entry in document.fields:
        if entry.get("kind") == "checkbox" or not entry["rendered_as"].strip():
            continue
        for location in entry.get("locations") or []:
            if not isinstance(location, dict) or location.get("legible") is False:
                continue
            page, bbox = location.get("page"), location.get("bbox")
            region = location.get("quad") or bbox
            if (
                type(page) is not int
                or not isinstance(bbox, list)
                or len(bbox) != 4
                or not isinstance(region, list)
                or not all(isinstance(v, int | float) for v in region)
            ):
                continue
            pages.setdefault(page, []).append(
                (
                    [float(v) for v in region],
                    entry["rendered_as"],
                    location.get("text_layer") is not False,
                )
            )
    return pages


def _spaceless(text: str) -> str:
    return normalize.string(text).replace(" ", "")


def _upright(region: list[float]) -> list[float]:
    if len(region) == 4:
        return region
    xs, ys = region[0::2], region[1::2]
    return [min(xs), min(ys), max(xs), max(ys)]


def _largest_table(value: Any) -> int:
    """The most records in any list of objects in a document's truth."""
    if isinstance(value, dict):
        return max((_largest_table(v) for v in value.values()), default=0)
    if isinstance(value, list):
        here = len(value) if value and all(isinstance(v, dict) for v in value) else 0
        return max([here, *(_largest_table(v) for v in value)])
    return 0


def _measure_pdf(card: TierCard, document: Document, packet: str) -> None:
    located = _located(document)
    levels = document.scan_levels()
    modes = {
        page: str(how.get("capture_mode") or "scan, no mode")
        for page, how, _ in document.scanned_pages()
    }
    with PdfText(document.file) as text:
        pdf = text.document()
        card.pdf_pages += text.pages
        for number in range(1, text.pages + 1):
            page = pdf[number - 1]
            try:
                imaged = image_page(page)
            finally:
                page.close()
            card.image_pages += imaged
            mode = modes.get(number) or (NO_RECORD if imaged else NATIVE)
            card.mode_pages[mode] = card.mode_pages.get(mode, 0) + 1
            card.mode_images[mode] = card.mode_images.get(mode, 0) + imaged
            here = [item for item in located.get(number, []) if item[0]]
            if not here:
                continue
            card.mode_located[mode] = card.mode_located.get(mode, 0) + len(here)
            kind = levels.get(number) or (NO_RECORD if imaged else NATIVE)
            card.pages.append((packet, document.file, number, here, kind, mode))
            grown = [
                [b[0] - MARGIN, b[1] - MARGIN, b[2] + MARGIN, b[3] + MARGIN]
                for b in (_upright(region) for region, _, _ in here)
            ]
            with text.page(number) as page_text:
                read = page_text.bounded_many(grown, display=False)
            card.located += len(here)
            card.not_in_text_layer += sum(
                _spaceless(expected) not in _spaceless(found)
                for (_, expected, _), found in zip(here, read, strict=True)
            )
            card.declared_no_text_layer += sum(not declared for _, _, declared in here)


def _conflicts(manifest: dict[str, Any]) -> int:
    count = 0
    for applied in manifest.get("patterns_applied") or []:
        if not isinstance(applied, dict):
            continue
        names = {applied.get("id"), *(applied.get("corresponds") or [])}
        count += bool(names & CONFLICT_PATTERNS)
    return count


def _sampled(card: TierCard, sample: int, seed: int) -> list[Page]:
    """The `sample` pages of the tier (seeded) the OCR baseline reads, in packet order."""
    chosen = random.Random(f"{seed}:{card.tier}").sample(card.pages, min(sample, len(card.pages)))
    return sorted(chosen, key=lambda c: (c[0], str(c[1]), c[2]))


def _topped_up(card: TierCard, sampled: list[Page], per_mode: int, seed: int) -> list[Page]:
    """Pages beyond the tier's sample so that each capture mode is read on at least `per_mode`
    of its pages (all of them when it has fewer), drawn per mode (seeded), in packet order.

    The tier's sample is uniform over its pages, so a mode on a few pages in a hundred is read
    on one page or none and its row says little. These pages count in the mode rows only: the
    tier row and the page-kind rows stay the uniform sample's, an estimate of the tier whole."""
    taken = {(page[0], str(page[1]), page[2]) for page in sampled}
    extra: list[Page] = []
    for mode in sorted({page[5] for page in card.pages}):
        have = sum(page[5] == mode for page in sampled)
        rest = [
            page
            for page in card.pages
            if page[5] == mode and (page[0], str(page[1]), page[2]) not in taken
        ]
        want = min(max(per_mode - have, 0), len(rest))
        extra += random.Random(f"{seed}:{card.tier}:{mode}").sample(rest, want)
    return sorted(extra, key=lambda c: (c[0], str(c[1]), c[2]))


_ENGINES: dict[str, Any] = {}  # one of each engine per process (a worker's, or this one's)


def _engine(name: str) -> Any:
    """This process's `name` engine: tesseract, careful or ppocr (`benchmark.readers`)."""
    if name not in _ENGINES:
        tesseract = _ENGINES.setdefault("tesseract", Tesseract())
        if name == "careful":
            _ENGINES[name] = readers.CarefulTesseract(tesseract)
        elif name == "ppocr":
            _ENGINES[name] = readers.PagePpOcr()
    return _ENGINES[name]


def _ocr_page(job: tuple[Page, tuple[str, ...]]) -> dict[str, int]:
    """Values of one page each reader recovers: `naive` (read whole, no restoration),
    `restored` (as the audit's OCR reads it, `_restored`), and each careful reader asked for
    (`benchmark.readers`), all judged by the audit's matching rule (`OcrPage.find`)."""
    page, careful = job
    engine = _engine("tesseract")
    _packet, path, number, here, _kind, _mode = page
    try:
        pdf = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as error:
        raise BadInput(f"{path}: unreadable PDF ({error})") from None
    source = f"{path} page {number}"
    found: dict[str, int] = {}
    try:
        image, left, top = render_page(pdf, number, DPI)
        found["restored"] = _restored(pdf, path, number, here, engine)
        images = {DPI: (image.reshape(image.shape[:2]), left, top)}
        for name in careful:
            dpi = int(name.rsplit("_", 1)[1])
            if dpi not in images:
                other, left, top = render_page(pdf, number, dpi)
                images[dpi] = (other.reshape(other.shape[:2]), left, top)
    finally:
        pdf.close()
    gray, left, top = images[DPI]
    ocr = OcrPage(engine.words(gray, DPI, source), DPI / 72, left, top)
    found["naive"] = sum(ocr.find(region, expected)[0] for region, expected, _ in here)
    for name in careful:
        reader, dpi_text = name.rsplit("_", 1)
        dpi = int(dpi_text)
        gray, left, top = images[dpi]
        if reader == "careful":
            words, _done = _engine("careful").read(gray, dpi, source)
            ocr = OcrPage(words, dpi / 72, left, top)
            found[name] = sum(ocr.find(region, expected)[0] for region, expected, _ in here)
        else:
            chars, tokens = _engine("ppocr").read(gray, source)
            by_char = OcrPage(chars, dpi / 72, left, top)
            by_token = OcrPage(tokens, dpi / 72, left, top)
            found[name] = sum(
                same_text(by_char.in_box(region), expected) or by_token.on_page(expected)
                for region, expected, _ in here
            )
    return found


def _restored(pdf: Any, path: Path, number: int, here: list[Located], engine: Tesseract) -> int:
    """How many of a page's located values the audit's OCR reads (`audit --ocr --ocr-mode
    full`): the paper evened out and the page turned back by the direction its boxes run (any
    page whose boxes are quads: a scan), rules removed, read whole, and each value it missed
    in its box read again from the box alone, then sharpened (`reading.imaging.sharpened`)."""
    angles = {number: page_turn([(0, region, (0, 1), False) for region, _, _ in here])}
    if not any(len(region) == 8 for region, _, _ in here):
        angles = {}  # a native page: read as it is, rules removed
    ((_, page),) = list(read_pages(pdf, [number], engine, path, angles=angles))
    found = [page.find(region, expected)[0] for region, expected, _ in here]
    for sharpen in (False, True):  # the box alone, then sharpened, as the audit reads again
        again = [i for i, hit in enumerate(found) if not hit]
        regions = [here[i][0] for i in again]
        for i, readings in zip(again, page.reread(regions, sharpen=sharpen), strict=True):
            found[i] = any(same_text(read, here[i][1]) for read in readings)
    return sum(found)


def _measure_packet(folder: Path) -> TierCard:
    """One packet's part of its tier's card (everything but the OCR baseline)."""
    packet = read_packet(folder)
    card = TierCard(str(packet.truth.get("tier") or "?"), packets=1)
    card.documents += len(packet.documents)
    for document in packet.documents:
        digest = safe_read.sha256(document.file, "document")
        if digest != document.manifest.get("sha256"):
            # Measured, it would describe another file than the packet's truth does.
            raise BadInput(
                f"{document.file}: sha256 {digest[:12]} differs from its manifest's "
                f"{str(document.manifest.get('sha256'))[:12]} (a changed or truncated file)"
            )
        card.pattern_uses += len(document.manifest.get("patterns_applied") or [])
        card.conflicts += _conflicts(document.manifest)
        card.illegible += sum(entry.get("illegible") is True for entry in document.fields)
        card.largest_table = max(card.largest_table, _largest_table(document.truth))
        if document.format == "pdf":
            _measure_pdf(card, document, packet.packet_id)
            _measure_delivered(card, document)
    return card


def _measure_delivered(card: TierCard, document: Document) -> None:
    """Count a PDF's located values legible in the file (checkboxes left out, as the card's
    located values), and those still legible at each of DELIVERED."""
    for entry in document.fields:
        if entry.get("kind") == "checkbox" or not entry["rendered_as"].strip():
            continue
        for location in entry.get("locations") or []:
            if (
                not isinstance(location, dict)
                or type(location.get("page")) is not int
                or location.get("legible") is False
            ):
                continue
            card.legible += 1
            for dpi in DELIVERED:
                card.legible_at[dpi] = card.legible_at.get(dpi, 0) + legible_at(location, dpi)


SUMMED = (
    "packets",
    "documents",
    "pdf_pages",
    "image_pages",
    "located",
    "not_in_text_layer",
    "declared_no_text_layer",
    "conflicts",
    "illegible",
    "pattern_uses",
    "legible",
)


def _add(card: TierCard, part: TierCard) -> None:
    """Add one packet's part to its tier's card (pages kept in packet order)."""
    for name in SUMMED:
        setattr(card, name, getattr(card, name) + getattr(part, name))
    for dpi, count in part.legible_at.items():
        card.legible_at[dpi] = card.legible_at.get(dpi, 0) + count
    for mine, theirs in (
        (card.mode_pages, part.mode_pages),
        (card.mode_images, part.mode_images),
        (card.mode_located, part.mode_located),
    ):
        for mode, count in theirs.items():
            mine[mode] = mine.get(mode, 0) + count
    card.largest_table = max(card.largest_table, part.largest_table)
    card.pages += part.pages


def difficulty_card(
    paths: Iterable[Path],
    ocr_sample: int = DEFAULT_OCR_SAMPLE,
    seed: int = 0,
    progress: bool = False,
    jobs: int = 1,
    readers: Sequence[str] = DEFAULT_READERS,
    ocr_per_mode: int = 0,
) -> Card:
    """The card of the packets under `paths` (packet folders or folders of packets), one row
    per tier in tier order; `ocr_sample` pages per tier go through the naive OCR baseline,
    the audit's restored reading and the careful `readers` (names of CAREFUL or groups of
    READER_GROUPS; 0 pages: none, and no Tesseract needed). Packets are measured and pages
    read in `jobs` worker processes; the card is the same whatever their number. `progress`
    shows a bar on a terminal for each of the two passes. `ocr_per_mode`: each capture mode
    of a tier is read on at least that many pages (`_topped_up`), for its row alone."""
    from packetbench.core import progress as bars
    from packetbench.core.executors import LocalExecutor

    if ocr_sample < 0:
        raise UsageError(f"--ocr-sample must be 0 or more (got {ocr_sample})")
    if ocr_per_mode < 0:
        raise UsageError(f"--ocr-sample-per-mode must be 0 or more (got {ocr_per_mode})")
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1 (got {jobs})")
    folders = packet_folders(paths)
    if not folders:
        raise BadInput(f"{', '.join(str(p) for p in paths)}: no packets found")
    careful = reader_names(",".join(readers))  # checked, in the card's order
    if ocr_sample or ocr_per_mode:
        Tesseract()  # no Tesseract: one line before anything is measured
        if any(name.startswith("ppocr") for name in careful):
            ppocr.required("--readers ppocr")  # one line before anything is measured
    runner = LocalExecutor(jobs)
    cards: dict[str, TierCard] = {}
    with bars.bar("measuring", "packets", len(folders), disable=not progress) as advance:
        for part in runner.map(_measure_packet, folders, label=lambda f: f.name):
            _add(cards.setdefault(part.tier, TierCard(part.tier)), part)
            advance(None)
    # (tier, page, whether it is of the tier's uniform sample) of every page read
    pages: list[tuple[str, Page, bool]] = []
    for tier in sorted(cards):
        sampled = _sampled(cards[tier], ocr_sample, seed)
        pages += [(tier, page, True) for page in sampled]
        if ocr_per_mode:
            extra = _topped_up(cards[tier], sampled, ocr_per_mode, seed)
            pages += [(tier, page, False) for page in extra]
    kinds: dict[tuple[str, str], TierCard] = {}
    by_mode: dict[tuple[str, str], TierCard] = {}
    with bars.bar("OCR", "pages", len(pages), disable=not progress or not pages) as advance:
        work = [(page, careful) for _, page, _ in pages]
        read = runner.map(_ocr_page, work, label=lambda job: job[0][0])
        for (tier, page, uniform), found in zip(pages, read, strict=True):
            rows = (cards[tier], kinds.setdefault((tier, page[4]), TierCard(tier)))
            for card in (
                *(rows if uniform else ()),
                by_mode.setdefault((tier, page[5]), TierCard(tier)),
            ):
                card.ocr_pages += 1
                card.ocr_located += len(page[3])
                card.ocr_recovered += found["naive"]
                card.restored_recovered += found["restored"]
                for name in careful:
                    card.careful[name] = card.careful.get(name, 0) + found[name]
            advance(None)
    levels = [
        {"tier": tier, "page_kind": kind, **_reading(kinds[tier, kind])}
        for tier, kind in sorted(kinds)
    ]
    tiers = [cards[tier].row() for tier in sorted(cards)]
    modes = [
        _mode_row(cards[tier], mode, by_mode.get((tier, mode))) for tier, mode in _modes(cards)
    ]
    return Card(
        tiers, ocr_sample, seed, list(careful) if pages else [], levels, modes, ocr_per_mode
    )


def _modes(cards: dict[str, TierCard]) -> list[tuple[str, str]]:
    """(tier, capture mode) of every mode a tier's PDF pages have, native first, then by
    name."""
    return [
        (tier, mode)
        for tier in sorted(cards)
        for mode in sorted(cards[tier].mode_pages, key=lambda m: (m != NATIVE, m))
    ]


def _mode_row(card: TierCard, mode: str, read: TierCard | None) -> dict[str, Any]:
    """One capture mode's row: its PDF pages and image pages, its share of the tier's image
    pages, its located values, and the readers' shares on its sampled pages (None: none
    sampled)."""
    images = card.mode_images.get(mode, 0)
    return {
        "tier": card.tier,
        "capture_mode": mode,
        "pdf_pages": card.mode_pages.get(mode, 0),
        "image_pages": images,
        "image_page_share_of_tier": (
            round(images / card.image_pages, 4) if card.image_pages else None
        ),
        "located_values": card.mode_located.get(mode, 0),
    } | (
        _reading(read)
        if read is not None
        else {"ocr_pages_read": 0, "ocr_located_values": 0} | dict.fromkeys(READING_SHARES)
    )


def _reading(card: TierCard) -> dict[str, Any]:
    """The OCR columns of a row: pages read, values located on them, each reader's share."""
    row = card.row()
    return {
        "ocr_pages_read": row["ocr_pages_read"],
        "ocr_located_values": row["ocr_located_values"],
    } | {key: row[key] for key in READING_SHARES}


COLUMNS: Sequence[tuple[str, str]] = (
    ("tier", "tier"),
    ("packets", "packets"),
    ("docs/pkt", "documents_per_packet"),
    ("pages/pkt", "pdf_pages_per_packet"),
    ("image pages", "image_page_share"),
    ("not in text", "not_in_text_layer_share"),
    ("declared", "declared_no_text_layer_share"),
    ("OCR recovers", "ocr_recovered_share"),
    ("restored OCR", "restored_ocr_recovered_share"),
    *(
        (
            f"{'PP-OCR' if name.startswith('ppocr') else 'careful'} {name.rsplit('_', 1)[1]}",
            f"{name}_recovered_share",
        )
        for name in CAREFUL
    ),
    ("OCR pages", "ocr_pages_read"),
    *((f"legible {dpi}", f"legible_at_{dpi}_share") for dpi in DELIVERED),
    ("conflicts/pkt", "conflicts_per_packet"),
    ("illegible/pkt", "illegible_values_per_packet"),
    ("patterns/doc", "pattern_uses_per_document"),
    ("largest table", "largest_table_rows"),
)
READING_SHARES = (
    "ocr_recovered_share",
    "restored_ocr_recovered_share",
    *(f"{name}_recovered_share" for name in CAREFUL),
)
SHARES = frozenset(
    {
        "image_page_share",
        "not_in_text_layer_share",
        "declared_no_text_layer_share",
        *READING_SHARES,
        *(f"legible_at_{dpi}_share" for dpi in DELIVERED),
        "image_page_share_of_tier",
    }
)
MODE_COLUMNS: Sequence[tuple[str, str]] = (
    ("tier", "tier"),
    ("capture mode", "capture_mode"),
    ("PDF pages", "pdf_pages"),
    ("image pages", "image_pages"),
    ("of images", "image_page_share_of_tier"),
    ("values", "located_values"),
    ("OCR pages", "ocr_pages_read"),
    ("OCR values", "ocr_located_values"),
    *((title, key) for title, key in COLUMNS if key in READING_SHARES),
)
LEVEL_COLUMNS: Sequence[tuple[str, str]] = (
    ("tier", "tier"),
    ("page kind", "page_kind"),
    ("pages", "ocr_pages_read"),
    ("values", "ocr_located_values"),
    *((title, key) for title, key in COLUMNS if key in READING_SHARES),
)


def reader_names(text: str) -> tuple[str, ...]:
    """The careful readers a --readers value names (names of CAREFUL, groups of
    READER_GROUPS, or "none"), in the card's order."""
    names: set[str] = set()
    for part in (p.strip() for p in text.split(",")):
        if part == "none" or not part:
            continue
        if part not in READER_GROUPS and part not in CAREFUL:
            raise UsageError(
                f"--readers: no reader {part!r} (the readers: {', '.join(CAREFUL)}; the groups: "
                f"{', '.join(READER_GROUPS)}; or none)"
            )
        names.update(READER_GROUPS.get(part, (part,)))
    return tuple(name for name in CAREFUL if name in names)


def _aligned(columns: Sequence[tuple[str, str]], records: list[dict[str, Any]]) -> list[str]:
    """Rows of `records` under `columns`, aligned (shares as percentages, '-' for a rate over
    nothing); a careful reader's column only when it was read."""

    def cell(key: str, value: Any) -> str:
        if value is None:
            return "-"
        if key in SHARES:
            return f"{value:.0%}"
        if isinstance(value, int):
            return f"{value:,}"
        return f"{value:g}" if isinstance(value, float) else str(value)

    careful = {f"{name}_recovered_share" for name in CAREFUL}
    shown = [
        (title, key)
        for title, key in columns
        if key not in careful or any(r.get(key) is not None for r in records)
    ]
    rows = [[title for title, _ in shown]]
    rows += [[cell(key, record[key]) for _, key in shown] for record in records]
    widths = [max(len(r[i]) for r in rows) for i in range(len(shown))]
    text_columns = {"tier", "page_kind", "capture_mode"}
    return [
        "  ".join(
            c.ljust(widths[i]) if shown[i][1] in text_columns else c.rjust(widths[i])
            for i, c in enumerate(r)
        ).rstrip()
        for r in rows
    ]


def render_table(card: Card) -> str:
    """The card as aligned text tables: one row per tier, then (when pages were read) one
    row per tier and page kind of the sampled pages."""
    lines = _aligned(COLUMNS, card.tiers)
    located = sum(t["ocr_located_values"] for t in card.tiers)
    pages = sum(t["ocr_pages_read"] for t in card.tiers)
    lines.append(
        f"naive OCR (Tesseract, whole page at {DPI} dpi, no restoration): {pages} page(s) read, "
        f"{located:,} located values, sample {card.ocr_sample} page(s) per tier, seed {card.seed}; "
        "restored OCR: the same pages read as `audit --ocr --ocr-mode full` reads them"
    )
    if card.readers:
        lines.append(
            "careful: Tesseract after the page is evened out, turned upright, deskewed, enlarged "
            "to 300 dpi and thresholded; PP-OCR: PP-OCRv4 (rapidocr-onnxruntime) on the page as "
            "it is; each at the dpi named (150: what `extract --input images` sends a model)"
        )
    if card.levels:
        lines += ["", "By page kind (the sampled pages):", *_aligned(LEVEL_COLUMNS, card.levels)]
    if card.modes:
        read_on = (
            f"the sampled pages and more, each mode on at least {card.ocr_per_mode} of its pages"
            if card.ocr_per_mode
            else "the sampled pages"
        )
        lines += [
            "",
            f"By capture mode (pages and values: all of the tier's; readers: {read_on}):",
            *_aligned(MODE_COLUMNS if pages or card.ocr_per_mode else MODE_COLUMNS[:6], card.modes),
        ]
    return "\n".join(lines)
