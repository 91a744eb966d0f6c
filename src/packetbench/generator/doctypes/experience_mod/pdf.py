"""The experience-rating worksheet as a bureau prints it: a header, one block per experience
policy (payroll and expected losses by class, then its claims), and the rating computation."""

from __future__ import annotations

from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.common import title_block
from packetbench.generator.doctypes.experience_mod.model import ExperienceMod
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.layout import PAD, Cell, Flow, Lit
from packetbench.generator.render.metrics import BOLD, MARGIN, width_of
from packetbench.generator.render.pdf import PdfDocument
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.render.table import Table
from packetbench.generator.render.table_look import Column, Totals

STYLE = Style(abbreviate=True)  # injury types as their digit, claim status as O / F
CODE = "PB-XMOD"
TITLE = "EXPERIENCE RATING WORKSHEET"
BAND_HEIGHT = 20.0

CLASS_COLUMNS = (
    Column("St", "state", 0.5),
    Column("Class code", "class_code", 0.8),
    Column("ELR", "elr", 0.6, "right"),
    Column("D-ratio", "d_ratio", 0.6, "right"),
    Column("Payroll", "payroll", 1.4, "right"),
    Column("Expected losses", "expected_losses", 1.3, "right"),
    Column("Expected primary losses", "expected_primary", 1.3, "right"),
)
CLAIM_COLUMNS = (
    Column("Claim number", "claim_number", 1.6),
    Column("Inj. type", "injury_type", 0.7),
    Column("O / F", "status", 0.6),
    Column("Actual incurred losses", "actual_incurred", 1.6, "right"),
    Column("Actual primary losses", "actual_primary", 1.6, "right"),
)
LEGEND = (
    "ELR = expected loss rate per $100 of payroll; D-ratio = primary share of expected losses. "
    "Injury type: 1 death, 2 permanent total, 3 major permanent partial, 4 minor permanent "
    "partial, 5 temporary total, 6 medical only. O / F = open or final when reported. Each "
    "claim's incurred losses are primary up to the split point, excess above it."
)
RATING_ROWS = (
    ("Expected losses (E)", "rating.expected_losses"),
    ("Expected primary losses (Ep)", "rating.expected_primary"),
    ("Expected excess losses (Ee = E - Ep)", "rating.expected_excess"),
    ("Actual incurred losses", "rating.actual_incurred"),
    ("Actual primary losses (Ap)", "rating.actual_primary"),
    ("Actual excess losses (Ae)", "rating.actual_excess"),
    ("Weighting value (W)", "rating.weighting_value"),
    ("Ballast value (B)", "rating.ballast_value"),
    ("Adjusted actual: Ap + W x Ae + (1 - W) x Ee + B", "rating.adjusted_actual"),
    ("Adjusted expected: E + B", "rating.adjusted_expected"),
    ("EXPERIENCE MODIFICATION (adjusted actual / adjusted expected)", "rating.experience_mod"),
)


def _continued(table: Table, section: str | None) -> None:
    """A continuation page names the policy whose rows it continues."""
    flow, pdf = table.flow, table.pdf
    baseline = flow.y - 8
    x = MARGIN + PAD
    x += pdf.text(flow.page, x, baseline, "POLICY", BOLD, 7.5) + 4
    path = f"{section}.policy_number"
    pdf.field(flow.page, x, baseline, path, width=160, font=BOLD, size=7.5)
    x += width_of(pdf.recorder.text_of(path) or "", BOLD, 7.5) + 4
    pdf.text(flow.page, x, baseline, "(CONTINUED)", BOLD, 7.5)
    flow.y -= 12


def _rating(flow: Flow) -> None:
    """The computation: one labelled line per total, the mod last and in bold."""
    pdf, size, height = flow.pdf, 7.5, 13.0
    flow.band("Experience rating calculation", keep_with=height * len(RATING_ROWS) + 10)
    value_x = MARGIN + flow.cw * 0.62
    for index, (label, path) in enumerate(RATING_ROWS):
        last = index == len(RATING_ROWS) - 1
        font = BOLD if last else "Helvetica"
        flow.need(height)
        if last:
            pdf.rect(flow.page, MARGIN, flow.y - height, flow.cw, height, fill=0.9)
        baseline = flow.y - height + 3.8
        pdf.text(flow.page, MARGIN + PAD, baseline, label, font, size)
        pdf.field(
            flow.page,
            value_x,
            baseline,
            path,
            width=flow.cw * 0.2,
            font=font,
            size=size,
            align="right",
        )
        flow.y -= height
        pdf.line(flow.page, MARGIN, flow.y, MARGIN + flow.cw, flow.y, 0.2)
    flow.gap(6)


def render(doc: ExperienceMod, rec: Recorder) -> Output:
    pdf = PdfDocument(rec, "Experience Rating Worksheet", f"{CODE} Experience Rating Worksheet")

    def header(flow: Flow, page: int) -> float:
        flow.y = title_block(
            flow,
            page,
            TITLE if page == 0 else f"{TITLE} (CONTINUED)",
            CODE,
            "Workers compensation experience rating modification" if page == 0 else "",
        )
        if page == 0:
            flow.boxes(
                [
                    Cell("Rating bureau", "bureau", 1.2),
                    Cell("Risk name", "risk_name", 3),
                    Cell("Risk ID", "risk_id", 1.1),
                ]
            )
            flow.boxes(
                [
                    Cell("State", "rating_state", 0.9),
                    Cell("Rating effective date", "rating_effective_date", 1.2),
                    Cell("Production date", "production_date", 1.2),
                    Cell("Split point", "split_point", 1, align="right"),
                ]
            )
        else:
            flow.boxes(
                [Cell("Risk name", "risk_name", 3), Cell("Risk ID", "risk_id", 1.1)], height=19
            )
        return flow.y - 6

    flow = Flow(pdf, header)
    classes = Table(flow, "policies[].classes", CLASS_COLUMNS, size=7, continued=_continued)
    claims = Table(flow, "policies[].claims", CLAIM_COLUMNS, size=7, continued=_continued)
    for index, policy in enumerate(doc.policies):
        prefix = f"policies[{index}]"
        flow.need(BAND_HEIGHT + classes.start_height() + 20)
        pdf.rect(flow.page, MARGIN, flow.y - BAND_HEIGHT, flow.cw, BAND_HEIGHT, fill=0.86)
        flow.boxes(
            [
                Cell("Carrier", f"{prefix}.carrier", 2.4),
                Cell("Policy number", f"{prefix}.policy_number", 1.3),
                Cell(
                    "Policy period",
                    None,
                    1.8,
                    parts=(f"{prefix}.effective_date", Lit(" to "), f"{prefix}.expiration_date"),
                ),
            ],
            height=BAND_HEIGHT,
        )
        classes.start(prefix)
        classes.rows(f"{prefix}.classes", len(policy.classes))
        classes.totals(
            Totals(
                "POLICY TOTAL",
                {
                    key: f"{prefix}.totals.{key}"
                    for key in ("payroll", "expected_losses", "expected_primary")
                },
                fill=0.94,
            )
        )
        classes.finish(4)
        claims.start(prefix)
        if not policy.claims:
            claims.banner("NO CLAIMS REPORTED")
        claims.rows(f"{prefix}.claims", len(policy.claims))
        claims.totals(
            Totals(
                "POLICY TOTAL",
                {key: f"{prefix}.totals.{key}" for key in ("actual_incurred", "actual_primary")},
                fill=0.94,
            )
        )
        claims.finish(10)
    _rating(flow)
    flow.note(LEGEND)
    return Output(pdf.render(), len(pdf.pages))
