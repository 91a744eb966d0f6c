"""The universe audit (`packetbench audit`): prove every ground-truth value is on a page.

Each document's located values are read back by independent readers (the PDF text layer via
pypdfium2, workbook cells via openpyxl, CSV cells via the csv module, OCR via tesseract where
the text layer cannot be trusted) and compared with what the truth says was drawn; every
visible string is looked up in its page's text; the universe is checked for leaks and for
values that trace back to no page.
"""

from packetbench.audit.result import (
    AuditResult,
    DocumentAudit,
    Finding,
    PacketAudit,
    Tally,
)
from packetbench.audit.run import audit_packet, audit_packets

__all__ = [
    "AuditResult",
    "DocumentAudit",
    "Finding",
    "PacketAudit",
    "Tally",
    "audit_packet",
    "audit_packets",
]
