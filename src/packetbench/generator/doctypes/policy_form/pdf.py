"""The policy as a PDF: jacket, declarations, schedules, common conditions, then each coverage
part (its schedule of limits, then its printed coverage form).

The printed wording is boilerplate (`wording.py`), set denser the more coverage parts the
policy has, so that a policy runs to roughly ten to fifteen pages whatever its parts.
"""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import address_parts, title_block
from packetbench.generator.doctypes.dec_page.pdf import FORMS, PART_SCHEDULES, PARTS
from packetbench.generator.doctypes.policy_form import wording
from packetbench.generator.doctypes.policy_form.model import PolicyForm
from packetbench.generator.render.layout import Cell, Flow
from packetbench.generator.render.metrics import BOLD, MARGIN, REGULAR
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

LOCATIONS = (
    Column("Loc #", "location_number", 0.7, "right"),
    Column("Street", "address.street", 3.6),
    Column("City", "address.city", 2.2),
    Column("State", "address.state", 0.7),
    Column("ZIP", "address.zip", 1),
    Column("Buildings", "building_count", 1, "right"),
)

INTERESTS = (
    Column("Interest", "interest_type", 1.8),
    Column("Name", "name", 4),
    Column("Loan number", "loan_number", 1.8),
    Column("Loc #", "location_number", 0.7, "right"),
    Column("Bldg #", "building_number", 0.7, "right"),
)
MORE_LOCATIONS = (
    "Further locations are insured as listed in the statement of values on file "
    "with the company, which forms part of this schedule."
)
WITNESS = (
    "In witness whereof, the company has caused this policy to be executed and attested; "
    "it is not valid unless countersigned on the declarations by an authorized "
    "representative of the company."
)
# How the printed forms are laid out, sparsest first: each form on new pages, each coverage
# part on new pages, or run on; and the size of their print. The first layout that keeps the
# policy within MOST_PAGES is used, so a one-part policy and a six-part one both read like
# policies (ten to fifteen pages) rather than one being a pamphlet and the other a book.
LAYOUTS: tuple[tuple[str, float], ...] = (
    ("form", 11.5),
    ("form", 10.5),
    ("form", 9.5),
    ("form", 8.5),
    ("part", 11.5),
    ("part", 10.5),
    ("part", 9.5),
    ("part", 8.5),
    ("part", 7.6),
    ("run", 7.6),
    ("run", 7.0),
)
MOST_PAGES = 15


def _sections(flow: Flow, sections: tuple[wording.Section, ...], size: float) -> None:
    for heading, paragraphs in sections:
        flow.need(size * 6)
        flow.pdf.text(flow.page, MARGIN + 2.5, flow.y - size, heading.upper(), BOLD, size)
        flow.y -= size * 1.6
        for paragraph in paragraphs:
            flow.note(paragraph, size=size)
            flow.gap(size * 0.35)
        flow.gap(size * 0.4)


def _form_heading(flow: Flow, index: int) -> None:
    """The form's own heading: its number, edition and title, as printed on the form."""
    f = f"forms[{index}]"
    flow.need(60)
    flow.boxes(
        [
            Cell("Form", f"{f}.form_number", 1.2),
            Cell("Edition", f"{f}.edition", 0.8),
            Cell("Title", f"{f}.title", 6),
        ],
        height=20,
    )
    flow.gap(5)


def _layout(doc: PolicyForm, rec: Recorder, mode: str, size: float) -> PdfDocument:
    pdf = PdfDocument(rec, "Commercial insurance policy", "Commercial insurance policy")
    d = "declarations"

    def header(flow: Flow, page: int) -> float:
        top = pdf.height - MARGIN
        if page == 0:
            flow.y = title_block(flow, page, "COMMERCIAL INSURANCE POLICY", "POLICY")
            return flow.y
        pdf.field(
            page, MARGIN + 2, top - 11, f"{d}.carrier_name", width=flow.cw * 0.55, font=BOLD, size=9
        )
        pdf.text(page, MARGIN + flow.cw - 95, top - 11, "Policy number", REGULAR, 7, align="right")
        pdf.field(
            page, MARGIN + flow.cw, top - 11, f"{d}.policy_number", width=90, size=8, align="right"
        )
        pdf.line(page, MARGIN, top - 17, MARGIN + flow.cw, top - 17, 0.8)
        return top - 26

    flow = Flow(pdf, header)
    # The jacket.
    flow.prose((f"{d}.carrier_name",), size=16, after=10)
    flow.boxes(
        [
            Cell("Policy number", f"{d}.policy_number", 1.4),
            Cell("NAIC code", f"{d}.naic_code", 0.8),
            Cell("Policy period from", f"{d}.effective_date", 1.1),
            Cell("To", f"{d}.expiration_date", 1.1),
        ],
        height=24,
    )
    flow.boxes(
        [
            Cell("Named insured", f"{d}.named_insured", 3),
            Cell("Mailing address", parts=address_parts(f"{d}.mailing_address"), weight=4),
        ],
        height=24,
    )
    flow.boxes(
        [Cell("Producer", f"{d}.agency_name", 3), Cell("Producer code", f"{d}.agency_code", 1)],
        height=24,
    )
    flow.gap(10)
    for paragraph in wording.NOTICE:
        flow.note(paragraph, size=9)
        flow.gap(3)
    flow.gap(14)
    flow.note(WITNESS, size=8)
    flow.new_page()
    flow.band("Important notices to the policyholder")
    flow.gap(4)
    _sections(flow, wording.NOTICES, size)
    # Declarations and schedules.
    flow.new_page()
    flow.band("Policy declarations - coverage parts and premium")
    draw_table(flow, "coverage_parts", len(doc.coverage_parts), PARTS)
    flow.boxes(
        [
            Cell("Premium, all coverage parts", "premium.coverage_premium", align="right"),
            Cell("Taxes, surcharges and fees", "premium.taxes_and_fees", align="right"),
            Cell("Total amount due", "premium.amount_due", align="right"),
        ]
    )
    flow.gap(8)
    flow.band("Schedule of locations")
    flow.boxes(
        [Cell("Locations insured", "location_count", align="right"), Cell("", None, 3)], height=19
    )
    draw_table(flow, "locations", len(doc.locations), LOCATIONS)
    if doc.location_count is not None and doc.location_count > len(doc.locations):
        flow.note(MORE_LOCATIONS)
    if doc.interests:
        flow.band("Schedule of mortgageholders and loss payees")
        draw_table(flow, "interests", len(doc.interests), INTERESTS)
    if mode == "form":  # a forms schedule of its own, as the sparse layout prints each form
        flow.new_page()
    flow.band("Schedule of forms and endorsements")
    draw_table(flow, "forms", len(doc.forms), FORMS)
    # The printed forms, part by part: the part's schedule of limits before its first form.
    started: set[str] = set()
    for index, form in enumerate(doc.forms):
        line = str(form.line)
        first = line not in started
        if mode == "form" or (mode == "part" and first) or index == 0:
            flow.new_page()
        if first:
            started.add(line)
            PART_SCHEDULES[line](flow, doc)
            if mode == "form":  # the part's declarations are a page of their own
                flow.new_page()
        _form_heading(flow, index)
        _sections(flow, wording.form_text(str(form.form_number)), size)
        flow.gap(6)
    return pdf


def render(doc: PolicyForm, rec: Recorder) -> Output:
    for mode, size in LAYOUTS[:-1]:
        trial = Recorder(rec.doc_id, rec.doc, rec.style, rec.presentation.snapshot(), rec.wording)
        if len(_layout(doc, trial, mode, size).pages) <= MOST_PAGES:
            break
    else:
        mode, size = LAYOUTS[-1]
    pdf = _layout(doc, rec, mode, size)
    return Output(pdf.render(), len(pdf.pages))
