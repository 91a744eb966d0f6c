"""The sources a document's values are read back from, one auditor each behind one interface
(`base.SourceAuditor`): a PDF page's text layer (`textlayer`), a scanned PDF page (`scanned`:
the pixel rule, its calibration, OCR), a workbook (`workbook`) and a CSV file (`csvfile`);
`pdf` gives each page of a PDF to its source."""
