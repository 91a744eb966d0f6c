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
    # levels before it leave: about N2 17 %, N3 45 %, N4 69 %, N5 97 % of PDF documents
    # scanned, and image pages about the same share of PDF pages (scan.mixed scans only some
    # pages of a document; tests/generator/patterns/test_tiers.py holds the measured shares).
    # The native documents left carry the text-layer attacks below. From N4 the milder levels
    # give way to the ones a reader without restoration cannot read (a level may be rarer in a
    # harder tier from N4 on; the scan share never is), and at N5 to the one a careful reader
    # cannot either: of N5's PDF documents about nine in ten are phone photos from further
    # back (`far_photo`: the page half the frame, tilted, half upside down). A careful reader
    # undoes the other levels nearly whole, so each is kept at N5 only rarely: fed turned or
    # copied reduced about one document in eighty, crooked one in 125, every other level one
    # in a thousand (together about one document in twenty). Override any level
    # with --set patterns.scan.<level>=P.
    "scan.clean": (0.0, 0.1, 0.1, 0.08, 0.001),
    "scan.moderate": (0.0, 0.0, 0.2, 0.15, 0.001),
    "scan.fax": (0.0, 0.0, 0.1, 0.08, 0.001),
    "scan.skewed": (0.0, 0.0, 0.0, 0.1, 0.001),
    "scan.degraded": (0.0, 0.0, 0.0, 0.1, 0.001),
    "scan.photo": (0.0, 0.0, 0.0, 0.05, 0.001),
    "scan.mixed": (0.0, 0.08, 0.08, 0.06, 0.001),
    "scan.ocr_layer": (0.0, 0.0, 0.08, 0.06, 0.001),
    # Damage up to the edge of legibility, from N4; each level's OCR minimum is in
    # audit.result.OCR_RECALL_MIN. photocopy_3rd is opt-in (scan.OPT_IN).
    "scan.blurred": (0.0, 0.0, 0.0, 0.03, 0.001),
    "scan.motion_blur": (0.0, 0.0, 0.0, 0.02, 0.001),
    "scan.photocopy_2nd": (0.0, 0.0, 0.0, 0.02, 0.001),
    "scan.jpeg_blocks": (0.0, 0.0, 0.0, 0.03, 0.001),
    "scan.blurred_patch": (0.0, 0.0, 0.0, 0.02, 0.001),
    "scan.roller_bar": (0.0, 0.0, 0.0, 0.02, 0.001),
    "scan.crease": (0.0, 0.0, 0.0, 0.02, 0.001),
    "scan.coffee_ring": (0.0, 0.0, 0.0, 0.02, 0.001),
    "scan.punch_holes": (0.0, 0.0, 0.0, 0.02, 0.001),
    "scan.rotated": (0.0, 0.0, 0.0, 0.07, 0.012),
    "scan.reduced": (0.0, 0.0, 0.0, 0.07, 0.012),
    "scan.crooked": (0.0, 0.0, 0.0, 0.07, 0.008),
    # Damage against careful readers (Difficulty III): at N5 only.
    "scan.far_photo": (0.0, 0.0, 0.0, 0.0, 0.97),
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
    """Every registered pattern's probability in `tier`, in catalogue order (opt-in patterns
    aside: they are off, and recorded only when a --set names them)."""
    column = TIERS.index(tier)
    return {
        f"{PREFIX}{p.id}": PROBABILITIES.get(p.id, (0.0,) * 5)[column]
        for p in catalogue()
        if not p.opt_in
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
    opt_in = {p.id for p in catalogue() if p.opt_in}
    off = overrides.get(f"{PREFIX}off")
    if off:
        for pattern_id in matching(off):
            if pattern_id not in opt_in:  # an opt-in pattern is off already
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
            if pattern_id in chosen or pattern_id not in opt_in:
                probabilities[f"{PREFIX}{pattern_id}"] = 1.0 if pattern_id in chosen else 0.0
    for name, value in overrides.items():
        if name.startswith(PREFIX) and name not in (f"{PREFIX}off", f"{PREFIX}only"):
            probabilities[name] = float(value)
    return probabilities
