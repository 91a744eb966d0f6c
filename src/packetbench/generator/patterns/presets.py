"""Tier presets as pattern probabilities, and the ``--set patterns.*`` overrides.

A probability is the chance that a document the pattern fits (its formats, document types and
applicability) carries it; for a packet.* pattern, the chance that a packet carries it. The
presets follow docs/patterns.md and the per-tier frequencies of the reference corpus (the share of
its documents whose manifests list each pattern): N1 varies how values are written and draws a
few plain table styles on native pages; N2 adds watermarks, header styles, special characters
and truncation; N3 adds the rest but packet.*, which N4 and N5 add, more often as the tier
rises. Every resolved probability is a knob (``patterns.<id>``) in every manifest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from packetbench.core.codes import TIERS
from packetbench.core.errors import UsageError
from packetbench.generator.patterns.base import PATTERNS, catalogue, matching

PREFIX = "patterns."

# id -> probability per tier N1..N5. A pattern missing here is off in every tier.
PROBABILITIES: dict[str, tuple[float, float, float, float, float]] = {
    # table: layout of PDF tables
    "table.borderless": (0.12, 0.12, 0.15, 0.15, 0.15),
    "table.shading": (0.12, 0.12, 0.15, 0.15, 0.15),
    "table.column_synonyms": (0.12, 0.15, 0.2, 0.25, 0.3),
    "table.multiline_wrap": (0.08, 0.12, 0.15, 0.15, 0.2),
    "table.merged_header": (0.0, 0.12, 0.15, 0.18, 0.2),
    "table.continuation_header": (0.0, 0.15, 0.25, 0.3, 0.35),
    "table.subtotals": (0.0, 0.12, 0.15, 0.2, 0.25),
    "table.stacked_header": (0.0, 0.2, 0.25, 0.25, 0.25),
    "table.floating_header": (0.0, 0.3, 0.3, 0.35, 0.35),
    "table.interrupted": (0.0, 0.15, 0.25, 0.3, 0.35),
    "table.claim_blocks": (0.0, 0.08, 0.1, 0.12, 0.15),
    "table.row_split": (0.0, 0.05, 0.15, 0.2, 0.25),
    "table.nested": (0.0, 0.0, 0.15, 0.2, 0.3),
    "table.single_row_total": (0.0, 0.0, 0.1, 0.15, 0.2),
    "table.variable_widths": (0.0, 0.0, 0.15, 0.2, 0.2),
    "table.vertical_records": (0.0, 0.0, 0.08, 0.1, 0.15),
    "table.rotated_header": (0.0, 0.0, 0.06, 0.1, 0.15),
    "table.combined_sources": (0.0, 0.0, 0.35, 0.4, 0.5),
    "table.mainframe": (0.0, 0.0, 0.06, 0.08, 0.12),
    "table.dual": (0.0, 0.0, 0.0, 0.08, 0.15),
    # data: how values are written
    "data.date_formats": (0.6, 0.9, 1.0, 1.0, 1.0),
    "data.currency_formats": (0.5, 0.8, 0.8, 0.85, 0.9),
    "data.terminology": (0.5, 0.9, 1.0, 1.0, 1.0),
    "data.special_chars": (0.0, 0.8, 0.9, 1.0, 1.0),
    "data.truncation": (0.0, 0.3, 0.6, 0.7, 0.8),
    "data.footnote_markers": (0.0, 0.05, 0.15, 0.2, 0.25),
    "data.rtl_names": (0.0, 0.0, 0.15, 0.2, 0.25),
    "data.ligatures": (0.0, 0.0, 0.15, 0.2, 0.25),
    "data.thousands": (0.0, 0.0, 0.15, 0.2, 0.3),
    "data.percent_as_fraction": (0.0, 0.0, 0.15, 0.2, 0.3),
    # overlay: drawn over or around the content
    "overlay.untagged_header_footer": (0.5, 0.7, 0.75, 0.8, 0.8),
    "overlay.watermark": (0.0, 0.6, 0.7, 0.75, 0.8),
    "overlay.highlight": (0.0, 0.05, 0.15, 0.2, 0.25),
    "overlay.logo": (0.0, 0.0, 0.5, 0.55, 0.6),
    "overlay.status_icons": (0.0, 0.0, 0.25, 0.3, 0.35),
    "overlay.void_stamp": (0.0, 0.0, 0.06, 0.1, 0.15),
    "overlay.redaction": (0.0, 0.0, 0.08, 0.12, 0.2),
    # Damage past reading (docs/patterns.md rule 3b): kept only on scanned documents, 1-3 values
    # each, so about 0.2 x 2 values per scanned document at N4 and 0.6 x 2 at N5.
    "overlay.blot": (0.0, 0.0, 0.0, 0.2, 0.6),
    # scan.*: the tier's scan share. Scans claim a document before anything else (engine.select)
    # and exclude each other (one scan per document; the earlier level in the catalogue wins),
    # so the share of PDF documents a level scans is its probability times the share the
    # levels before it leave: about N2 17 %, N3 45 %, N4 70 %, N5 97 % of PDF documents
    # scanned, and image pages about the same share of PDF pages (scan.mixed scans only some
    # pages of a document; tests/generator/patterns/test_tiers.py holds the measured shares).
    # The native documents left carry the text-layer attacks below. From N4 the milder levels
    # give way to the ones a reader without restoration cannot read (a level may be rarer in a
    # harder tier from N4 on; the scan share never is). Each level belongs to a capture mode
    # (`render.scan_levels.Level.mode`). N5 is a mix of the eight modes in which none holds more
    # than about a quarter of its image pages: phone photos from further back 19 % of its PDF
    # documents (far_photo), phone photos near 23.5 % (phone_photo, three in five taken sideways
    # or upside down), photocopies 15.5 % (reduced 9.5, photocopy_2nd 6), pages fed turned or
    # crooked 10 % (rotated 7.5, crooked 2.5: PP-OCR reads a page fed sideways at 150 dpi
    # far worse than one fed crooked), distorted paper 9 % (crease 6.5, coffee_ring 2.5),
    # fax 8 % (fax_g3), low-resolution scans 6.5 % (low_res) and office scans about 3 %; the
    # probabilities below are those shares over what the levels before leave. A packet scans
    # whole documents, so a mode's share of pages also follows the length of the documents it
    # draws: a mode near 25 % of the documents can reach 30 % of five packets' pages.
    # N4 draws the same modes, milder: far_photo, phone_photo, low_res and fax_g3 on about one
    # native document in twenty. `benchmarks/capture_modes.py`
    # counts the mix from packets' manifests.
    # Override any level with --set patterns.scan.<level>=P.
    "scan.clean": (0.0, 0.1, 0.1, 0.04, 0.001),
    "scan.moderate": (0.0, 0.0, 0.2, 0.1, 0.001),
    "scan.fax": (0.0, 0.0, 0.1, 0.08, 0.001),
    "scan.skewed": (0.0, 0.0, 0.0, 0.1, 0.001),
    "scan.degraded": (0.0, 0.0, 0.0, 0.1, 0.001),
    "scan.photo": (0.0, 0.0, 0.0, 0.05, 0.002),
    "scan.mixed": (0.0, 0.08, 0.08, 0.06, 0.001),
    "scan.ocr_layer": (0.0, 0.0, 0.08, 0.06, 0.01),
    # Damage up to the edge of legibility, from N4; each level's OCR minimum is in
    # audit.result.OCR_RECALL_MIN. photocopy_3rd and two_up are in no tier's draw (scan.OPT_IN).
    "scan.blurred": (0.0, 0.0, 0.0, 0.03, 0.005),
    "scan.motion_blur": (0.0, 0.0, 0.0, 0.02, 0.005),
    "scan.photocopy_2nd": (0.0, 0.0, 0.0, 0.02, 0.062),
    "scan.jpeg_blocks": (0.0, 0.0, 0.0, 0.03, 0.002),
    "scan.blurred_patch": (0.0, 0.0, 0.0, 0.02, 0.002),
    "scan.roller_bar": (0.0, 0.0, 0.0, 0.02, 0.002),
    "scan.crease": (0.0, 0.0, 0.0, 0.02, 0.072),
    "scan.coffee_ring": (0.0, 0.0, 0.0, 0.02, 0.03),
    "scan.punch_holes": (0.0, 0.0, 0.0, 0.02, 0.002),
    "scan.rotated": (0.0, 0.0, 0.0, 0.07, 0.092),
    "scan.reduced": (0.0, 0.0, 0.0, 0.07, 0.128),
    "scan.crooked": (0.0, 0.0, 0.0, 0.07, 0.039),
    # Damage against careful readers (Difficulty III), from N4 (opt-in below: scan.OPT_IN).
    "scan.low_res": (0.0, 0.0, 0.0, 0.05, 0.105),
    "scan.phone_photo": (0.0, 0.0, 0.0, 0.05, 0.424),
    "scan.far_photo": (0.0, 0.0, 0.0, 0.06, 0.595),
    # A Group 3 fax at standard resolution (fine for small type), from N4; last in the catalogue,
    # so its probability is of what every other level leaves: about 8 % of N5's PDF documents.
    "scan.fax_g3": (0.0, 0.0, 0.0, 0.05, 0.657),
    # textlayer: one text attack per document (they exclude each other and every scan), so
    # they fall on the native documents the scans left: about 45 % of them at N3, 60 % at N4
    # and 75 % at N5 (of all PDF documents about 25 %, 18 % and 9 %); the rule attacks
    # combine with any of them.
    "textlayer.invisible_ocr": (0.0, 0.0, 0.065, 0.1, 0.18),
    "textlayer.reading_order": (0.0, 0.0, 0.065, 0.1, 0.18),
    "textlayer.kerning": (0.0, 0.0, 0.065, 0.1, 0.18),
    "textlayer.cmap_scramble": (0.0, 0.0, 0.05, 0.085, 0.14),
    "textlayer.cmap_gaps": (0.0, 0.0, 0.065, 0.1, 0.22),
    "textlayer.clipped": (0.0, 0.0, 0.05, 0.085, 0.14),
    "textlayer.hidden_layer": (0.0, 0.0, 0.05, 0.085, 0.14),
    "textlayer.white_text": (0.0, 0.0, 0.05, 0.085, 0.14),
    "textlayer.outlined": (0.0, 0.0, 0.05, 0.085, 0.2),
    "textlayer.microtext": (0.0, 0.0, 0.04, 0.07, 0.1),
    "textlayer.fragmented_rules": (0.0, 0.0, 0.1, 0.12, 0.15),
    "textlayer.bezier_rules": (0.0, 0.0, 0.04, 0.06, 0.08),
    # sheet: workbooks (from N3)
    "sheet.header_offset": (0.0, 0.0, 0.35, 0.4, 0.5),
    "sheet.merged_cells": (0.0, 0.0, 0.3, 0.35, 0.4),
    "sheet.formulas": (0.0, 0.0, 0.4, 0.5, 0.6),
    "sheet.numbers_as_text": (0.0, 0.0, 0.2, 0.3, 0.4),
    "sheet.date_serials": (0.0, 0.0, 0.15, 0.25, 0.35),
    "sheet.thousands": (0.0, 0.0, 0.1, 0.15, 0.25),
    "sheet.notes_column": (0.0, 0.0, 0.2, 0.25, 0.3),
    "sheet.subtotal_rows": (0.0, 0.0, 0.15, 0.2, 0.3),
    "sheet.split_sheets": (0.0, 0.0, 0.1, 0.15, 0.25),
    "sheet.color_status": (0.0, 0.0, 0.1, 0.15, 0.25),
    "sheet.hidden_columns": (0.0, 0.0, 0.1, 0.2, 0.3),
    "sheet.hidden_rows": (0.0, 0.0, 0.08, 0.15, 0.25),
    "sheet.hidden_sheet": (0.0, 0.0, 0.1, 0.2, 0.3),
    # csv: exports (from N3); one delimiter at most (declared incompatible)
    "csv.semicolon": (0.0, 0.0, 0.12, 0.15, 0.2),
    "csv.tab": (0.0, 0.0, 0.08, 0.1, 0.15),
    "csv.pipe": (0.0, 0.0, 0.05, 0.08, 0.15),
    "csv.bom": (0.0, 0.0, 0.2, 0.25, 0.3),
    "csv.cp1252": (0.0, 0.0, 0.15, 0.2, 0.25),
    "csv.header_preamble": (0.0, 0.0, 0.25, 0.3, 0.4),
    "csv.trailer_rows": (0.0, 0.0, 0.2, 0.25, 0.3),
    "csv.quoted_newlines": (0.0, 0.0, 0.15, 0.2, 0.3),
    "csv.european_numbers": (0.0, 0.0, 0.1, 0.15, 0.2),
    # packet: across documents (N4-N5; per packet, not per document). A packet that carries a
    # name, address or policy-number variant writes it on the share of its documents the
    # tier's variants.percent knob says (N4 50 %, N5 80 %), so at N5 most documents disagree
    # with some other on how the insured is named, where it is, or its policy numbers.
    "packet.superseded": (0.0, 0.0, 0.0, 0.25, 0.6),
    "packet.duplicate_document": (0.0, 0.0, 0.0, 0.1, 0.35),
    "packet.name_variants": (0.0, 0.0, 0.0, 0.6, 0.9),
    "packet.address_variants": (0.0, 0.0, 0.0, 0.5, 0.85),
    "packet.policy_number_formats": (0.0, 0.0, 0.0, 0.5, 0.8),
    "packet.conflicting_values": (0.0, 0.0, 0.0, 0.1, 0.3),
    "packet.phantom_reference": (0.0, 0.0, 0.0, 0.1, 0.4),
    # hand: ink on the paper, from N3 (docs/patterns.md); signatures and stamps are common on
    # real submissions, hand-filled and corrected forms rarer.
    "hand.signature": (0.0, 0.0, 0.35, 0.4, 0.45),
    # A form signed by someone else and dated by hand on another day (a cross-document
    # conflict, N4-N5): declared before hand.signature, it wins a form both draw.
    "hand.signature_conflict": (0.0, 0.0, 0.0, 0.25, 0.4),
    "hand.date_stamp": (0.0, 0.0, 0.12, 0.15, 0.2),
    "hand.margin_note": (0.0, 0.0, 0.1, 0.12, 0.15),
    "hand.filled_fields": (0.0, 0.0, 0.1, 0.12, 0.15),
    "hand.correction": (0.0, 0.0, 0.06, 0.08, 0.12),
}


def preset(tier: str) -> dict[str, float]:
    """Every registered pattern's probability in `tier`, in catalogue order (an opt-in pattern
    only in a tier that draws it: elsewhere it is off, and recorded only when a --set names
    it, so a tier's knobs stay as they were when a harder tier starts drawing it)."""
    column = TIERS.index(tier)
    return {
        f"{PREFIX}{p.id}": PROBABILITIES.get(p.id, (0.0,) * 5)[column]
        for p in catalogue()
        if not p.opt_in or PROBABILITIES.get(p.id, (0.0,) * 5)[column] > 0.0
    }


def _probability(name: str, raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise UsageError(f"--set {name}={raw}: expected a probability between 0 and 1") from None
    if not 0.0 <= value <= 1.0:
        raise UsageError(f"--set {name}={raw}: a probability must be between 0 and 1")
    return value


def parse(name: str, raw: str) -> tuple[str, Any]:
    """One ``patterns.*`` assignment: (knob name, parsed value)."""
    key = name[len(PREFIX) :]
    if key in ("off", "only"):
        globs = tuple(part.strip() for part in raw.split(",") if part.strip())
        if not globs:
            raise UsageError(f"--set {name}: names no pattern")
        for glob in globs:
            if not matching([glob]):
                raise UsageError(
                    f"--set {name}: {glob!r} matches no pattern (see `packetbench patterns`)"
                )
        return name, globs
    if not matching([key]) or any(ch in key for ch in "*?["):
        raise UsageError(f"--set {name}: unknown pattern {key!r} (see `packetbench patterns`)")
    return name, _probability(name, raw)


def resolve(tier: str, overrides: Mapping[str, Any]) -> dict[str, float]:
    """The pattern probabilities of `tier` after `overrides` (off, then only, then ids)."""
    probabilities = preset(tier)
    off = overrides.get(f"{PREFIX}off")
    if off:
        for pattern_id in matching(off):
            if f"{PREFIX}{pattern_id}" in probabilities:  # an unlisted (opt-in) one is off
                probabilities[f"{PREFIX}{pattern_id}"] = 0.0
    only = overrides.get(f"{PREFIX}only")
    if only:
        chosen = matching(only)
        for first_index, first in enumerate(chosen):
            for second in chosen[first_index + 1 :]:
                if PATTERNS[first].conflicts(PATTERNS[second]):
                    raise UsageError(
                        f"--set patterns.only: {first} and {second} cannot be applied together"
                    )
        for pattern_id in PATTERNS:
            if pattern_id in chosen or f"{PREFIX}{pattern_id}" in probabilities:
                probabilities[f"{PREFIX}{pattern_id}"] = 1.0 if pattern_id in chosen else 0.0
    for name, value in overrides.items():
        if name.startswith(PREFIX) and name not in (f"{PREFIX}off", f"{PREFIX}only"):
            probabilities[name] = float(value)
    return probabilities
