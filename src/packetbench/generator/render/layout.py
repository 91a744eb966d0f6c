"""Form widgets and paginated tables on a top-down cursor.

A `Flow` owns the page cursor of one PDF document. Widgets draw labelled boxes, checkbox
grids, yes/no question rows, paragraphs and tables whose header repeats on every continuation
page. Every value is drawn through `PdfDocument.field` or `checkbox`, so it is located as it is
drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from packetbench.generator.errors import LayoutError
from packetbench.generator.render.metrics import BOLD, MARGIN, REGULAR, fit, width_of
from packetbench.generator.render.pdf import PdfDocument

BOTTOM = MARGIN + 2
PAD = 2.5  # horizontal padding inside a box or cell

Header = Callable[["Flow", int], float]  # draws a page's running header, returns the cursor


def anchor(left: float, width: float, align: str) -> float:
    """The x a string of alignment `align` is drawn from inside a cell."""
    if align == "right":
        return left + width - PAD
    if align == "center":
        return left + width / 2
    return left + PAD


@dataclass(frozen=True)
class Lit:
    """Literal text between values in an inline sequence (", " between city and state)."""

    text: str


Part = str | Lit  # a leaf path, or literal text


@dataclass(frozen=True)
class Cell:
    """A labelled box in a row of boxes: one value (`path`) or an inline sequence (`parts`)."""

    label: str
    path: str | None = None
    weight: float = 1.0
    parts: tuple[Part, ...] = ()
    align: str = "left"


@dataclass(frozen=True)
class Checks:
    """A labelled box holding a row of checkboxes, each followed by its caption."""

    label: str
    options: tuple[tuple[str, str], ...]  # (caption, checkbox leaf path)
    weight: float = 1.0


def _cell_path(cell: Cell | Checks) -> str | None:
    """A path inside the box, naming the section its label belongs to."""
    if isinstance(cell, Checks):
        return cell.options[0][1] if cell.options else None
    if cell.path is not None:
        return cell.path
    return next((part for part in cell.parts if isinstance(part, str)), None)


class Flow:
    """The top-down cursor over the pages of one document."""

    def __init__(self, pdf: PdfDocument, header: Header) -> None:
        self.pdf = pdf
        self.header = header
        self.cw = pdf.content_width
        self.top = pdf.height - MARGIN
        self.page = -1
        self.y = self.top
        self.new_page()

    @property
    def rec(self) -> str:
        return self.pdf.recorder.doc_id

    def new_page(self) -> None:
        self.page = self.pdf.new_page()
        self.y = self.header(self, self.page)

    def need(self, height: float) -> None:
        """Start a new page unless `height` points fit below the cursor."""
        if self.y - height < BOTTOM:
            self.new_page()

    def gap(self, height: float = 4.0) -> None:
        self.y -= height

    # --- simple widgets ---------------------------------------------------------------------

    def band(self, title: str, keep_with: float = 30.0) -> None:
        """A shaded section heading, kept on the same page as the next `keep_with` points."""
        height = 12.0
        self.need(height + keep_with)
        self.pdf.rect(self.page, MARGIN, self.y - height, self.cw, height, fill=0.82)
        self.pdf.text(self.page, MARGIN + 3, self.y - height + 3.4, title.upper(), BOLD, 7.5)
        self.y -= height

    def note(self, text: str, size: float = 6.5) -> None:
        """Boilerplate prose (part of the rendered universe, never a field)."""
        _, lines = fit(text, REGULAR, size, self.cw - 2 * PAD, allow_wrap=True)
        leading = size * 1.2
        self.need(leading * len(lines) + 3)
        baseline = self.y - size - 1
        for line in lines:
            self.pdf.text(self.page, MARGIN + PAD, baseline, line, REGULAR, size)
            baseline -= leading
        self.y -= leading * len(lines) + 3

    def boxes(self, cells: Sequence[Cell | Checks], height: float = 21.0) -> None:
        """A row of labelled boxes across the content width, widths by weight."""
        self.need(height)
        total = sum(c.weight for c in cells)
        x = MARGIN
        for cell in cells:
            w = self.cw * cell.weight / total
            self.pdf.rect(self.page, x, self.y - height, w, height)
            label = self.pdf.look.label(cell.label, _cell_path(cell), self.page + 1)
            self.pdf.text(self.page, x + PAD, self.y - 6.3, label.upper(), REGULAR, 5.5)
            baseline = self.y - height + 4.6
            if isinstance(cell, Checks):
                cx = x + PAD
                for caption, path in cell.options:
                    self.pdf.checkbox(self.page, cx, baseline - 1.2, path)
                    cx += 10 + self.pdf.text(self.page, cx + 10, baseline, caption, REGULAR, 6.8)
                    cx += 8
            elif cell.parts:
                self._inline(x + PAD, baseline, w - 2 * PAD, cell.parts)
            elif cell.path is not None:
                self.pdf.field(
                    self.page,
                    anchor(x, w, cell.align),
                    baseline,
                    cell.path,
                    width=w - 2 * PAD,
                    size=8.0,
                    align=cell.align,
                )
            x += w
        self.y -= height

    def _inline(self, x: float, baseline: float, width: float, parts: tuple[Part, ...]) -> None:
        """Values and literals on one line; a null value drops itself and the literal before."""
        pieces: list[tuple[str | None, str]] = []  # (path or None for literal, text)
        for part in parts:
            if isinstance(part, Lit):
                pieces.append((None, part.text))
                continue
            text = self.pdf.recorder.text_of(part)
            if text is None:
                if pieces and pieces[-1][0] is None:
                    pieces.pop()
                continue
            pieces.append((part, text))
        while pieces and pieces[-1][0] is None:
            pieces.pop()
        while pieces and pieces[0][0] is None:
            pieces.pop(0)
        # Each piece advances by its own width in the font that draws it (a pattern may draw
        # a value in another font: ligatures, another script).
        recorder = self.pdf.recorder
        fonts = [
            REGULAR if path is None else recorder.font_for(path, REGULAR) for path, _ in pieces
        ]
        full = sum(width_of(text, font, 1.0) for (_, text), font in zip(pieces, fonts, strict=True))
        size = 8.0 if full * 8.0 <= width else width / full if full else 8.0
        if size < 4.5:
            raise LayoutError(f"{self.rec}: inline values too long for their box: {parts}")
        for (path, text), font in zip(pieces, fonts, strict=True):
            if path is None:
                self.pdf.text(self.page, x, baseline, text, REGULAR, size)
            else:
                self.pdf.field(self.page, x, baseline, path, width=width, size=size, rendered=text)
            x += width_of(recorder.presentation.glyphs.get(path or "", text), font, size)

    def checks(
        self, options: Sequence[tuple[str, str]], columns: int = 4, label: str | None = None
    ) -> None:
        """A grid of checkboxes, each followed by its label."""
        row_height = 11.0
        rows = (len(options) + columns - 1) // columns
        label_width = 0.0
        if label:
            label_width = width_of(label.upper(), REGULAR, 5.5) + 8
        self.need(rows * row_height + 4)
        if label:
            self.pdf.text(self.page, MARGIN + PAD, self.y - 8.5, label.upper(), REGULAR, 5.5)
        col_width = (self.cw - label_width) / columns
        for index, (text, path) in enumerate(options):
            row, col = divmod(index, columns)
            x = MARGIN + label_width + col * col_width + PAD
            y = self.y - (row + 1) * row_height + 2
            self.pdf.checkbox(self.page, x, y, path)
            self.pdf.text(self.page, x + 10, y + 1.4, text, REGULAR, 6.8)
        self.y -= rows * row_height + 3
        self.pdf.line(self.page, MARGIN, self.y + 1, MARGIN + self.cw, self.y + 1, 0.3)

    def paragraph(self, label: str, path: str, size: float = 7.5) -> None:
        """A labelled box holding wrapped prose; it grows to fit."""
        text = self.pdf.recorder.text_of(path)
        font = self.pdf.recorder.font_for(path, REGULAR)
        _, lines = fit(text or "", font, size, self.cw - 2 * PAD, allow_wrap=True)
        leading = size * 1.18
        height = 10 + leading * len(lines) + 3
        self.need(height)
        self.pdf.rect(self.page, MARGIN, self.y - height, self.cw, height)
        self.pdf.text(self.page, MARGIN + PAD, self.y - 6.3, label.upper(), REGULAR, 5.5)
        self.pdf.field(
            self.page,
            MARGIN + PAD,
            self.y - 10 - size * 0.8,
            path,
            width=self.cw - 2 * PAD,
            size=size,
            allow_wrap=True,
        )
        self.y -= height

    def prose(
        self,
        parts: Sequence[Part],
        size: float = 8.5,
        indent: float = 0.0,
        font: str = REGULAR,
        leading: float = 1.32,
        after: float = 5.0,
    ) -> None:
        """A paragraph of running text: literals and facts (leaf paths) wrapped as words.

        Facts are never broken: a fact is one unbreakable word (with any punctuation glued to
        it), so each located value sits whole on one line and reads back whole from its box;
        a line breaks only at a space between words. A paragraph that is a single fact (free
        prose of kind `text`, one value) wraps inside itself instead and is located as one
        box over its lines. Lines go onto the next page when the page is full.
        """
        width = self.cw - 2 * PAD - indent
        x0 = MARGIN + PAD + indent
        line_height = size * leading
        if len(parts) == 1 and isinstance(parts[0], str):
            whole = parts[0]
            text = self.pdf.recorder.text_of(whole)
            if text is None:
                raise LayoutError(f"{self.rec}: prose paragraph {whole} is null")
            used = self.pdf.recorder.font_for(whole, font)
            fsize, wrapped = fit(text, used, size, width, allow_wrap=True)
            self.need(fsize * leading * len(wrapped) + 2)
            self.pdf.field(
                self.page,
                x0,
                self.y - fsize,
                whole,
                width=width,
                font=used,
                size=fsize,
                allow_wrap=True,
                leading=leading,
            )
            self.y -= fsize * leading * len(wrapped) + after
            return
        words = self._words(parts, font, size)
        space = width_of(" ", font, size)
        lines: list[list[list[tuple[str | None, str, str]]]] = [[]]
        used_width = 0.0
        for word in words:
            word_width = sum(width_of(shown, f, size) for _, shown, f in word)
            if word_width > width:
                named = next((p for p, *_ in word if p is not None), None)
                raise LayoutError(f"{self.rec}: {named or 'a word'} is wider than a prose line")
            extra = word_width + (space if lines[-1] else 0.0)
            if lines[-1] and used_width + extra > width:
                lines.append([])
                used_width, extra = 0.0, word_width
            lines[-1].append(word)
            used_width += extra
        for line in lines:
            self.need(line_height)
            self._prose_line(x0, self.y - size, line, font, size)
            self.y -= line_height
        self.y -= after

    def _words(
        self, parts: Sequence[Part], font: str, size: float
    ) -> list[list[tuple[str | None, str, str]]]:
        """Unbreakable words of a paragraph: (path or None, text drawn, font) pieces.

        Literal text breaks at its spaces; a fact and any literal glued to it without a space
        (a closing comma, an opening "$") form one word.
        """
        recorder = self.pdf.recorder
        words: list[list[tuple[str | None, str, str]]] = []
        glue = False  # whether the next piece continues the last word
        for part in parts:
            if isinstance(part, Lit):
                chunks = part.text.split(" ")
                for index, chunk in enumerate(chunks):
                    if index > 0:
                        glue = False
                    if chunk:
                        if glue and words:
                            words[-1].append((None, chunk, font))
                        else:
                            words.append([(None, chunk, font)])
                        glue = True
                continue
            text = recorder.text_of(part)
            if text is None:
                raise LayoutError(f"{self.rec}: prose states {part}, which is null")
            used = recorder.font_for(part, font)
            shown = recorder.presentation.glyphs.get(part, text)
            piece = (part, shown, used)
            if glue and words:
                words[-1].append(piece)
            else:
                words.append([piece])
            glue = True
        return words

    def _prose_line(
        self,
        x: float,
        baseline: float,
        line: list[list[tuple[str | None, str, str]]],
        font: str,
        size: float,
    ) -> None:
        """One line of prose: literal runs as plain text (spaces included, so the text layer
        reads the sentence), each fact drawn and located through the recorder."""
        run = ""
        for position, word in enumerate(line):
            if position:
                run += " "
            for path, shown, used in word:
                if path is None:
                    run += shown
                    continue
                if run:
                    x += self.pdf.text(self.page, x, baseline, run, font, size)
                    run = ""
                text = self.pdf.recorder.text_of(path)
                assert text is not None  # checked when the words were built
                self.pdf.lines(self.page, x, baseline, path, text, [text], font=used, size=size)
                x += width_of(shown, used, size)
        if run.strip():
            self.pdf.text(self.page, x, baseline, run, font, size)

    def questions(self, rows: Sequence[tuple[str, str, str | None]]) -> None:
        """Numbered yes/no questions: question text, Y/N answer, optional explanation."""
        q_width, a_width = self.cw * 0.52, 22.0
        e_width = self.cw - q_width - a_width
        size, leading = 6.8, 6.8 * 1.2
        for number, (question, answer, explanation) in enumerate(rows, start=1):
            _, q_lines = fit(f"{number}. {question}", REGULAR, size, q_width - 2 * PAD, True)
            e_text = self.pdf.recorder.text_of(explanation) if explanation else None
            e_font = self.pdf.recorder.font_for(explanation, REGULAR) if explanation else REGULAR
            _, e_lines = fit(e_text or "", e_font, size, e_width - 2 * PAD, True)
            height = max(len(q_lines), len(e_lines)) * leading + 4
            self.need(height)
            baseline = self.y - size - 1.5
            for line in q_lines:
                self.pdf.text(self.page, MARGIN + PAD, baseline, line, REGULAR, size)
                baseline -= leading
            self.pdf.field(
                self.page,
                MARGIN + q_width + a_width / 2,
                self.y - size - 1.5,
                answer,
                width=a_width - 2 * PAD,
                size=size,
                align="center",
            )
            if explanation:
                self.pdf.field(
                    self.page,
                    MARGIN + q_width + a_width + PAD,
                    self.y - size - 1.5,
                    explanation,
                    width=e_width - 2 * PAD,
                    size=size,
                    allow_wrap=True,
                )
            self.y -= height
            self.pdf.line(self.page, MARGIN, self.y + 1, MARGIN + self.cw, self.y + 1, 0.2)

    def check_grid(
        self,
        columns: Sequence[str],
        rows: Sequence[tuple[str, Sequence[str | None]]],
        label: str = "",
        label_share: float = 0.34,
    ) -> None:
        """A checkbox matrix: a row per label, a column per option, a box where the path is
        not None; the column captions repeat on every page the grid reaches."""
        row_height, head_height = 11.0, 11.0
        label_width = self.cw * label_share
        col_width = (self.cw - label_width) / len(columns)

        def caption_row() -> None:
            self.pdf.rect(self.page, MARGIN, self.y - head_height, self.cw, head_height, fill=0.9)
            self.pdf.text(self.page, MARGIN + PAD, self.y - 8, label.upper(), BOLD, 5.8)
            for index, caption in enumerate(columns):
                self.pdf.text(
                    self.page,
                    MARGIN + label_width + (index + 0.5) * col_width,
                    self.y - 8,
                    caption,
                    BOLD,
                    6.0,
                    align="center",
                )
            self.y -= head_height

        self.need(head_height + row_height * min(3, len(rows)))
        caption_row()
        for text, paths in rows:
            if self.y - row_height < BOTTOM:
                self.new_page()
                caption_row()
            self.pdf.text(self.page, MARGIN + PAD, self.y - 8, text, REGULAR, 6.8)
            for index, path in enumerate(paths):
                if path is not None:
                    x = MARGIN + label_width + (index + 0.5) * col_width - 3.5
                    self.pdf.checkbox(self.page, x, self.y - 9.5, path)
            self.y -= row_height
            self.pdf.line(self.page, MARGIN, self.y, MARGIN + self.cw, self.y, 0.2)
        self.gap(6)
