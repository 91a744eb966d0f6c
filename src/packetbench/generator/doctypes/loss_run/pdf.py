"""The loss run as a landscape PDF report: one section per policy term, then grand totals."""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import title_block
from packetbench.generator.doctypes.loss_run.model import LossRun
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import PAD, Cell, Flow, Lit
from packetbench.generator.render.metrics import BOLD, MARGIN, REGULAR, width_of
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import Table
from packetbench.generator.render.table_look import Column, Totals

# Claim amounts are rarely whole dollars; a whole-dollar style would still show cents where
# they exist, but a column mixing "$1,200" and "$1,250.40" is not how a carrier prints money.
STYLE = Style(cents=True)
STATUS_STYLE = Style(cents=True, abbreviate=True)

COLUMNS = (
    Column("Claim Number", "claim_number", 9.5),
    Column("Date of Loss", "loss_date", 6.2),
    Column("Date Reported", "report_date", 6.2),
    Column("Date Closed", "closed_date", 6.2),
    Column("Claimant", "claimant", 14),
    Column("Description of Loss", "description", 19),
    Column("Loc #", "location_number", 3.6, "right"),
    Column("Status", "status", 7.2, style=STATUS_STYLE),
    Column("Paid", "paid", 8.4, "right"),
    Column("Outstanding Reserve", "reserve", 8.4, "right"),
    Column("Total Incurred", "incurred", 8.4, "right"),
)
BAND_HEIGHT = 20.0
TOTAL_KEYS = ("paid", "reserve", "incurred")


def _continued(table: Table, section: str | None) -> None:
    """A continuation page names the policy whose claims it continues."""
    flow, pdf = table.flow, table.pdf
    baseline = flow.y - 8
    x = MARGIN + PAD
    x += pdf.text(flow.page, x, baseline, "POLICY", BOLD, 7.5) + 4
    path = f"{section}.policy_number"
    pdf.field(flow.page, x, baseline, path, width=160, font=BOLD, size=7.5)
    x += width_of(pdf.recorder.text_of(path) or "", BOLD, 7.5) + 4
    pdf.text(flow.page, x, baseline, "(CONTINUED)", REGULAR, 7.5)
    flow.y -= 12


def render(doc: LossRun, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Loss Run", "PB-LR Loss Run / Loss History Report", wide=True)

    def header(flow: Flow, page: int) -> float:
        flow.y = title_block(
            flow,
            page,
            "LOSS RUN / LOSS HISTORY REPORT",
            "PB-LR",
            "Amounts in U.S. dollars as of the valuation date. "
            "Total incurred = paid + outstanding reserve.",
        )
        flow.boxes(
            [
                Cell("Named insured", "insured_name", 3),
                Cell("Agency", "agency_name", 2.2),
                Cell("Valued as of", "valuation_date", 1),
                Cell("Run date", "run_date", 1),
            ]
        )
        return flow.y - 8

    flow = Flow(pdf, header)
    table = Table(flow, "policies[].claims", COLUMNS, size=6.8, continued=_continued)
    for index, policy in enumerate(doc.policies):
        prefix = f"policies[{index}]"
        flow.need(BAND_HEIGHT + table.start_height())
        # The band is a row of labelled boxes on a shaded ground.
        pdf.rect(flow.page, MARGIN, flow.y - BAND_HEIGHT, flow.cw, BAND_HEIGHT, fill=0.86)
        flow.boxes(
            [
                Cell("Carrier", f"{prefix}.carrier", 3),
                Cell("Policy number", f"{prefix}.policy_number", 1.6),
                Cell("Line of business", f"{prefix}.line_of_business", 1.6),
                Cell(
                    "Policy period",
                    None,
                    1.9,
                    parts=(f"{prefix}.effective_date", Lit(" to "), f"{prefix}.expiration_date"),
                ),
            ],
            height=BAND_HEIGHT,
        )
        table.start(prefix)
        if not policy.claims:
            table.banner("NO LOSSES REPORTED")
        table.rows(f"{prefix}.claims", len(policy.claims))
        table.totals(
            Totals(
                "POLICY TOTAL",
                {key: f"{prefix}.totals.{key}" for key in TOTAL_KEYS},
                counts=(
                    ("Claims:", f"{prefix}.totals.claim_count"),
                    ("Open:", f"{prefix}.totals.open_claims"),
                ),
                fill=0.94,
                rule=0.6,
                allow_wrap=False,
            )
        )
        table.finish(8)

    # The totals boxes and the closing note stay on the band's page.
    flow.band("Grand total - all policy terms", keep_with=21 + 6 + 24)
    flow.boxes(
        [
            Cell("Total claims", "grand_totals.claim_count", 1, align="right"),
            Cell("Open claims", "grand_totals.open_claims", 1, align="right"),
            Cell("Total paid", "grand_totals.paid", 1.4, align="right"),
            Cell("Total outstanding reserve", "grand_totals.reserve", 1.4, align="right"),
            Cell("Total incurred", "grand_totals.incurred", 1.4, align="right"),
        ]
    )
    flow.gap(6)
    flow.note(
        "Open claims include claims re-opened, in subrogation or in suit. Status CWP = "
        "closed without payment. Loc # = insured location number for property claims. "
        "Reserves are estimates as of the valuation date and may change."
    )
    data = pdf.render()
    return Output(data, len(pdf.pages))
