"""data.*: each pattern really writes values the way it claims, and the truth follows its rule
(value canonical and rendered_as shown, or value = what is shown)."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from decimal import Decimal

from packetbench.generator.patterns import scripts
from packetbench.generator.render import fmt
from tests.support.rendering import Case, Render, char_infos, first_applied

DOCS = (
    "loss_run_pdf",
    "sov_pdf",
    "driver_schedule_pdf",
    "acord_125",
    "acord_140",
    "financial_statement_pdf",
)
LOSS = "loss_run_pdf"


def case(render: Render, pattern: str, doc_id: str = LOSS, tier: str = "N3") -> Case:
    """The pattern forced on the first seed where it acts on `doc_id`."""
    seed = first_applied(render, pattern, doc_id, tier, DOCS)
    return Case(pattern, doc_id, render(tier, seed, DOCS, pattern), render(tier, seed, DOCS))


def shape(text: str) -> str:
    return re.sub(r"\d", "9", re.sub(r"[A-Z][a-z]{2}", "Mon", text))


def test_date_formats_mix_spellings_and_keep_iso_values(render: Render) -> None:
    c = case(render, "data.date_formats")
    fields = c.on.fields(LOSS)
    dates = [f for f in fields.values() if f["kind"] == "date"]
    shapes = {shape(f["rendered_as"]) for f in dates}
    assert len(shapes) >= 2 and shapes <= {
        "99/99/9999",
        "9999-99-99",
        "Mon 9, 9999",
        "Mon 99, 9999",
        "99-Mon-99",
    }
    for path in c.record["targets"]:
        field = fields[path]
        assert field["value"] == c.record["ground_truth_delta"][path]["canonical"]
        assert field["rendered_as"] == c.record["ground_truth_delta"][path]["shown"]
        assert field["rendered_as"] != fmt.date(field["value"])
        dt.date.fromisoformat(field["value"])  # the value stays ISO


def test_currency_formats_mix_money_styles(render: Render) -> None:
    c = case(render, "data.currency_formats")
    fields = c.on.fields(LOSS)
    formats = set(c.record["details"]["formats"])
    assert len(formats) >= 2
    seen = {fields[p]["rendered_as"] for p in c.record["targets"]}
    assert any(t.startswith("USD ") for t in seen) == ("USD 1,234.00" in formats)
    for path in c.record["targets"]:
        delta = c.record["ground_truth_delta"][path]
        if delta.get("reading") == "dash_zero":
            assert fields[path]["value"] == 0 and fields[path]["rendered_as"] == "\u2014"
        assert fields[path]["rendered_as"] != fmt.money(fields[path]["value"])


def test_terminology_varies_labels_between_sections(render: Render) -> None:
    c = case(render, "data.terminology")
    text = " ".join(c.on.text(LOSS, 1).split())
    plain = " ".join(c.off.text(LOSS, 1).split())
    # the first section keeps its labels; a later one says the same thing differently
    assert text.count("POLICY NUMBER") < plain.count("POLICY NUMBER")
    assert text.startswith(plain[:200])
    assert c.record["details"]["labels_changed"] > 3
    assert all(t.startswith("policies[") for t in c.record["targets"])


def test_special_chars_are_what_the_document_shows(render: Render) -> None:
    c = case(render, "data.special_chars", "acord_125")
    truth_fields = c.on.fields("acord_125")
    special = re.compile("[\u00c0-\u017f\u2013\u2019\u00a0]")
    assert c.record["targets"]
    for path in c.record["targets"]:
        delta = c.record["ground_truth_delta"][path]
        assert special.search(delta["shown"]) and not special.search(delta["canonical"])
        assert truth_fields[path]["value"] == truth_fields[path]["rendered_as"] == delta["shown"]
        assert c.off.fields("acord_125")[path]["value"] == delta["canonical"]


def test_rtl_names_are_drawn_right_to_left_and_read_in_order(render: Render) -> None:
    c = case(render, "data.rtl_names")
    fields = c.on.fields(LOSS)
    path = c.record["targets"][0]
    name = fields[path]["value"]
    assert re.search("[\u0590-\u05ff\u0600-\u06ff]", name)
    location = fields[path]["locations"][0]
    with c.on.page(LOSS, location["page"]) as (_, textpage):
        read = textpage.get_text_bounded(*location["bbox"])
        infos = char_infos(textpage)
    assert unicodedata.normalize("NFKC", read.strip()) == name  # pdfium reads it in order
    # ... while the glyphs are laid out from the right: the first letter is the rightmost.
    x0, y0, x1, y1 = location["bbox"]
    inside = [
        i
        for i in infos
        if x0 <= i["box"][0] <= x1 and y0 <= i["box"][1] <= y1 and not i["char"].isspace()
    ]
    first = unicodedata.normalize("NFKC", name)[0]
    rightmost = max(inside, key=lambda i: i["box"][2])
    assert unicodedata.normalize("NFKC", rightmost["char"]) == first
    assert all(i["font"].endswith("DejaVuSans") for i in inside)
    assert scripts.visual(name) != name


def test_ligatures_draw_one_glyph_for_two_letters(render: Render) -> None:
    c = case(render, "data.ligatures", "acord_125")
    fields = c.on.fields("acord_125")
    for path in c.record["targets"]:
        field = fields[path]
        assert re.search("[\ufb00-\ufb04]", field["rendered_as"])
        assert unicodedata.normalize("NFKC", field["rendered_as"]) == unicodedata.normalize(
            "NFKC", field["value"]
        )
        assert not re.search("[\ufb00-\ufb04]", field["value"])


def test_truncation_cuts_values_with_an_ellipsis(render: Render) -> None:
    c = case(render, "data.truncation")
    truth = c.on.fields(LOSS)
    for path in c.record["targets"]:
        delta = c.record["ground_truth_delta"][path]
        assert delta["shown"].endswith("\u2026")
        assert delta["canonical"].startswith(delta["shown"][:-1].rstrip())
        assert len(delta["shown"]) < len(delta["canonical"])
        assert truth[path]["value"] == delta["shown"]


def test_footnote_markers_glue_to_values_with_notes_at_the_foot(render: Render) -> None:
    c = case(render, "data.footnote_markers")
    fields = c.on.fields(LOSS)
    for path in c.record["targets"]:
        delta = c.record["ground_truth_delta"][path]
        marker = delta["marker"]
        assert fields[path]["rendered_as"].endswith(marker)
        assert fields[path]["value"] == delta["canonical"]
        page = fields[path]["locations"][0]["page"]
        foot = c.on.text(LOSS, page)
        assert f"{marker} " in foot.split("\n")[-2] or f"{marker} " in foot  # the note


def test_thousands_state_the_unit_once_and_scale_every_amount(render: Render) -> None:
    c = case(render, "data.thousands", "sov_pdf")
    fields = c.on.fields("sov_pdf")
    assert "thousands of U.S. dollars" in c.on.text("sov_pdf", 1)
    money = [f for f in fields.values() if f["kind"] == "money"]
    assert money and {f["path"] for f in money} == set(c.record["targets"])
    for field in money:
        shown = Decimal(field["rendered_as"].replace(",", "").strip("()"))
        assert shown * 1000 == Decimal(repr(abs(field["value"])))


def test_percent_as_fraction(render: Render) -> None:
    c = case(render, "data.percent_as_fraction", "sov_pdf")
    fields = c.on.fields("sov_pdf")
    for path in c.record["targets"]:
        field = fields[path]
        assert re.fullmatch(r"[01]\.\d{2,}", field["rendered_as"]), field["rendered_as"]
        assert Decimal(field["rendered_as"]) * 100 == Decimal(repr(field["value"]))
