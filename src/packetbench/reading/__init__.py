"""Reading what a page shows: OCR engines (`tesseract`, `ppocr`), page imaging (`imaging`,
`boxcrops`), the PDF text layer (`pdftext`), one text folding (`text`), an OCR'd page and its
matching rules (`page`), the ways a page is read (`boxes`, `strategies`), and the legibility
rule: when a value's box is legible, in the file (`legibility`) and at a resolution a model is
sent (`resolution`).

Below the audit, the generator and the benchmark: it imports `core` and `truth` (value
normalisation) alone.
"""
