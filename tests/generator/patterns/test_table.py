"""table.*: each pattern really changes the table it claims to change (docs/patterns.md rule 6).

Each test renders a packet with only that pattern on and the same packet with every pattern
off, and reads both back with pdfium: rules, fills, text positions, fonts, angles.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pypdfium2.raw as raw

from packetbench.generator.patterns import vocabulary
from packetbench.generator.patterns.table import NOTICES
from tests.support.rendering import Case, Render, Rendered, char_infos, first_applied

DOCS = ("loss_run_pdf", "sov_pdf", "driver_schedule_pdf")
LOSS = "loss_run_pdf"


def case(
    render: Render, pattern: str, doc_id: str = LOSS, tier: str = "N3", seed: int | None = None
) -> Case:
    """The pattern forced on the first seed where it acts on `doc_id` (or on `seed`)."""
    if seed is None:
        seed = first_applied(render, pattern, doc_id, tier, DOCS)
    return Case(pattern, doc_id, render(tier, seed, DOCS, pattern), render(tier, seed, DOCS))


def paths(page: Any, kind: int = raw.FPDF_PAGEOBJ_PATH) -> list[Any]:
    return [o for o in page.get_objects() if o.type == kind]


def strokes(rendered: Rendered, doc_id: str, number: int) -> int:
    """Path segments stroked on a page (rules), counted from the page objects."""
    with rendered.page(doc_id, number) as (page, _):
        total = 0
        for obj in paths(page):
            fill, stroke = ctypes_int(), ctypes_int()
            raw.FPDFPath_GetDrawMode(obj, fill, stroke)
            if stroke.value:
                total += max(1, raw.FPDFPath_CountSegments(obj) - 1)
        return total


def fills(rendered: Rendered, doc_id: str, number: int) -> list[tuple[float, ...]]:
    """Bounds of filled paths on a page."""
    with rendered.page(doc_id, number) as (page, _):
        out = []
        for obj in paths(page):
            fill, stroke = ctypes_int(), ctypes_int()
            raw.FPDFPath_GetDrawMode(obj, fill, stroke)
            if fill.value:
                out.append(tuple(round(v, 1) for v in obj.get_bounds()))
        return out


def ctypes_int() -> Any:
    import ctypes

    return ctypes.c_int()


def first_box(rendered: Rendered, doc_id: str, number: int, text: str) -> tuple[float, ...]:
    """The box of the first occurrence of `text` on a page: (left, bottom, right, top)."""
    with rendered.page(doc_id, number) as (_, textpage):
        found = textpage.search(text, match_case=True).get_next()
        assert found is not None, f"{text!r} not on page {number}"
        index, count = found
        boxes = [textpage.get_charbox(i) for i in range(index, index + count)]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )


def located(rendered: Rendered, doc_id: str, path: str) -> list[dict[str, Any]]:
    return list(rendered.fields(doc_id)[path]["locations"])


# --- plain styles -----------------------------------------------------------------------------


def test_borderless_draws_no_rules(render: Render) -> None:
    c = case(render, "table.borderless", "sov_pdf")
    assert c.record["targets"] == ["buildings"]
    plain, ruled = strokes(c.off, "sov_pdf", 1), strokes(c.on, "sov_pdf", 1)
    assert plain > 40 and ruled < plain / 4, (plain, ruled)
    # the header band loses its fill as well
    assert len(fills(c.on, "sov_pdf", 1)) < len(fills(c.off, "sov_pdf", 1))


def test_shading_fills_every_other_row(render: Render) -> None:
    c = case(render, "table.shading", "sov_pdf")
    rows = len(
        [
            p
            for p in c.on.fields("sov_pdf")
            if p.endswith(".tiv")
            and p.startswith("buildings")
            and located(c.on, "sov_pdf", p)[0]["page"] == 1
        ]
    )
    extra = len(fills(c.on, "sov_pdf", 1)) - len(fills(c.off, "sov_pdf", 1))
    assert rows >= 4 and abs(extra - rows // 2) <= 1, (rows, extra)
    gray = round(c.record["details"]["fill_gray"] * 255)
    pixels = c.on.pixels("sov_pdf", 1)
    assert ((abs(pixels.astype(int) - gray).max(axis=2)) <= 1).sum() > 5000


def test_column_synonyms_use_carrier_jargon(render: Render) -> None:
    c = case(render, "table.column_synonyms")
    headers = c.record["details"]["headers"]
    assert headers["reserve"] in vocabulary.JARGON["reserve"]
    text = " ".join(c.on.text(LOSS, 1).split())
    for key, jargon in headers.items():
        assert jargon.upper() in text, (key, jargon)
    plain = " ".join(c.off.text(LOSS, 1).split())
    for key, header in (
        ("loss_date", "DATE OF LOSS"),
        ("description", "DESCRIPTION OF LOSS"),
        ("report_date", "DATE REPORTED"),
    ):
        assert header in plain
        if header not in headers[key].upper():
            assert header not in text, (key, header)  # the carrier's own word replaced it


def test_merged_header_spans_groups_of_columns(render: Render) -> None:
    c = case(render, "table.merged_header", "sov_pdf")
    text = c.on.text("sov_pdf", 1)
    assert "AMOUNTS (USD)" in text and "AMOUNTS (USD)" not in c.off.text("sov_pdf", 1)
    # The group label sits over its columns: centred above BUILDING ... TIV, one row up.
    group = first_box(c.on, "sov_pdf", 1, "AMOUNTS (USD)")
    building = first_box(c.on, "sov_pdf", 1, "BUILDING")
    tiv = first_box(c.on, "sov_pdf", 1, "TIV")
    assert group[1] > building[3] and building[0] < group[0] and group[2] < tiv[2]
    # and pushes the first row down
    first = "buildings[0].tiv"
    assert (
        located(c.on, "sov_pdf", first)[0]["bbox"][1]
        < located(c.off, "sov_pdf", first)[0]["bbox"][1] - 8
    )


def test_stacked_header_puts_one_word_per_line(render: Render) -> None:
    c = case(render, "table.stacked_header", "sov_pdf")
    street, address = (first_box(c.on, "sov_pdf", 1, w) for w in ("STREET", "ADDRESS"))
    assert street[1] > address[3]  # "STREET" above "ADDRESS", not beside it
    plain = [first_box(c.off, "sov_pdf", 1, w) for w in ("STREET", "ADDRESS")]
    assert abs(plain[0][1] - plain[1][1]) < 1  # one line when plain


def test_rotated_header_draws_headers_at_90_degrees(render: Render) -> None:
    c = case(render, "table.rotated_header", "sov_pdf")
    with c.on.page("sov_pdf", 1) as (_, textpage):
        angles = [info["angle"] for info in char_infos(textpage)]
    assert sum(abs(math.sin(a)) > 0.999 for a in angles) > 50  # a quarter turn
    with c.off.page("sov_pdf", 1) as (_, textpage):
        assert not any(abs(info["angle"]) > 0.01 for info in char_infos(textpage))


def test_variable_widths_offset_header_edges(render: Render) -> None:
    c = case(render, "table.variable_widths", "sov_pdf")
    offsets = c.record["details"]["header_offsets_pt"]
    assert all(2.0 <= abs(o) <= 5.0 for o in offsets)
    # A left-aligned header no longer starts where its column's values start.
    header = first_box(c.on, "sov_pdf", 1, "CITY")
    value = located(c.on, "sov_pdf", "buildings[0].address.city")[0]["bbox"]
    plain_header = first_box(c.off, "sov_pdf", 1, "CITY")
    plain_value = located(c.off, "sov_pdf", "buildings[0].address.city")[0]["bbox"]
    assert abs(plain_header[0] - plain_value[0]) < 1.0
    assert abs(header[0] - value[0]) >= 1.0


def test_continuation_header_abbreviates_on_later_pages(render: Render) -> None:
    c = case(render, "table.continuation_header")
    pages = c.record["pages_affected"]
    assert pages and min(pages) >= 2
    # The header repeated under "(CONTINUED)" is abbreviated; a section's own first header is
    # not.
    later = c.on.text(LOSS, pages[0])
    continued = later[later.index("(CONTINUED)") :]
    head = continued[
        : min(continued.find(stop) % len(continued) for stop in ("CL-", "POLICY TOTAL"))
    ]
    assert "DOL" in head and "DATE OF" not in head, head
    assert "DATE OF" in c.on.text(LOSS, 1)


# --- rows -------------------------------------------------------------------------------------


def test_multiline_wrap_wraps_values_without_row_rules(render: Render) -> None:
    c = case(render, "table.multiline_wrap")
    column = c.record["details"]["wrapped_columns"]["policies[].claims"]
    heights = [
        loc["bbox"][3] - loc["bbox"][1]
        for path, field in c.on.fields(LOSS).items()
        if path.endswith(f".{column}")
        for loc in field["locations"]
    ]
    assert sum(h > 20 for h in heights) >= 3  # three lines or more
    assert strokes(c.on, LOSS, 1) < strokes(c.off, LOSS, 1)


def test_row_split_continues_a_row_overleaf(render: Render) -> None:
    c = case(render, "table.row_split")
    split = [
        (path, field)
        for path, field in c.on.fields(LOSS).items()
        if any("fragment" in loc for loc in field["locations"])
    ]
    assert split
    _, field = split[0]
    first, second = sorted(field["locations"], key=lambda loc: loc["fragment"])
    assert first["fragment"] == [1, 2] and second["fragment"] == [2, 2]
    assert second["page"] == first["page"] + 1
    with c.on.page(LOSS, first["page"]) as (_, textpage):
        head = textpage.get_text_bounded(*first["bbox"])
    with c.on.page(LOSS, second["page"]) as (_, textpage):
        tail = textpage.get_text_bounded(*second["bbox"])
    assert " ".join(f"{head} {tail}".split()) == field["rendered_as"]


def test_subtotals_sum_each_location(render: Render) -> None:
    c = case(render, "table.subtotals", "sov_pdf", tier="N4")
    truth = c.on.truth("sov_pdf")["buildings"]
    text = c.on.text("sov_pdf", 1)
    assert "Subtotal location" in text
    # The first subtotal equals the sum of its location's TIVs, drawn in the sum row.
    location = truth[0]["location_number"]
    total = sum(round(b["tiv"] * 100) for b in truth if b["location_number"] == location) / 100
    line = next(
        line for line in text.splitlines() if line.startswith(f"Subtotal location {location} ")
    )
    assert f"${total:,.0f}" in line
    # Buildings are listed by location, as the document now shows them.
    numbers = [b["location_number"] for b in truth]
    assert numbers == sorted(numbers)


def test_nested_payments_sum_to_paid(render: Render) -> None:
    c = case(render, "table.nested")
    truth = c.on.truth(LOSS)
    paid_claims = [
        (i, j, claim)
        for i, policy in enumerate(truth["policies"])
        for j, claim in enumerate(policy["claims"])
        if claim["paid"]
    ]
    text = "".join(c.on.text(LOSS, page) for page in c.record["pages_affected"])
    assert text.count("Pmt date") == len(paid_claims) > 3
    # Read the sub-table under one claim's description and add its amounts up.
    i, j, claim = paid_claims[0]
    box = located(c.on, LOSS, f"policies[{i}].claims[{j}].description")[0]
    page, (x0, y0, _, _) = box["page"], box["bbox"]
    right = located(c.on, LOSS, f"policies[{i}].claims[{j}].status")[0]["bbox"][0] - 1
    with c.on.page(LOSS, page) as (_, textpage):
        below = textpage.get_text_bounded(x0 - 2, y0 - 40, right, y0 - 1)
    amounts = [float(a.replace(",", "")) for a in re.findall(r"\$([\d,]+\.\d\d)", below)]
    assert round(sum(amounts), 2) == claim["paid"], (below, claim["paid"])


def test_interrupted_repeats_the_header_after_a_notice(render: Render) -> None:
    c = case(render, "table.interrupted", "sov_pdf")
    text = c.on.text("sov_pdf", 1)
    assert any(n.split(".")[0][:40] in " ".join(text.split()) for n in NOTICES)
    assert (
        text.count("STREET ADDRESS") >= 2 and c.off.text("sov_pdf", 1).count("STREET ADDRESS") == 1
    )


def test_floating_header_pushes_the_header_down(render: Render) -> None:
    c = case(render, "table.floating_header", "sov_pdf")
    assert "Report ID:" in c.on.text("sov_pdf", 1)
    lines = c.record["details"]["preamble_lines"]
    drop = first_box(c.off, "sov_pdf", 1, "STREET")[1] - first_box(c.on, "sov_pdf", 1, "STREET")[1]
    assert lines >= 8 and drop > lines * 7 * 1.4, drop


def test_single_row_total_is_its_own_table(render: Render) -> None:
    c = case(render, "table.single_row_total", "sov_pdf")
    page = c.record["pages_affected"][0]
    summary = first_box(c.on, "sov_pdf", page, "SUMMARY")
    total = located(c.on, "sov_pdf", "totals.tiv")[0]
    assert total["page"] == page and total["bbox"][3] < summary[1]
    assert "SUMMARY" not in c.off.text("sov_pdf", page)


def test_dual_draws_two_tables_side_by_side(render: Render) -> None:
    c = case(render, "table.dual", "sov_pdf")
    heads = [f for f in fills(c.on, "sov_pdf", 1) if f[3] - f[1] < 30 and f[2] - f[0] > 100]
    tops: dict[int, list[tuple[float, float]]] = {}
    for left, _, right, top in heads:
        tops.setdefault(round(top), []).append((left, right))
    pair = next(spans for spans in tops.values() if len(spans) == 2)
    (_, first_right), (second_left, _) = sorted(pair)
    assert 8 <= second_left - first_right <= 16  # a gap between the two header bands


# --- whole layouts ----------------------------------------------------------------------------


def test_vertical_records_label_every_value(render: Render) -> None:
    c = case(render, "table.vertical_records", "sov_pdf")
    text = c.on.text("sov_pdf", 1)
    records = len(
        {
            p.split(".")[0]
            for p, f in c.on.fields("sov_pdf").items()
            if p.startswith("buildings[") and f["locations"][0]["page"] == 1
        }
    )
    assert text.count("TIV:") == records > 2
    assert "TIV:" not in c.off.text("sov_pdf", 1)


def test_claim_blocks_give_each_claim_its_block(render: Render) -> None:
    c = case(render, "table.claim_blocks")
    text = c.on.text(LOSS, 1)
    claims = len(
        {
            p.rsplit(".", 1)[0]
            for p, f in c.on.fields(LOSS).items()
            if ".claims[" in p and f["locations"][0]["page"] == 1
        }
    )
    assert text.count("CLAIM NUMBER:") == claims > 2
    assert text.count("TOTAL INCURRED") >= claims  # each block's amounts sub-table


def test_mainframe_lists_values_in_courier_on_a_grid(render: Render) -> None:
    c = case(render, "table.mainframe")
    field = c.on.fields(LOSS)["policies[0].claims[0].claim_number"]
    location = field["locations"][0]
    with c.on.page(LOSS, location["page"]) as (_, textpage):
        infos = char_infos(textpage)
    courier = [i for i in infos if i["font"].startswith("Courier")]
    assert len(courier) > len(infos) / 2
    # Left edges of the claim numbers of every row fall on the same character column.
    lefts = {
        round(loc["bbox"][0], 1)
        for p, f in c.on.fields(LOSS).items()
        if p.endswith(".claim_number")
        for loc in f["locations"]
        if loc["page"] == location["page"]
    }
    assert len(lefts) == 1


def test_combined_sources_draw_each_carrier_its_own_way(render: Render) -> None:
    c = case(render, "table.combined_sources")
    styles = c.record["details"]["carriers"]
    assert len(styles) >= 2 and len(set(styles.values())) >= 2
    truth = c.on.truth(LOSS)
    fields = c.on.fields(LOSS)
    shown: dict[str, set[str]] = {}
    for i, policy in enumerate(truth["policies"]):
        for j, _ in enumerate(policy["claims"]):
            text = fields[f"policies[{i}].claims[{j}].loss_date"]["rendered_as"]
            shape = re.sub(r"\d", "9", re.sub(r"[A-Za-z]{3}", "Mon", text))
            shown.setdefault(policy["carrier"], set()).add(shape)
    assert len({frozenset(v) for v in shown.values()}) >= 2  # carriers write dates differently


def test_subtotals_regroup_claims_by_location_and_the_truth_follows(render: Render) -> None:
    """Claims of a policy are listed by date; grouping them by location reorders them, and the
    truth lists them in the order the page shows."""
    for seed in range(1, 13):
        c = case(render, "table.subtotals", LOSS, seed=seed)
        record = c.on.applied(LOSS, "table.subtotals")
        reordered = [
            p
            for p, e in (record or {}).get("ground_truth_delta", {}).items()
            if e.get("reordered_by") == "location_number"
        ]
        if reordered:
            break
    else:
        raise AssertionError("no loss run needed its claims regrouped")
    items = reordered[0]
    index = int(items.split("[")[1].split("]")[0])
    shown = c.on.truth(LOSS)["policies"][index]["claims"]
    before = c.off.truth(LOSS)["policies"][index]["claims"]
    keys = [(claim["location_number"] is None, claim["location_number"] or 0) for claim in shown]
    assert keys == sorted(keys) and shown != before
    assert sorted(map(repr, shown)) == sorted(map(repr, before))
    page = c.on.fields(LOSS)[f"{items}[0].claim_number"]["locations"][0]["page"]
    assert "Subtotal location" in c.on.text(LOSS, page)


def test_a_stacked_header_word_stays_in_its_column(render: Render) -> None:
    """Stacked, a header is one word a line, and a word wider than its column shrinks to fit
    it: drawn at full size "STORIES" ran into the column before it, and a reader saw
    "BUILTSTORIES". Every header string of the page is found as whole words in its text
    layer, where it is drawn (as the audit looks for it, `audit.drawn.DrawnText`)."""
    import json

    import pypdfium2 as pdfium

    from packetbench.audit.drawn import drawn_text

    c = case(render, "table.stacked_header", "sov_pdf", seed=3)
    strings = json.loads(c.on.files["rendered_universe_sov_pdf.json"])["strings"]
    pdf = pdfium.PdfDocument(c.on.files["sov_pdf.pdf"])
    try:
        drawn = drawn_text(pdf, 0)
    finally:
        pdf.close()
    assert drawn is not None
    headers = {s["text"] for s in strings if s["page"] == 1 and s["text"].isupper()}
    assert {"STORIES", "BUILT"} <= headers
    assert [h for h in sorted(headers) if not drawn.find(h)] == []


def test_a_listing_column_is_as_wide_as_every_section_s_header(tmp_path: Path) -> None:
    """A mainframe listing sets its character grid once for the whole table, and terminology
    relabels a column per section: N3 seed 1200076's loss run heads a column "Status" in its
    first policy and "Disposition" in its second. Sized for "STATUS", the column let
    "DISPOSITION" run into "TOTAL PAID", and pdfium dropped the "O" the two share ("TTAL
    PAID"; the 1,000-packet corpus, fresh seeds 1200001-1200200). The grid takes the longest
    word of every header a section may draw, and the text layer holds every header."""
    from packetbench.audit import audit_packets
    from packetbench.generator.packet import build_packet
    from packetbench.generator.tiers import resolve
    from tests.support.rendering import write

    knobs = resolve("N3", {})
    files = build_packet("N3", 1200076, knobs, only=frozenset({LOSS})).files
    rendered = Rendered(files)
    assert rendered.applied(LOSS, "table.mainframe") is not None
    headers = [rendered.text(LOSS, page) for page in (1, 2, 3, 4)]
    assert any("DISPOSITION" in text for text in headers)
    assert all("TTAL" not in text for text in headers)
    result = audit_packets([write(rendered, tmp_path / "N3-1200076")])
    assert [f.to_json() for f in result.findings() if f.problem != "not_checked"] == []


def test_a_listing_s_totals_do_not_run_into_their_label(tmp_path: Path) -> None:
    """A mainframe listing prints "** POLICY TOTAL **" at its left margin and the totals
    under their columns on the same line. N3 seed 1300003's experience mod has an amount as
    its second column, starting at character 17: the label's last "*" fell on the amount's
    "U" and its text layer read "*USD 37,483.00" (a text-layer sweep of fresh seeds
    1300001-1300300 found it, and seed 1300053's "*$638,288"). Amounts that would come within
    a space of the label go on a line of their own, and the audit reads every one."""
    from packetbench.audit import audit_packets
    from packetbench.generator.packet import build_packet
    from packetbench.generator.tiers import resolve
    from tests.support.rendering import write

    doc = "experience_mod_pdf"
    files = build_packet("N3", 1300003, resolve("N3", {}), only=frozenset({doc})).files
    rendered = Rendered(files)
    assert rendered.applied(doc, "table.mainframe") is not None
    total = rendered.fields(doc)["policies[2].totals.actual_incurred"]
    (location,) = total["locations"]
    with rendered.page(doc, location["page"]) as (_, textpage):
        assert textpage.get_text_bounded(*location["bbox"]).strip() == total["rendered_as"]
    assert "** POLICY TOTAL **\r\n" in rendered.text(doc, location["page"])
    result = audit_packets([write(rendered, tmp_path / "N3-1300003")])
    assert [f.to_json() for f in result.findings() if f.problem != "not_checked"] == []
