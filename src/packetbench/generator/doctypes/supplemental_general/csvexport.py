"""The prior insurance history of the general supplement as the agency system exports it: one
CSV row per policy term, the named insured repeated on each; nothing else of the supplement."""

from __future__ import annotations

from packetbench.core.leaves import leaf_patterns
from packetbench.generator.doctypes.base import Output
from packetbench.generator.doctypes.supplemental_general.model import GeneralSupplement
from packetbench.generator.render.csvfile import Cell, CsvDocument
from packetbench.generator.render.fmt import Style
from packetbench.generator.render.recorder import Recorder

# Exports carry plain machine numbers: two decimals, no "$", no thousands separators.
STYLE = Style(cents=True, currency=False, thousands=False)

COLUMNS = (
    ("Named Insured", "header.named_insured"),
    ("Policy Year", "{t}.policy_year"),
    ("Line of Business", "{t}.line"),
    ("Carrier", "{t}.carrier"),
    ("Policy Number", "{t}.policy_number"),
    ("Effective Date", "{t}.effective_date"),
    ("Expiration Date", "{t}.expiration_date"),
    ("Premium", "{t}.premium"),
    ("Claim Count", "{t}.claim_count"),
    ("Incurred", "{t}.incurred"),
    ("Non-Renewed", "{t}.non_renewed"),
)

# Everything but the history and the insured's name: an export of one table shows no more.
OMITS = frozenset(
    p
    for p in leaf_patterns(GeneralSupplement)
    if not p.startswith("prior_insurance[]") and p != "header.named_insured"
)


def history_only(doc: GeneralSupplement) -> GeneralSupplement:
    """The supplement as the export sees it: no premises rows (a list it does not show is
    empty, not rows of nulls), the insured's name only on term rows."""
    update: dict[str, object] = {"premises": []}
    if not doc.prior_insurance:
        update["header"] = doc.header.model_copy(update={"named_insured": None})
    return doc.model_copy(update=update)


def render(doc: GeneralSupplement, rec: Recorder) -> Output:
    csv = CsvDocument(rec, [header for header, _ in COLUMNS])
    for index in range(len(doc.prior_insurance)):
        term = f"prior_insurance[{index}]"
        cells: list[Cell] = [(path.format(t=term),) for _, path in COLUMNS]
        csv.row(cells)
    return Output(csv.render(), 1)
