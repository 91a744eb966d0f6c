"""The pattern registry, tier presets, overrides and selection."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from typing import Any

import pytest

from packetbench.core.errors import UsageError
from packetbench.core.registry import Registry, UnknownName
from packetbench.generator.packet import build_packet
from packetbench.generator.patterns import base, engine, presets
from packetbench.generator.patterns.base import (
    FAMILIES,
    PATTERNS,
    Applied,
    Pattern,
    Staging,
    Subject,
    catalogue,
)
from packetbench.generator.patterns.scan import OPT_IN
from packetbench.generator.tiers import parse_overrides, resolve
from tests.support.paths import TIERS

# The first catalogue of 91 ids (docs/patterns.md), written out here as the oracle: every table.*,
# data.*, overlay.*, scan.*, textlayer.* and hand.* id, the sheet.* and csv.* ids built so far, and
# the packet.* ids.
CATALOGUE_IDS = {
    "table.borderless",
    "table.merged_header",
    "table.continuation_header",
    "table.subtotals",
    "table.nested",
    "table.multiline_wrap",
    "table.row_split",
    "table.dual",
    "table.single_row_total",
    "table.variable_widths",
    "table.vertical_records",
    "table.floating_header",
    "table.interrupted",
    "table.stacked_header",
    "table.rotated_header",
    "table.shading",
    "table.column_synonyms",
    "table.combined_sources",
    "table.mainframe",
    "table.claim_blocks",
    "data.date_formats",
    "data.currency_formats",
    "data.terminology",
    "data.special_chars",
    "data.rtl_names",
    "data.ligatures",
    "data.truncation",
    "data.footnote_markers",
    "data.thousands",
    "data.percent_as_fraction",
    "overlay.watermark",
    "overlay.void_stamp",
    "overlay.status_icons",
    "overlay.logo",
    "overlay.untagged_header_footer",
    "overlay.redaction",
    "overlay.highlight",
    "scan.clean",
    "scan.moderate",
    "scan.fax",
    "scan.skewed",
    "scan.degraded",
    "scan.photo",
    "scan.mixed",
    "scan.ocr_layer",
    "sheet.hidden_sheet",
    "sheet.hidden_rows",
    "sheet.hidden_columns",
    "sheet.merged_cells",
    "sheet.numbers_as_text",
    "sheet.date_serials",
    "sheet.formulas",
    "sheet.header_offset",
    "sheet.thousands",
    "sheet.notes_column",
    "sheet.color_status",
    "sheet.subtotal_rows",
    "sheet.split_sheets",
    "csv.semicolon",
    "csv.tab",
    "csv.pipe",
    "csv.cp1252",
    "csv.bom",
    "csv.quoted_newlines",
    "csv.trailer_rows",
    "csv.european_numbers",
    "csv.header_preamble",
    "packet.superseded",
    "packet.name_variants",
    "packet.address_variants",
    "packet.policy_number_formats",
    "packet.duplicate_document",
    "packet.conflicting_values",
    "packet.phantom_reference",
    "textlayer.invisible_ocr",
    "textlayer.reading_order",
    "textlayer.kerning",
    "textlayer.cmap_scramble",
    "textlayer.cmap_gaps",
    "textlayer.clipped",
    "textlayer.hidden_layer",
    "textlayer.white_text",
    "textlayer.outlined",
    "textlayer.fragmented_rules",
    "textlayer.bezier_rules",
    "textlayer.microtext",
    "hand.signature",
    "hand.date_stamp",
    "hand.margin_note",
    "hand.filled_fields",
    "hand.correction",
}


# Damage past reading (docs/patterns.md rule 3b) and a contradicting signature and handwritten
# date (a cross-document conflict): ids added after the first catalogue of 91.
LATER_IDS = {"overlay.blot", "hand.signature_conflict"}


# The harsher scan levels (after the first catalogue's own), added with them: drawn at
# N4-N5 (OPT_IN, in no tier's draw or knobs until a --set names them, is empty today).
OPT_IN_IDS = {f"scan.{level}" for level in OPT_IN}
HARSH_SCAN_IDS = {
    f"scan.{level}"
    for level in (
        "blurred",
        "motion_blur",
        "jpeg_blocks",
        "photocopy_2nd",
        "photocopy_3rd",
        "blurred_patch",
        "roller_bar",
        "crease",
        "coffee_ring",
        "punch_holes",
        "rotated",
        "reduced",
        "crooked",
        "two_up",
        "low_res",
        "phone_photo",
        "far_photo",
        "fax_g3",
    )
}


def test_the_catalogue_holds_every_id_of_patterns_md() -> None:
    ids = {p.id for p in catalogue()}
    assert ids == CATALOGUE_IDS | HARSH_SCAN_IDS | LATER_IDS and len(CATALOGUE_IDS) == 91
    assert {p.id for p in catalogue() if p.opt_in} == OPT_IN_IDS
    for pattern in catalogue():
        assert pattern.family == pattern.id.split(".")[0]
        assert pattern.truth in ("none", "shown", "value", "hidden", "illegible")
        assert pattern.description and pattern.name
        assert pattern.reference is None or pattern.reference.startswith(("p", "scan_"))
        for other in pattern.incompatible:
            assert base.matching([other]), (pattern.id, other)


def test_each_family_declares_its_patterns_in_its_own_module_or_package() -> None:
    assert [p.family for p in catalogue()] == sorted(
        (p.family for p in catalogue()), key=FAMILIES.index
    )
    for pattern in catalogue():
        # A family is a module, or a package of modules (one a pattern or a pair).
        family = f"packetbench.generator.patterns.{pattern.family}"
        module = pattern.apply.__module__
        assert module == family or module.startswith(f"{family}."), (pattern.id, module)
    # Within a family, declaration order is catalogue order (it decides every packet's bytes).
    # The harsher levels come after the others: a document the older levels scan keeps its
    # level.
    scans = [p for p in catalogue() if p.family == "scan"]
    assert {p.id for p in scans[-len(HARSH_SCAN_IDS) :]} == HARSH_SCAN_IDS
    assert scans.index(PATTERNS["scan.ocr_layer"]) == len(scans) - len(HARSH_SCAN_IDS) - 1


def test_the_first_lookup_imports_every_family_module() -> None:
    code = (
        "from packetbench.generator.patterns.base import PATTERNS; "
        "print(len(PATTERNS), PATTERNS['scan.ocr_layer'].name)"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split(maxsplit=1)
    assert found == [
        str(len(CATALOGUE_IDS | HARSH_SCAN_IDS | LATER_IDS)),
        "Scan with an OCR layer\n",
    ]


def test_a_pattern_id_is_family_dot_name() -> None:
    for bad in ("tables.borderless", "table", "table."):
        with pytest.raises(ValueError, match=r"is not family\.name"):
            base.pattern(bad, "bad", phase="layout", truth="none", description="bad")
    with pytest.raises(UnknownName, match=r"unknown pattern 'table\.nope'; known: csv\.bom"):
        PATTERNS["table.nope"]


def _scanned(tier: int, levels: set[str]) -> float:
    """The share of documents one of `levels` would scan at tier index `tier`, alone."""
    left = 1.0
    for level in levels:
        left *= 1.0 - presets.PROBABILITIES[level][tier]
    return 1.0 - left


def test_presets_grow_with_the_tier() -> None:
    scans = {p.id for p in catalogue() if p.family == "scan" and not p.opt_in}
    for pattern in catalogue():
        if pattern.opt_in:
            assert pattern.id not in presets.PROBABILITIES
            continue
        row = presets.PROBABILITIES[pattern.id]
        assert all(0.0 <= p <= 1.0 for p in row)
        if pattern.id in scans:  # from N4 the milder levels give way to the harsher
            assert list(row[:3]) == sorted(row[:3]), pattern.id
            continue
        assert list(row) == sorted(row), pattern.id  # never rarer in a harder tier
    # From N4 the milder scans give way to the harsher, but the scan share never falls and
    # the harsher levels' share rises with the tier.
    mild = {"scan.clean", "scan.moderate"}
    for levels in (scans, scans - mild, HARSH_SCAN_IDS - OPT_IN_IDS):
        shares = [_scanned(t, levels) for t in range(len(TIERS))]
        assert shares == sorted(shares) and shares[4] > shares[3], (levels, shares)
    assert _scanned(4, mild) < _scanned(3, mild)
    on = {tier: {k for k, p in presets.preset(tier).items() if p > 0} for tier in TIERS}
    assert len(on["N1"]) <= 8
    assert all(on[a] <= on[b] for a, b in itertools.pairwise(TIERS))
    assert len(on["N5"]) == len(CATALOGUE_IDS | LATER_IDS | HARSH_SCAN_IDS - OPT_IN_IDS)


def test_every_resolved_probability_is_a_knob_in_every_manifest() -> None:
    built = build_packet("N2", 1, resolve("N2", {"documents": ("sov_pdf", "sov_excel")}))
    manifest = json.loads(built.files["manifest_sov_pdf.json"])
    assert {f"patterns.{i}" for i in CATALOGUE_IDS} <= set(manifest["knobs"])
    assert {f"patterns.{i}" for i in HARSH_SCAN_IDS - OPT_IN_IDS} <= set(manifest["knobs"])
    assert not {f"patterns.{i}" for i in OPT_IN_IDS} & set(manifest["knobs"])
    assert (
        manifest["knobs"]["patterns.overlay.watermark"]
        == presets.PROBABILITIES["overlay.watermark"][1]
    )


def test_overrides_set_turn_off_and_restrict() -> None:
    knobs = resolve("N3", parse_overrides(["patterns.table.shading=0.9"]))
    assert knobs["patterns.table.shading"] == 0.9
    knobs = resolve("N3", parse_overrides(["patterns.off=table.*,overlay.logo"]))
    assert all(
        knobs[f"patterns.{i}"] == 0.0
        for i in CATALOGUE_IDS
        if i.startswith("table.") or i == "overlay.logo"
    )
    assert knobs["patterns.data.truncation"] > 0
    knobs = resolve("N1", parse_overrides(["patterns.only=overlay.watermark,data.*"]))
    on = {k for k, v in knobs.items() if k.startswith("patterns.") and v > 0}
    assert on == {"patterns.overlay.watermark"} | {
        f"patterns.{i}" for i in CATALOGUE_IDS if i.startswith("data.")
    }
    assert all(knobs[k] == 1.0 for k in on)
    # an explicit probability wins over only
    knobs = resolve(
        "N1",
        parse_overrides(["patterns.only=overlay.watermark", "patterns.overlay.watermark=0.25"]),
    )
    assert knobs["patterns.overlay.watermark"] == 0.25


@pytest.mark.parametrize(
    ("assignment", "message"),
    [
        ("patterns.table.nope=0.5", "unknown pattern 'table.nope'"),
        ("patterns.table.shading=1.5", "a probability must be between 0 and 1"),
        ("patterns.table.shading=-0.1", "a probability must be between 0 and 1"),
        ("patterns.table.shading=often", "expected a probability between 0 and 1"),
        ("patterns.off=nosuch.*", "'nosuch.*' matches no pattern"),
        ("patterns.only=", "names no pattern"),
        ("patterns.table.*=0.5", "unknown pattern 'table.*'"),
    ],
)
def test_bad_pattern_overrides_are_refused(assignment: str, message: str) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        resolve("N3", parse_overrides([assignment]))


def test_an_incompatible_only_set_is_refused() -> None:
    with pytest.raises(
        UsageError,
        match=re.escape("table.borderless and table.mainframe cannot be applied together"),
    ):
        resolve("N3", parse_overrides(["patterns.only=table.borderless,table.mainframe"]))


@pytest.mark.slow
def test_bad_overrides_on_the_command_line(run_cli: Any, tmp_path: Any) -> None:
    for assignment, message in (
        ("patterns.table.nope=1", "unknown pattern 'table.nope'"),
        ("patterns.data.truncation=2", "a probability must be between 0 and 1"),
        ("patterns.only=table.dual,table.vertical_records", "cannot be applied together"),
    ):
        result = run_cli(
            "generate", "--tiers", "N1", "--out", str(tmp_path / "out"), "--set", assignment
        )
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and message in result.stderr
        assert result.stderr.startswith("packetbench: error: --set patterns.")
        assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def _loss_run_pdf() -> Subject:
    """The PDF loss run as the engine selects patterns for it."""
    from packetbench.generator.doctypes.base import variants

    doc_type, variant = variants()["loss_run_pdf"]
    return Subject("loss_run_pdf", "loss_run", "pdf", doc_type.model(), variant.style)


def test_selection_is_per_pattern_and_stable(render: Any) -> None:
    knobs = resolve("N5")
    subject = _loss_run_pdf()
    first = [p.id for p in engine.select(subject, knobs, "N5-000007")]
    assert first == [p.id for p in engine.select(subject, knobs, "N5-000007")]
    # Raising one probability adds at most that pattern (and drops what conflicts with it):
    # the other draws do not move.
    knobs["patterns.table.rotated_header"] = 1.0
    again = [p.id for p in engine.select(subject, knobs, "N5-000007")]
    assert set(first) - set(again) <= {
        i for i in first if PATTERNS[i].conflicts(PATTERNS["table.rotated_header"])
    }
    assert set(again) - set(first) <= {"table.rotated_header"}


def test_a_scan_claims_the_document_before_what_it_excludes() -> None:
    """Scans are the tier's first decision: a document drawn for both a scan and a text-layer
    attack is scanned, and the attack goes elsewhere; the chosen patterns
    still come back in catalogue order, the order they are applied in."""
    subject = _loss_run_pdf()
    knobs = resolve("N1")
    for pattern_id in ("textlayer.kerning", "scan.moderate", "hand.signature"):
        knobs[f"patterns.{pattern_id}"] = 1.0
    chosen = [p.id for p in engine.select(subject, knobs, "N5-000007")]
    assert "scan.moderate" in chosen
    assert "textlayer.kerning" not in chosen
    order = [p.id for p in catalogue()]
    assert chosen == sorted(chosen, key=order.index)
    knobs["patterns.scan.moderate"] = 0.0
    assert "textlayer.kerning" in [p.id for p in engine.select(subject, knobs, "N5-000007")]


def test_a_reduced_copy_carries_no_void_stamp() -> None:
    """A document copied reduced is never stamped VOID (its 3.5-point type under the stamp's
    frame was legible but past the audit's OCR); the stamp still lands on every other scan,
    and a reduced copy keeps its other overlays."""
    subject = _loss_run_pdf()
    knobs = resolve("N1")
    for pattern_id in ("scan.reduced", "overlay.void_stamp", "overlay.watermark"):
        knobs[f"patterns.{pattern_id}"] = 1.0
    chosen = [p.id for p in engine.select(subject, knobs, "N5-000007")]
    assert "scan.reduced" in chosen and "overlay.watermark" in chosen
    assert "overlay.void_stamp" not in chosen
    knobs["patterns.scan.reduced"], knobs["patterns.scan.crooked"] = 0.0, 1.0
    chosen = [p.id for p in engine.select(subject, knobs, "N5-000007")]
    assert "scan.crooked" in chosen and "overlay.void_stamp" in chosen


def test_a_pattern_that_finds_nothing_leaves_no_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    # The probe is declared into a registry of its own, so it never outlives this test.
    probe: Registry[Pattern] = Registry("pattern")
    for known in catalogue():
        probe.add(known.id, known)
    monkeypatch.setattr(base, "PATTERNS", probe)

    @base.pattern("table.fake_probe", "probe", phase="layout", truth="none", description="test")
    def greedy(staging: Staging) -> bool:
        staging.presentation.shown["insured_name"] = "SOMETHING ELSE"
        staging.presentation.tables["buildings"] = staging.presentation.tables.get(
            "buildings"
        ) or __import__("packetbench.generator.render.table", fromlist=["TableLook"]).TableLook(
            rules="none"
        )
        return False  # ... and then says it found nothing

    assert base.PATTERNS["table.fake_probe"].apply is greedy
    knobs = resolve("N1", {"documents": ("sov_pdf",), "patterns.off": ("*",)})
    knobs["patterns.table.fake_probe"] = 1.0
    plain = resolve("N1", {"documents": ("sov_pdf",), "patterns.off": ("*",)})
    assert (
        build_packet("N1", 3, knobs).files["sov_pdf.pdf"]
        == build_packet("N1", 3, plain).files["sov_pdf.pdf"]
    )


def test_applied_records_name_pages_targets_and_delta() -> None:
    record = Applied(PATTERNS["data.truncation"])
    record.targets.append("a.b")
    record.pages.update({3, 1})
    out = record.record()
    assert out["pages_affected"] == [1, 3] and out["targets"] == ["a.b"]
    assert set(out) == {
        "id",
        "name",
        "family",
        "phase",
        "truth",
        "reference",
        "pages_affected",
        "targets",
        "ground_truth_delta",
        "details",
    }


@pytest.mark.slow
def test_the_patterns_command_lists_the_catalogue(run_cli: Any) -> None:
    result = run_cli("patterns")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:5] == ["id", "phase", "truth", "formats", "reference"]
    assert lines[-1].startswith(f"{len(catalogue())} patterns;")
    listed = json.loads(run_cli("patterns", "--tiers", "N3", "--json").stdout)
    assert {r["id"] for r in listed} == {p.id for p in catalogue()}
    borderless = next(r for r in listed if r["id"] == "table.borderless")
    assert borderless["probability"] == {"N3": presets.PROBABILITIES["table.borderless"][2]}
    assert borderless["reference"] == "p01_borderless" and borderless["family"] == "table"
    bad = run_cli("patterns", "--tiers", "N9")
    assert bad.returncode == 2 and "unknown tier 'N9'" in bad.stderr
