"""overlay.*: what each pattern draws over a page is really there (pixels, images, text order),
and only the redaction changes the truth."""

from __future__ import annotations

import ctypes
import math
import re
from typing import Any

import numpy as np
import pypdfium2.raw as raw

from packetbench.generator.patterns.overlay import ICONS
from tests.support.rendering import Case, Render, Rendered, char_infos, first_applied

DOCS = ("loss_run_pdf", "sov_pdf", "driver_schedule_pdf", "acord_125")
LOSS = "loss_run_pdf"


def case(render: Render, pattern: str, doc_id: str = LOSS, tier: str = "N3") -> Case:
    """The pattern forced on the first seed where it acts on `doc_id`."""
    seed = first_applied(render, pattern, doc_id, tier, DOCS)
    return Case(pattern, doc_id, render(tier, seed, DOCS, pattern), render(tier, seed, DOCS))


def region(
    pixels: np.ndarray, bbox: list[float], height_pt: float, scale: float = 2.0
) -> np.ndarray:
    x0, y0, x1, y1 = bbox
    top, bottom = int((height_pt - y1) * scale), int((height_pt - y0) * scale)
    return pixels[max(top, 0) : bottom, int(x0 * scale) : int(x1 * scale)]


def test_watermark_is_large_diagonal_lettering_on_every_page(render: Render) -> None:
    c = case(render, "overlay.watermark")
    text = c.record["details"]["text"]
    pages = c.record["pages_affected"]
    assert pages == list(range(1, len(c.on.pdf(LOSS)) + 1))
    with c.on.page(LOSS, pages[-1]) as (_, textpage):
        infos = char_infos(textpage)
    lettering = [i for i in infos if i["size"] > 24]
    assert "".join(i["char"] for i in lettering).replace(" ", "") == text.replace(" ", "")
    assert all(0.3 < abs(math.sin(i["angle"])) < 0.95 for i in lettering)  # diagonal
    assert c.record["targets"]  # values it passes over


def test_void_stamp_puts_red_over_data(render: Render) -> None:
    c = case(render, "overlay.void_stamp")
    (page,) = c.record["pages_affected"]
    pixels = c.on.pixels(LOSS, page).astype(int)
    red = (pixels[..., 0] > 170) & (pixels[..., 1] < 140) & (pixels[..., 2] < 140)
    plain = c.off.pixels(LOSS, page).astype(int)
    assert red.sum() > 2000 and ((plain[..., 0] > 170) & (plain[..., 1] < 140)).sum() == 0
    assert c.record["details"]["text"] in c.on.text(LOSS, page)
    assert c.record["targets"]  # data under the stamp


def test_a_stamp_letter_is_not_dropped_as_its_watermark_twin() -> None:
    """Fresh N5 seed 830005: the VOID stamp on the vehicle schedule fell with its O on the
    COPY watermark's O, in the same bold font, and pdfium dropped it as fake bold ("VID"). The
    stamp moves along its line clear of its twins on a page that keeps its text layer (N5's
    scans off, as N5 drew that page then: a native page)."""
    import pypdfium2 as pdfium

    from packetbench.generator.packet import build_packet
    from packetbench.generator.tiers import resolve

    doc = "vehicle_schedule_pdf"
    knobs = resolve("N5", {"documents": (doc,), "patterns.off": ("scan.*",)})
    built = build_packet("N5", 830005, knobs).files
    applied = {p["id"]: p for p in Rendered(built).manifest(doc)["patterns_applied"]}
    assert applied["overlay.void_stamp"]["details"]["text"] == "VOID"
    assert applied["overlay.watermark"]["details"]["text"] == "COPY"
    pdf = pdfium.PdfDocument(built[f"{doc}.pdf"])
    try:
        words = pdf[0].get_textpage().get_text_range().split()
    finally:
        pdf.close()
    assert "VOID" in words and "VID" not in words
    assert applied["overlay.void_stamp"]["targets"]  # still over data


def test_status_icons_replace_statuses_and_the_legend_says_which(render: Render) -> None:
    c = case(render, "overlay.status_icons")
    fields = c.on.fields(LOSS)
    legend = c.record["details"]["legend"]
    for path in c.record["targets"]:
        assert fields[path]["rendered_as"] == ICONS[fields[path]["value"]]
        assert legend[fields[path]["rendered_as"]] == fields[path]["value"]
    page = fields[c.record["targets"][0]]["locations"][0]["page"]
    text = " ".join(c.on.text(LOSS, page).split())
    assert "Status legend:" in text
    assert all(value in text for value in legend.values())


def test_logo_is_an_image_with_a_coloured_name(render: Render) -> None:
    c = case(render, "overlay.logo")
    with c.on.page(LOSS, 1) as (page, textpage):
        images = [o for o in page.get_objects() if o.type == raw.FPDF_PAGEOBJ_IMAGE]
        width, height = page.get_size()
        assert len(images) == 1
        left, bottom, right, top = images[0].get_bounds()
        assert left > width / 2 and top > height - 60  # the page head's right corner
        name = c.record["details"]["text"]
        assert textpage.search(name, match_case=True).get_next() is not None
        coloured = []
        for obj in page.get_objects():
            if obj.type == raw.FPDF_PAGEOBJ_TEXT:
                rgba = [ctypes.c_uint() for _ in range(4)]
                raw.FPDFPageObj_GetFillColor(obj.raw, *rgba)
                if tuple(v.value for v in rgba[:3]) != (0, 0, 0):
                    coloured.append(obj.get_bounds())
        # the name beside the mark, in the mark's colour
        assert any(abs(b[1] - bottom) < 12 and b[0] > right for b in coloured), coloured
    with c.off.page(LOSS, 1) as (page, _):
        assert not [o for o in page.get_objects() if o.type == raw.FPDF_PAGEOBJ_IMAGE]


def test_running_header_is_spliced_into_the_middle_of_the_text(render: Render) -> None:
    c = case(render, "overlay.untagged_header_footer")
    printed = f"Printed {c.record['details']['printed']}"
    for page in c.record["pages_affected"]:
        text = c.on.text(LOSS, page)
        at = text.find(printed)
        assert at != -1 and 0.1 * len(text) < at < 0.9 * len(text), (page, at, len(text))
    # the insured's name in the header is located like any other drawing of it
    (target,) = c.record["targets"]
    assert len(c.on.fields(LOSS)[target]["locations"]) == (
        len(c.off.fields(LOSS)[target]["locations"]) + len(c.record["pages_affected"])
    )


def test_redaction_covers_values_whose_text_stays_underneath(render: Render) -> None:
    c = case(render, "overlay.redaction")
    fields, hidden = c.on.fields(LOSS), c.on.universe(LOSS)["hidden"]
    plain = c.off.fields(LOSS)
    for path in c.record["targets"]:
        assert path not in fields  # out of the truth
        delta = c.record["ground_truth_delta"][path]
        assert delta["shown"] is None and delta["canonical"] == plain[path]["value"]
        location = plain[path]["locations"][0]
        shown = plain[path]["rendered_as"]
        assert any(h["text"] == shown for h in hidden)
        with c.on.page(LOSS, location["page"]) as (page, textpage):
            assert " ".join(textpage.get_text_bounded(*location["bbox"]).split()) == shown
            height = page.get_size()[1]
        box = region(c.on.pixels(LOSS, location["page"]), location["bbox"], height)
        assert box.size and box.mean() < 20  # black over the whole value
    truth = c.on.truth(LOSS)
    for path in c.record["targets"]:
        node: Any = truth
        for part in re.findall(r"[A-Za-z_]\w*|\d+", path):
            node = node[int(part)] if part.isdigit() else node[part]
        assert node is None


def test_highlight_marks_values_in_colour(render: Render) -> None:
    c = case(render, "overlay.highlight")
    fields = c.on.fields(LOSS)
    path = c.record["targets"][0]
    location = fields[path]["locations"][0]
    with c.on.page(LOSS, location["page"]) as (page, _):
        height = page.get_size()[1]
    box = region(c.on.pixels(LOSS, location["page"]).astype(int), location["bbox"], height)
    tinted = (abs(box[..., 0] - box[..., 1]) > 25) | (abs(box[..., 1] - box[..., 2]) > 25)
    assert tinted.mean() > 0.3
    assert c.on.truth(LOSS) == c.off.truth(LOSS)


def test_a_carrier_named_in_another_script_gets_no_logo() -> None:
    """overlay.logo writes the carrier's name beside its mark in Helvetica Bold, which has
    no Hebrew: N3 seed 1310039's acord_125, whose carrier data.rtl_names named "מזרחי",
    stopped generating ("font Helvetica-Bold cannot draw"; a text-layer sweep of fresh
    seeds 1310001-1310300 found it). Such a carrier gets no logo, and the name is drawn
    where the form shows it."""
    from packetbench.generator.packet import build_packet
    from packetbench.generator.tiers import resolve

    files = build_packet("N3", 1310039, resolve("N3", {}), only=frozenset({"acord_125"})).files
    rendered = Rendered(files)
    assert rendered.applied("acord_125", "data.rtl_names") is not None
    assert rendered.applied("acord_125", "overlay.logo") is None
    carrier = rendered.fields("acord_125")["carrier.name"]
    assert carrier["rendered_as"] == "מזרחי"
    with rendered.page("acord_125", 1) as (_, textpage):
        assert carrier["rendered_as"] in textpage.get_text_range()
