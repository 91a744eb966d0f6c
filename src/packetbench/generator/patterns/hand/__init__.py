"""hand.* — handwriting and rubber stamps: ink on the paper, nothing in the text layer.

A submission passes through hands before it reaches an underwriter: the applicant fills the
printed form with a pen and signs it, corrects a figure by striking it through, the mail room
stamps it RECEIVED, somebody scribbles a note in the margin. All of it is ink, so these
patterns draw it as glyph outlines (`generator.render.hand`), never as PDF text: a text
extractor finds nothing there, and every such location and string is marked
`text_layer: false` (the audit reads it by OCR, judged by the "handwriting" recall level).

Truth rules (docs/patterns.md): a handwritten form value is still the value (truth unchanged, only
its location loses the text layer); a hand correction's truth is the correction, and the
struck value, still printed and readable underneath its stroke, is a visible string of the
universe (extracting it is `contradicted`); stamps, notes and signatures add visible strings
(signatures add none: a signature is a mark, its name is printed beside it) and touch no
truth path.

One module a pattern (the two signatures share one), and `common` what they share. The modules
are imported below in catalogue order, the order in which a document's patterns are chosen and
applied: moving an import changes packets. Corrections come first, so a value a hand corrects
is not also filled in by hand.
"""

# isort: off
from packetbench.generator.patterns.hand import (  # noqa: F401 (each registers its patterns)
    correction,
    filled_fields,
    signature,
    date_stamp,
    margin_note,
)
# isort: on
