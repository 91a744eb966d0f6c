"""textlayer.* — PDF structure attacks: the page looks the same, its text layer does not
(emit and post phases). scan.ocr_layer, a scan with an invisible OCR layer that lies, draws its
layer with the helpers of `invisible_ocr` and `common`.

The truth never changes: it is what a person reads on the page (docs/patterns.md rule 1). What
changes is which reader can prove it:
- a value whose text layer no longer yields it (scrambled or gapped ToUnicode, glyph
  outlines, spaces turned into TJ offsets, a lying layer drawn over it, lines of it out of
  order) keeps its truth; its location gets ``text_layer: false`` (only OCR of the page image
  can confirm it, rule 2) and the record lists it under ``details.unreadable`` (page -> paths),
  which the audit checks: the text layer must really not yield it there;
- text nobody can see (an invisible OCR layer's misreadings, white text, a hidden
  optional-content layer, the part of a string past a clipping path) goes to
  ``rendered_universe.hidden``, never to the truth (rule 3); the audit checks it is in the
  text layer and, with OCR, not on the page image.
Rules drawn as fragments or curves change no text at all: their records count what was drawn.

A value split across pages (table.row_split) is read as its pieces joined, so no attack picks
one piece of it, and the attacks that change a whole page's text layer are not combined with
row splits.

One text attack per document: two would act on each other's output (a kerned run cannot be
scrambled by the same rule the audit expects). The rule attacks combine with any of them. None
is combined with a scan: a scanned page has no text layer left to attack (scan.ocr_layer is the
scan that brings its own).

One module a pattern (a pair sharing their drawing in one), and `common` what they share. The
modules are imported below in catalogue order, the order in which a document's patterns are
chosen and applied: moving an import changes packets.
"""

# isort: off
from packetbench.generator.patterns.textlayer import (  # noqa: F401 (each registers its patterns)
    invisible_ocr,
    reading_order,
    kerning,
    tounicode,
    clipped,
    hidden_layer,
    white_text,
    outlined,
    microtext,
    rules,
)
# isort: on
