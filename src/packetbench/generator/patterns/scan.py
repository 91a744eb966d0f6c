"""scan.* — pages that reach the underwriter as images (scan phase).

A scan pattern asks, after layout, that pages be emitted as their scanned images
(`Presentation.scans`; the raster pipeline is generator.render.scan). The truth does not change:
a scanned value is still what a careful reader sees (PATTERNS.md rule 2), located on the
scanned page (its box moved with the page, `quad` its exact corners) and marked
`text_layer: false`, so the audit reads it by OCR of the page image.

One scan per document: the levels exclude each other. A scan cannot be combined with what only
a text layer carries (a redaction's covered text), or with what Tesseract's English model cannot
read back (Hebrew and Arabic names, status icons drawn as dingbats).
"""

from __future__ import annotations

from collections.abc import Callable

from packetbench.generator.patterns.base import Pattern, Staging, register
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder

# What a scanned page cannot carry (see the module docstring).
UNSCANNABLE = ("overlay.redaction", "data.rtl_names", "overlay.status_icons")


def _scan(level: str, mixed: bool = False) -> Callable[[Staging], bool]:
    def apply(staging: Staging) -> bool:
        rng = staging.rng
        look = staging.presentation
        chosen = rng.choice(("clean", "moderate")) if mixed else level
        staging.applied.details["level"] = chosen

        def scan(pdf: PdfDocument) -> None:
            count = len(pdf.pages)
            if mixed:
                if count < 2:
                    return  # nothing to mix: the document stays native
                share = rng.sample(range(count), rng.randint(1, count - 1))
                pages = sorted(share)
            else:
                pages = list(range(count))
            for index in pages:
                look.scans[index] = (chosen, rng.getrandbits(63))
                staging.applied.pages.add(index + 1)
            on_pages = {index + 1 for index in pages}
            for path, drawn in pdf.recorder.drawn.items():
                if any(loc.get("page") in on_pages for loc in drawn.locations):
                    staging.applied.targets.append(path)

        def scanned(recorder: Recorder) -> bool:
            """Kept only when pages were really scanned (a one-page document cannot be
            mixed); the manifest then says how each page was moved."""
            done = recorder.presentation.scanned
            staging.applied.details["pages"] = {str(page): done[page] for page in sorted(done)}
            return bool(done)

        staging.after_layout(scan)
        staging.confirm(scanned)
        return True

    return apply


_LEVELS = {
    "clean": ("Clean scan", "A flatbed scan at 200 dpi: straight, sharp, light noise.", None),
    "moderate": (
        "Moderate scan",
        "Rotated up to 1.5 degrees, blurred, noisy, dark edges, dust.",
        "p34_scan_noise",
    ),
    "fax": (
        "Fax",
        "Black and white at fax resolution, noise thresholded into the strokes, "
        "streaks along the paper path.",
        None,
    ),
    "skewed": (
        "Skewed scan",
        "Rotated 2 to 4 degrees and shrunk, a shadow along one side.",
        "p43_scan_skewed",
    ),
    "degraded": (
        "Degraded scan",
        "150 dpi, rotated, blurred, noisy, JPEG quality 25; still legible to a person.",
        "p53_heavy_degradation",
    ),
    "photo": ("Phone photo", "Perspective (each corner pulled in), rotation, uneven light.", None),
}

for _name, (_title, _description, _reference) in _LEVELS.items():
    register(
        Pattern(
            f"scan.{_name}",
            _title,
            "scan",
            "none",
            _description,
            _scan(_name),
            reference=_reference,
            incompatible=("scan.*", *UNSCANNABLE),
        )
    )

register(
    Pattern(
        "scan.mixed",
        "Mixed native and scanned pages",
        "scan",
        "none",
        "Some pages of the document scanned (clean or moderate), the "
        "others native: one file, two ways of reading it.",
        _scan("", mixed=True),
        incompatible=("scan.*", *UNSCANNABLE),
    )
)
