"""The property section as a letter-size PDF form: one boxed section per premises."""

from __future__ import annotations

from packetbench.generator.doctypes.acord_140.model import Premises, PropertySection
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import address_parts, title_block
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import Cell, Checks, Flow
from packetbench.generator.render.metrics import BOLD, MARGIN
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import draw_table
from packetbench.generator.render.table_look import Column

CODES = Style(abbreviate=True)  # the coverage table uses ACORD-style codes, as the legend says

SUBJECT_COLUMNS = (
    Column("Subject of insurance", "subject", 4.2, style=CODES),
    Column("Limit of insurance", "limit", 4.5, "right"),
    Column("Coins. %", "coinsurance_percent", 2.6, "right"),
    Column("Valuation", "valuation", 2.8, style=CODES),
    Column("Causes of loss", "causes_of_loss", 5.0),
    Column("Deductible", "deductible", 3.6, "right"),
    Column("Deductible type", "deductible_type", 4.0),
)

LEGEND = (
    "Subject codes: BLDG building; BPP business personal property; BUSIN business income "
    "with extra expense (written at 100% coinsurance). Valuation codes: RC replacement cost; "
    "ACV actual cash value; AA agreed amount; MV market value. Limits agree with the statement "
    "of values submitted with this application."
)

BOX = 21.0  # height of a row of labelled boxes (Flow.boxes default)
SUBHEAD = 10.0
ROW = 7.0 * 1.18 + 3.5  # one coverage-table row at the table's 7 pt body size


def _subhead(flow: Flow, text: str) -> None:
    """A small bold caption above a group of boxes, kept with the first row below it."""
    flow.need(SUBHEAD + BOX)
    flow.pdf.text(flow.page, MARGIN + 1, flow.y - 7.2, text.upper(), BOLD, 6.3)
    flow.y -= SUBHEAD


def _section_height(premises: Premises) -> float:
    """A generous estimate of one premises section, so a section is never split."""
    return 12 + 5 * BOX + 4 * SUBHEAD + 14 + ROW * len(premises.subjects) + 40


def _interest_row(flow: Flow, prefix: str) -> None:
    """Owner / tenant checkboxes beside the mortgagee and loan-number boxes."""
    flow.boxes(
        [
            Checks(
                "Applicant's interest",
                (("Owner", f"{prefix}.interest.owner"), ("Tenant", f"{prefix}.interest.tenant")),
                2.0,
            ),
            Cell(
                "Additional interest - mortgagee",
                f"{prefix}.additional_interest.mortgagee_name",
                4.0,
            ),
            Cell("Loan number", f"{prefix}.additional_interest.loan_number", 1.7),
        ],
        height=BOX,
    )


def _premises(flow: Flow, index: int, premises: Premises) -> None:
    p = f"premises[{index}]"
    flow.need(_section_height(premises))
    flow.band(f"Premises {premises.premises_number} - Building {premises.building_number}")
    flow.boxes(
        [
            Cell("Premises #", f"{p}.premises_number", 0.8),
            Cell("Building #", f"{p}.building_number", 0.8),
            Cell("Street address, city, state, ZIP", parts=address_parts(f"{p}.address"), weight=6),
        ]
    )
    flow.boxes([Cell("Building description", f"{p}.building_description")])
    _subhead(flow, "Subjects of insurance")
    draw_table(flow, f"{p}.subjects", len(premises.subjects), SUBJECT_COLUMNS)
    flow.gap(-3)  # the table leaves room for a following block; the caption needs less
    c = f"{p}.construction"
    _subhead(flow, "Construction")
    flow.boxes(
        [
            Cell("Construction type", f"{c}.construction", 2.4),
            Cell("Stories", f"{c}.stories", 0.8, align="right"),
            Cell("Basements", f"{c}.basements", 0.9, align="right"),
            Cell("Year built", f"{c}.year_built", 0.9, align="right"),
            Cell("Total area (sq ft)", f"{c}.floor_area", 1.3, align="right"),
            Cell("Roof covering", f"{c}.roof_covering", 2.0),
            Cell("Wind class", f"{c}.wind_class", 1.4),
        ]
    )
    i = f"{p}.improvements"
    _subhead(flow, "Building improvements - year last updated")
    flow.boxes(
        [
            Cell("Wiring", f"{i}.wiring_year"),
            Cell("Roofing", f"{i}.roofing_year"),
            Cell("Plumbing", f"{i}.plumbing_year"),
            Cell("Heating", f"{i}.heating_year"),
        ]
    )
    f = f"{p}.fire_protection"
    _subhead(flow, "Fire protection and security")
    flow.boxes(
        [
            Cell("Protection class", f"{f}.protection_class", 1.0, align="right"),
            Cell("Hydrant distance (ft)", f"{f}.hydrant_feet", 1.2, align="right"),
            Cell("Fire station (miles)", f"{f}.station_miles", 1.1, align="right"),
            Cell("Sprinklered %", f"{f}.sprinklered_percent", 0.95, align="right"),
            Cell("Sprinkler type", f"{f}.sprinkler_type", 1.1),
            Cell("Fire alarm", f"{f}.fire_alarm", 1.3),
            Cell("Burglar alarm", f"{p}.burglar_alarm", 1.3),
        ]
    )
    flow.gap(4)
    _interest_row(flow, p)
    flow.gap(12)


def render(doc: PropertySection, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Property Section", "PB-140 Property Section")

    def header(flow: Flow, page: int) -> float:
        h = "header"
        if page == 0:
            flow.y = title_block(
                flow,
                page,
                "PROPERTY SECTION",
                "PB-140",
                "Commercial property application: premises, coverages and COPE",
            )
            flow.boxes(
                [
                    Cell("Agency", f"{h}.agency_name", 3),
                    Cell("Carrier", f"{h}.carrier_name", 3),
                    Cell("NAIC code", f"{h}.naic_code", 1),
                ]
            )
        else:
            flow.y = title_block(flow, page, "PROPERTY SECTION (CONTINUED)", "PB-140")
        flow.boxes(
            [
                Cell("Named insured", f"{h}.named_insured", 4),
                Cell("Policy number", f"{h}.policy_number", 1.5),
                Cell("Effective date", f"{h}.effective_date", 1.2),
            ]
        )
        return flow.y - 8

    flow = Flow(pdf, header)
    flow.note(LEGEND)
    flow.gap(4)
    for index, premises in enumerate(doc.premises):
        _premises(flow, index, premises)
    data = pdf.render()
    return Output(data, len(pdf.pages))
