"""`Flow.prose`: running text whose facts are fields, wrapped as words and located whole."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from packetbench.core.leaves import DocModel, Money, Str, Text
from packetbench.generator.errors import LayoutError
from packetbench.generator.render.layout import Flow, Lit
from packetbench.generator.render.metrics import MARGIN
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.prose import BREAK, fact, parse
from packetbench.generator.render.recorder import Recorder


class Letter(DocModel):
    name: Str = None
    amount: Money = None
    remark: Text = None


def _draw(doc: Letter, *paragraphs: tuple[str | Lit, ...]) -> tuple[Recorder, bytes, int]:
    rec = Recorder("letter", doc)
    pdf = PdfDocument(rec, "t", "t")
    flow = Flow(pdf, lambda flow, page: pdf.height - MARGIN)
    for paragraph in paragraphs:
        flow.prose(paragraph)
    return rec, pdf.render(), len(pdf.pages)


def test_facts_wrap_as_words_and_are_located_whole_on_their_line() -> None:
    doc = Letter(name="Harbor Point Logistics LLC", amount=1_250_000.0)
    sentence = (Lit("We write for "), "name", Lit(", whose values come to "), "amount", Lit(". "))
    rec, data, _ = _draw(doc, sentence * 12)
    name, amount = rec.drawn["name"], rec.drawn["amount"]
    assert amount.rendered_as == "$1,250,000" and len(name.locations) == 12
    baselines = {round(loc["bbox"][1], 1) for loc in name.locations + amount.locations}
    assert len(baselines) > 3  # the paragraph wrapped over several lines
    page = pdfium.PdfDocument(data)[0].get_textpage()
    for drawn in (name, amount):
        for loc in drawn.locations:
            x0, y0, x1, y1 = loc["bbox"]
            assert y1 - y0 < 8.5 * 1.32  # one line, never split over two
            assert page.get_text_bounded(x0, y0, x1, y1).strip() == drawn.rendered_as
    # Literal text reaches the universe with its words, spaces included.
    assert any(s["text"].startswith(", whose values come to") for s in rec.strings)


def test_a_fact_alone_is_one_wrapped_value() -> None:
    remark = "The roof was replaced last year and the panels were scanned. " * 6
    rec, data, _ = _draw(Letter(remark=remark.strip()), ("remark",))
    (location,) = rec.drawn["remark"].locations
    x0, y0, x1, y1 = location["bbox"]
    assert y1 - y0 > 20  # several lines, one box
    page = pdfium.PdfDocument(data)[0].get_textpage()
    assert " ".join(page.get_text_bounded(x0, y0, x1, y1).split()) == remark.strip()


def test_a_null_fact_or_one_wider_than_a_line_fails() -> None:
    with pytest.raises(LayoutError, match="null"):
        _draw(Letter(name="A"), (Lit("Amount "), "amount"))
    with pytest.raises(LayoutError, match="wider than a prose line"):
        _draw(Letter(name="x" * 200), (Lit("Name "), "name"))


def test_templates_part_into_paragraphs_of_literals_and_facts() -> None:
    text = f"Dear {fact('name')},\n  we {BREAK} enclose {fact('rows[{}].amount', 2)}."
    assert parse(text) == [
        (Lit("Dear "), "name", Lit(", we")),
        (Lit("enclose "), "rows[2].amount", Lit(".")),
    ]
    with pytest.raises(LayoutError, match="unbalanced"):
        parse("a \x00name b")
