"""Each source of a document's values has its auditor behind one interface (`audit.sources`):
every format a packet carries is read by its source, and what a document's audit tallies names
only the readers of its format's sources."""

from __future__ import annotations

import inspect

from packetbench.audit.document import CELL_SOURCES, audit_document
from packetbench.audit.sources.base import SourceAuditor
from packetbench.audit.sources.csvfile import CsvAuditor
from packetbench.audit.sources.scanned import ScannedPageAuditor
from packetbench.audit.sources.textlayer import TextLayerAuditor
from packetbench.audit.sources.workbook import WorkbookAuditor
from packetbench.truth.documents import FORMATS, read_packet
from tests.support.paths import PACKETS


def test_every_format_has_its_source() -> None:
    assert set(CELL_SOURCES) | {"pdf"} == set(FORMATS)
    sources = (TextLayerAuditor, ScannedPageAuditor, WorkbookAuditor, CsvAuditor)
    for source in sources:
        assert issubclass(source, SourceAuditor) and not inspect.isabstract(source)
    assert [s.reader for s in sources] == ["pdf", "ocr", "xlsx", "csv"]


def test_each_document_is_read_by_its_formats_source() -> None:
    """Without OCR a PDF's values are read by its text layer (what it cannot read is counted
    unchecked), a workbook's by the workbook's cells, a CSV file's by its cells."""
    readers: dict[str, type[SourceAuditor]] = {
        "pdf": TextLayerAuditor,
        "xlsx": WorkbookAuditor,
        "csv": CsvAuditor,
    }
    seen = set()
    for doc in read_packet(PACKETS / "N1-000001").documents:
        audit = audit_document(doc)
        assert audit.findings == [], (doc.doc_id, audit.findings[:3])
        assert set(audit.fields) == {readers[doc.format].reader}, doc.doc_id
        assert audit.fields[readers[doc.format].reader].found > 0, doc.doc_id
        seen.add(doc.format)
    assert seen == set(FORMATS)
