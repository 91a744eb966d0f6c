"""What an audit found: counts per document and reader, and every value it could not confirm.

The library returns an `AuditResult`; the command only formats it. `to_json` is the machine
form: plain types, keys in a fixed order, lists in document and file order, so the same packets
always give the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from packetbench.audit.pixels import PixelStats
    from packetbench.audit.sample import Bound, Sample

READERS = ("pdf", "xlsx", "csv", "ocr", "pixel")

# Finding problems, each a reason to exit 1.
MISSING = "missing"  # a located value reads back differently at its location
STRING_MISSING = "string_missing"  # a visible universe string is not in its page's text
VALUE_MISMATCH = "value_mismatch"  # a field's value is not what its rendered_as shows
UNTRACEABLE = "untraceable"  # a universe entry without a rendered location or page
LEAK = "leak"  # a universe value equals a hash, file name, seed, version or coordinate
HIDDEN_LEAK = "hidden_leak"  # hidden text reached the visible universe
NOT_CHECKED = "not_checked"  # values on pages that need OCR, audited without --ocr
INTEGRITY = "integrity"  # file hash or page count differs from the manifest, empty truth...
HANDWRITING = "handwriting"  # the OCR level of ink on a page that was not scanned
OCR_RECALL = "ocr_recall"  # OCR read too few of a scan level's located values
# A text-layer attack the manifest claims is not in the file: the text layer still yields a
# value it should not, hidden text is not in the text layer, a page reads in order.
ATTACK_ABSENT = "attack_absent"
HIDDEN_VISIBLE = "hidden_visible"  # OCR reads hidden text on the page image
# A box the generator judged illegible (docs/patterns.md rule 3b) that the audit's OCR reads: the
# generator claimed abstention where a reader can answer.
ILLEGIBLE_READABLE = "illegible_readable"
# Words a PDF page's text layer carries that no located value, universe string or hidden
# misreading accounts for: a truth leaf nulled while its value stays on the page, or text drawn
# without being declared (`unaccounted`).
UNACCOUNTED = "unaccounted"
# A location's recorded rung (`legible_from_dpi`) that the rule deciding it
# (`packetbench.reading.resolution`) does not give: a value claimed legible at a resolution its type
# is too small for, or the other way round.
RESOLUTION = "resolution"
PROBLEMS = (
    MISSING,
    STRING_MISSING,
    VALUE_MISMATCH,
    UNTRACEABLE,
    LEAK,
    HIDDEN_LEAK,
    NOT_CHECKED,
    INTEGRITY,
    OCR_RECALL,
    ATTACK_ABSENT,
    HIDDEN_VISIBLE,
    ILLEGIBLE_READABLE,
    UNACCOUNTED,
    RESOLUTION,
)
# What OCR must read of the located values on scanned pages, per scan level: a
# scan is judged by its recall, since no OCR engine reads every degraded value; a value it
# misses is listed (`ocr_misses`), and the level fails when too many are.
OCR_RECALL_MIN = {
    "clean": 0.98,
    "moderate": 0.95,
    "skewed": 0.95,
    # Each harsher level at 0.95: OCR reads nearly every located value of each of them, so the
    # minimum leaves room for a misread digit and no more (see
    # docs/measurements.md#ocr-recall-minimums-per-scan-level).
    "fax": 0.95,
    "degraded": 0.95,
    "photo": 0.95,
    "blurred": 0.95,
    "motion_blur": 0.95,
    "jpeg_blocks": 0.95,
    "photocopy_2nd": 0.95,
    "roller_bar": 0.95,
    "crease": 0.95,
    "coffee_ring": 0.95,
    "punch_holes": 0.95,
    "rotated": 0.95,
    "reduced": 0.95,
    "crooked": 0.95,
    # A blurred patch is out of focus by 0.6 points, little enough that OCR reads what it
    # covers as surely as the other harsh levels (see
    # docs/measurements.md#ocr-recall-minimums-per-scan-level).
    "blurred_patch": 0.95,
    # Below 0.95: a third-generation photocopy (opt-in, in no tier's preset) loses more to
    # toner than OCR recovers (see docs/measurements.md#ocr-recall-minimums-per-scan-level).
    "photocopy_3rd": 0.80,
    # Two pages on one sheet, each at about 60 %: the smallest type (a 4.5-point table cell)
    # is 2.7 points on the sheet, where OCR misreads a digit or a letter now and then.
    "two_up": 0.90,
    # Against careful readers: a draft-mode scan at 120 dpi and a phone photo at 160 dpi whose
    # tilt shrinks the page's far side to about 130 dpi. OCR misreads a small digit now and
    # then (a 5-point VIN), so they are held to the harsher levels' minimum, not the clean
    # scan's (see docs/measurements.md#ocr-recall-minimums-per-scan-level).
    "low_res": 0.95,
    "phone_photo": 0.95,
    "far_photo": 0.95,
    # A Group 3 fax: a form's 5.5-point labels at 98 lines an inch keep their shapes for a
    # person, while OCR misreads a character of one now and then, as on the other harsh levels.
    "fax_g3": 0.95,
    "native": 0.95,
    # Ink on a native page (hand.*): Tesseract's English model is trained on type, so a
    # person's print is read less surely than a clean scan of type; the hands are chosen so it
    # reads at least this share (see docs/measurements.md#ocr-recall-minimums-per-scan-level).
    HANDWRITING: 0.95,
}
# The level a native page whose text layer was attacked is judged at: its image is the
# renderer's own at 300 dpi, where Tesseract still misreads a small digit now and then.
NATIVE = "native"


@dataclass
class Tally:
    """Values checked and found by one reader; `by_page` counts OCR finds outside the box."""

    checked: int = 0
    found: int = 0
    by_page: int = 0

    @property
    def missing(self) -> int:
        return self.checked - self.found

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.checked + other.checked, self.found + other.found, self.by_page + other.by_page
        )

    def add(self, found: bool, by_page: bool = False) -> None:
        self.checked += 1
        self.found += found
        self.by_page += found and by_page

    def to_json(self) -> dict[str, int]:
        return {
            "checked": self.checked,
            "found": self.found,
            "missing": self.missing,
            "found_outside_box": self.by_page,
        }


@dataclass(frozen=True)
class Finding:
    """One thing the audit could not confirm, named by file and entry path."""

    problem: str
    doc_id: str
    file: str  # the truth file holding the entry (or the document file)
    path: str  # field path, "strings[12]", or "" for a whole-file problem
    reader: str = ""
    page: int | None = None
    where: str = ""  # "page 2 bbox [...]", "SOV!C6", "row 1, column 6"
    expected: str = ""
    got: str = ""
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "problem": self.problem,
            "doc_id": self.doc_id,
            "file": self.file,
            "path": self.path,
            "reader": self.reader,
            "page": self.page,
            "where": self.where,
            "expected": self.expected,
            "got": self.got,
            "detail": self.detail,
        }


@dataclass
class DocumentAudit:
    doc_id: str
    format: str
    file: str
    pages: int
    fields: dict[str, Tally] = field(default_factory=dict)  # reader -> located values
    strings: dict[str, Tally] = field(default_factory=dict)  # reader -> visible strings
    ocr_pages: list[int] = field(default_factory=list)  # pages whose text layer is unreliable
    not_checked: dict[str, int] = field(default_factory=lambda: {"fields": 0, "strings": 0})
    hidden: int = 0  # hidden strings confirmed absent from the visible universe
    # Illegible boxes (`legible: false`) the audit's OCR confirmed unreadable, and how many of
    # them are the only locations of an illegible value (`illegible: true`).
    illegible: dict[str, int] = field(default_factory=lambda: {"boxes": 0, "values": 0})
    # Text-layer attacks confirmed in the file (values the text layer does not yield, hidden
    # strings it holds, pages out of order), and hidden strings OCR confirmed absent from the
    # page image (or could not: no --ocr), or read only where it misread a shown value or no
    # more often than the page shows the same words in its own right; in pixel mode, hidden
    # strings on a scanned page that draws nothing but its image, which its native page
    # does not draw (`hidden_not_drawn`) or draws in its own right (`hidden_also_shown`).
    attacks: dict[str, int] = field(
        default_factory=lambda: {
            "unreadable": 0,
            "hidden_in_layer": 0,
            "out_of_order": 0,
            "hidden_not_seen": 0,
            "hidden_misread_by_ocr": 0,
            "hidden_also_shown": 0,
            "hidden_not_drawn": 0,
            "hidden_not_checked": 0,
        }
    )
    findings: list[Finding] = field(default_factory=list)
    # Scan level -> OCR of its pages' located values and strings; what OCR missed there.
    scans: dict[str, dict[str, Tally]] = field(default_factory=dict)
    ocr_misses: list[Finding] = field(default_factory=list)
    # What the pixel rule did (`audit --ocr` in pixel mode; None otherwise: not in the JSON).
    pixels: PixelStats | None = None
    # Entries a reader failed to confirm, and entries no reader checked (indices into fields
    # / strings): the leak audit tells a leak from a coincidence with them. Not in the JSON.
    unconfirmed_fields: set[int] = field(default_factory=set, repr=False)
    unconfirmed_strings: set[int] = field(default_factory=set, repr=False)
    unchecked_fields: set[int] = field(default_factory=set, repr=False)
    unchecked_strings: set[int] = field(default_factory=set, repr=False)

    def settle(self) -> None:
        """Drop the entries read and not confirmed or not checked, once the packet's leaks are
        told from coincidences with them."""
        for entries in (
            self.unconfirmed_fields,
            self.unconfirmed_strings,
            self.unchecked_fields,
            self.unchecked_strings,
        ):
            entries.clear()

    def tally(self, kind: str, reader: str) -> Tally:
        table = self.fields if kind == "fields" else self.strings
        return table.setdefault(reader, Tally())

    def to_json(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "format": self.format,
            "file": self.file,
            "pages": self.pages,
            "fields": {r: self.fields[r].to_json() for r in READERS if r in self.fields},
            "strings": {r: self.strings[r].to_json() for r in READERS if r in self.strings},
            "ocr_pages": self.ocr_pages,
            "not_checked": dict(self.not_checked),
            "hidden_confirmed": self.hidden,
            "illegible_confirmed": dict(self.illegible),
            "attacks": dict(self.attacks),
            "findings": [f.to_json() for f in self.findings],
            "scans": {
                level: {kind: tally.to_json() for kind, tally in kinds.items()}
                for level, kinds in sorted(self.scans.items())
            },
            "ocr_misses": [f.to_json() for f in self.ocr_misses],
            **({} if self.pixels is None else {"pixels": self.pixels.to_json()}),
        }

    def scan_tally(self, level: str, kind: str) -> Tally:
        return self.scans.setdefault(level, {}).setdefault(kind, Tally())


@dataclass(frozen=True)
class Coincidence:
    """A universe value equal to a forbidden one that the page really shows (not a leak)."""

    value: str
    forbidden_as: str
    sources: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "forbidden_as": self.forbidden_as,
            "sources": list(self.sources),
        }


@dataclass
class PacketAudit:
    packet_id: str
    path: str
    documents: list[DocumentAudit] = field(default_factory=list)
    universe: dict[str, int] = field(default_factory=dict)  # size of the packet universe
    skipped_keys: dict[str, int] = field(default_factory=dict)
    forbidden: int = 0  # forbidden values compared with the universe
    coincidences: list[Coincidence] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # leaks, untraceable, integrity
    ocr: bool = False  # read by OCR (an audit with --ocr reads all, or its --ocr-sample)

    def all_findings(self) -> Iterator[Finding]:
        for document in self.documents:
            yield from document.findings
        yield from self.findings

    @property
    def ok(self) -> bool:
        return next(self.all_findings(), None) is None

    def pixels(self) -> PixelStats | None:
        """The pixel rule's work pooled over the packet's documents (None: none judged)."""
        pooled = None
        for doc in self.documents:
            if doc.pixels is not None:
                pooled = doc.pixels if pooled is None else pooled + doc.pixels
        return pooled

    def calibration_problem(self) -> str:
        """Why the pixel rule's verdicts on this packet are not proven ("" when they are):
        it judged scanned pages but no box of its calibration sample was read by OCR, or
        its sample shows it disagreeing with OCR beyond the bound (`Agreement.refutes`)."""
        pixels = self.pixels()
        if pixels is None or not pixels.pages:
            return ""
        agreement = pixels.agreement
        if not agreement.boxes:
            return (
                f"the pixel rule judged {pixels.pages} scanned page(s) and none of its "
                "calibration boxes was read by OCR"
            )
        if agreement.refutes():
            return (
                f"the pixel rule and OCR disagree on {agreement.boxes - agreement.agreed} of "
                f"{agreement.boxes} calibration boxes"
            )
        return ""

    def to_json(self) -> dict[str, Any]:
        pixels = self.pixels()
        return {
            "packet_id": self.packet_id,
            "path": self.path,
            "ok": self.ok,
            "calibration": None
            if pixels is None
            else {
                "pages_judged": pixels.pages,
                "pages_sampled": pixels.pages_sampled,
                **{
                    k: v
                    for k, v in pixels.agreement.to_json().items()
                    if k in ("boxes", "agreed", "rate", "interval_95")
                },
                "problem": self.calibration_problem() or None,
            },
            "universe": {
                "size": dict(self.universe),
                "skipped_keys": dict(sorted(self.skipped_keys.items())),
                "forbidden_values": self.forbidden,
                "coincidences": [c.to_json() for c in self.coincidences],
            },
            "documents": [d.to_json() for d in self.documents],
            "findings": [f.to_json() for f in self.findings],
        }


PASSED = "passed"  # every value checked and found
FAILED = "failed"  # something is wrong: a finding other than not_checked
NOT_VERIFIED = "not_verified"  # nothing wrong found, but values only OCR can read unchecked


@dataclass
class AuditResult:
    packets: list[PacketAudit]
    ocr: bool
    # A sampled audit: the packets drawn, and per finding kind the corpus bound.
    sample: Sample | None = None
    bounds: list[Bound] = field(default_factory=list)
    # An audit that OCR-read a seeded sample of its packets: the sample, and per finding kind
    # the bound on its rate among the audited packets.
    ocr_sample: Sample | None = None
    ocr_bounds: list[Bound] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No finding at all: everything was checked and found."""
        return all(packet.ok for packet in self.packets)

    @property
    def status(self) -> str:
        """`PASSED`, `FAILED` (a finding of anything but not_checked: something is wrong) or
        `NOT_VERIFIED` (only not_checked findings: values on pages without a usable text
        layer, audited without --ocr; not wrong, just not proven). With an OCR sample, the
        values of the packets outside it that only OCR reads are not checked by design: the
        sample's bounds cover them."""
        problems = {
            finding.problem
            for packet in self.packets
            for finding in packet.all_findings()
            if not (finding.problem == NOT_CHECKED and self.ocr_sample and not packet.ocr)
        }
        pixels = self.pixels()
        uncalibrated = (pixels is not None and pixels.agreement.refutes()) or any(
            packet.calibration_problem() for packet in self.packets
        )
        if not problems:
            return NOT_VERIFIED if uncalibrated else PASSED
        return NOT_VERIFIED if problems == {NOT_CHECKED} else FAILED

    def pixels(self) -> PixelStats | None:
        """The pixel rule's work pooled over every document (None: no pixel-mode audit). Its
        calibration sample decides: when it shows the rule and OCR disagreeing on more than
        `pixels.MAX_DISAGREEMENT` of its boxes (`Agreement.refutes`: even the lower end of
        the disagreement's 95 % interval above it), pooled or in any one packet
        (`PacketAudit.calibration_problem`), nothing the rule verified is proven, and the
        audit is not verified."""
        pooled = None
        for packet in self.packets:
            found = packet.pixels()
            if found is not None:
                pooled = found if pooled is None else pooled + found
        return pooled

    def findings(self) -> Iterator[Finding]:
        for packet in self.packets:
            yield from packet.all_findings()

    def totals(self) -> dict[str, Any]:
        """Values checked and found over every document and reader; findings by problem."""
        out: dict[str, Any] = {
            "packets": len(self.packets),
            "documents": 0,
            "pdf_pages": 0,
            "fields_checked": 0,
            "fields_found": 0,
            "strings_checked": 0,
            "strings_found": 0,
            "fields_not_checked": 0,
            "strings_not_checked": 0,
            "illegible_values_confirmed": 0,
            "illegible_boxes_confirmed": 0,
        }
        for packet in self.packets:
            for doc in packet.documents:
                out["documents"] += 1
                out["pdf_pages"] += doc.pages if doc.format == "pdf" else 0
                out["fields_checked"] += sum(t.checked for t in doc.fields.values())
                out["fields_found"] += sum(t.found for t in doc.fields.values())
                out["strings_checked"] += sum(t.checked for t in doc.strings.values())
                out["strings_found"] += sum(t.found for t in doc.strings.values())
                out["fields_not_checked"] += doc.not_checked["fields"]
                out["strings_not_checked"] += doc.not_checked["strings"]
                out["illegible_values_confirmed"] += doc.illegible["values"]
                out["illegible_boxes_confirmed"] += doc.illegible["boxes"]
        out["scans"] = {
            level: {kind: tally.to_json() for kind, tally in kinds.items()}
            for level, kinds in sorted(
                scan_recall(d for p in self.packets for d in p.documents).items()
            )
        }
        findings = dict.fromkeys(PROBLEMS, 0)
        for finding in self.findings():
            findings[finding.problem] += 1
        out["findings"] = findings
        pixels = self.pixels()
        if pixels is not None:
            out["pixels"] = pixels.to_json()
        return out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok, "status": self.status, "ocr": self.ocr}
        if self.sample is not None:  # a full audit's JSON has no sample or bounds
            out["sample"] = self.sample.to_json()
            out["bounds"] = [b.to_json() for b in self.bounds]
        if self.ocr_sample is not None:
            out["ocr_sample"] = {
                **self.ocr_sample.to_json(),
                "packets": sorted(packet.packet_id for packet in self.packets if packet.ocr),
            }
            out["ocr_bounds"] = [b.to_json() for b in self.ocr_bounds]
        return {**out, "totals": self.totals(), "packets": [p.to_json() for p in self.packets]}


def scan_recall(documents: Iterable[DocumentAudit]) -> dict[str, dict[str, Tally]]:
    """OCR of scanned pages per scan level, pooled over `documents`."""
    pooled: dict[str, dict[str, Tally]] = {}
    for document in documents:
        for level, kinds in document.scans.items():
            for kind, tally in kinds.items():
                into = pooled.setdefault(level, {})
                into[kind] = into.get(kind, Tally()) + tally
    return pooled


def recall_upper(found: int, checked: int, z: float = 1.96) -> float:
    """The upper end of the Wilson score interval (95 %) for a recall of found/checked."""
    share = found / checked
    centre = share + z * z / (2 * checked)
    spread = z * math.sqrt(share * (1 - share) / checked + z * z / (4 * checked * checked))
    return min(1.0, (centre + spread) / (1 + z * z / checked))


def recall_findings(packet: PacketAudit) -> list[Finding]:
    """A finding per scan level whose OCR recall of located values is below its minimum.

    A packet's scanned pages are a sample: one page of 58 values with three accents OCR
    cannot read is not an illegible scan. A level fails when even the upper end of its 95 %
    interval is below the minimum, so a small sample fails only when it is far below and a
    large one soon after it is below (10,000 values: 0.4 points below).
    """
    out = []
    for level, kinds in sorted(scan_recall(packet.documents).items()):
        tally = kinds.get("fields")
        if tally is None or not tally.checked:
            continue
        least = OCR_RECALL_MIN.get(level, max(OCR_RECALL_MIN.values()))
        upper = recall_upper(tally.found, tally.checked)
        if upper < least:
            out.append(
                Finding(
                    OCR_RECALL,
                    "",
                    "",
                    level,
                    "ocr",
                    detail=(
                        f"scan level {level}: OCR read {tally.found} of {tally.checked} located "
                        f"values ({tally.found / tally.checked:.1%}, at most {upper:.1%} at 95 % "
                        f"confidence), below {least:.0%}"
                    ),
                )
            )
    return out
