"""The claims table of one loss-run policy section, built on a `Flow` cursor.

`Flow.table` has one spanning label in its totals row and nothing to say which policy a
continuation page belongs to. A loss run needs both: the policy-total row carries the claim
and open-claim counts beside its label, a policy without claims shows a "NO LOSSES REPORTED"
row, and a page the table continues onto names the policy again.
"""

from __future__ import annotations

from collections.abc import Sequence

from generator.render.layout import BOTTOM, PAD, Column, Flow
from generator.render.pdf import BOLD, MARGIN, REGULAR, fit, width_of

Cell = tuple[str, str, float, int | None]  # (path, text, font size, lines once fitted)


class ClaimsTable:
    """Column geometry shared by every policy section of one document."""

    def __init__(self, flow: Flow, columns: Sequence[Column], *, size: float = 6.8,
                 header_size: float = 6.0, first_total: str = "paid") -> None:
        self.flow = flow
        self.pdf = flow.pdf
        self.columns = tuple(columns)
        self.size = size
        self.leading = size * 1.18
        scale = flow.cw / sum(c.width for c in columns)
        self.widths = [c.width * scale for c in columns]
        self.lefts = [MARGIN + sum(self.widths[:i]) for i in range(len(columns))]
        self.head = [fit(c.header.upper(), BOLD, header_size, w - 2 * PAD, True)
                     for c, w in zip(columns, self.widths, strict=True)]
        self.head_height = max(len(lines) for _, lines in self.head) * header_size * 1.15 + 4
        # Columns left of the first amount column hold the totals row's label and counts.
        self.span = next(i for i, c in enumerate(columns) if c.key == first_total)
        self.row_height = self.leading + 3.5
        self.segment_top = flow.y

    def start_height(self) -> float:
        """Room a section needs on its first page: header, one row and the totals row."""
        return self.head_height + 2 * self.row_height + 2

    # --- sections ---------------------------------------------------------------------------

    def section(self, policy: str, count: int) -> None:
        """The claims of `policy` (a path such as ``policies[2]``), then its totals row."""
        self._header()
        if count == 0:
            # The banner spans the whole row: no column rules through it.
            self._room(self.row_height, policy)
            self._close()
            self.pdf.text(self.flow.page, MARGIN + self.flow.cw / 2,
                          self.flow.y - self.size - 1.2, "NO LOSSES REPORTED", BOLD, self.size,
                          align="center")
            self._rule(self.row_height)
            for x in (MARGIN, MARGIN + self.flow.cw):
                self.pdf.line(self.flow.page, x, self.segment_top, x, self.flow.y, 0.3)
            self.segment_top = self.flow.y
        for index in range(count):
            self._row(policy, f"{policy}.claims[{index}]")
        self._totals(policy)

    def _row(self, policy: str, claim: str) -> None:
        cells: list[Cell | None] = []
        for column, w in zip(self.columns, self.widths, strict=True):
            path = f"{claim}.{column.key}"
            text = self.pdf.recorder.text_of(path, column.style)
            if text is None:
                cells.append(None)
                continue
            # Most cells fit on one line; measuring once spares the word-by-word wrap.
            if width_of(text, REGULAR, self.size) <= w - 2 * PAD:
                cells.append((path, text, self.size, None))
                continue
            fsize, lines = fit(text, REGULAR, self.size, w - 2 * PAD, allow_wrap=True)
            cells.append((path, text, fsize, len(lines)))
        lines_needed = max((c[3] or 1 for c in cells if c is not None), default=1)
        height = lines_needed * self.leading + 3.5
        self._room(height, policy)
        baseline = self.flow.y - self.size - 1.2
        for cell, left, w, column in zip(cells, self.lefts, self.widths, self.columns,
                                         strict=True):
            if cell is None:
                continue
            path, text, fsize, fitted = cell
            anchor = left + w - PAD if column.align == "right" else left + PAD
            self.pdf.field(self.flow.page, anchor, baseline, path, width=w - 2 * PAD,
                           size=fsize, align=column.align, allow_wrap=fitted is not None,
                           rendered=text)
        self._rule(height)

    def _totals(self, policy: str) -> None:
        flow, pdf = self.flow, self.pdf
        self._room(self.row_height, policy)
        self._close()
        page, top = flow.page, flow.y
        baseline = top - self.size - 1.2
        pdf.rect(page, MARGIN, top - self.row_height, flow.cw, self.row_height, fill=0.94)
        x = MARGIN + PAD
        x += pdf.text(page, x, baseline, "POLICY TOTAL", BOLD, self.size) + 14
        for label, key in (("Claims:", "claim_count"), ("Open:", "open_claims")):
            x += pdf.text(page, x, baseline, label, REGULAR, self.size) + 3
            count = pdf.recorder.text_of(f"{policy}.totals.{key}") or ""
            pdf.field(page, x, baseline, f"{policy}.totals.{key}", width=60, font=BOLD,
                      size=self.size)
            x += width_of(count, BOLD, self.size) + 12
        for column, left, w in zip(self.columns[self.span:], self.lefts[self.span:],
                                   self.widths[self.span:], strict=True):
            path = f"{policy}.totals.{column.key}"
            text = pdf.recorder.text_of(path, column.style)
            if text is None:
                continue
            fsize, _ = fit(text, BOLD, self.size, w - 2 * PAD, allow_wrap=False)
            pdf.field(page, left + w - PAD, baseline, path, width=w - 2 * PAD, font=BOLD,
                      size=fsize, align="right", rendered=text)
        flow.y -= self.row_height
        edges = [MARGIN, *self.lefts[self.span:], MARGIN + flow.cw]
        for edge in edges:
            pdf.line(page, edge, top, edge, flow.y, 0.3)
        pdf.line(page, MARGIN, flow.y, MARGIN + flow.cw, flow.y, 0.6)
        self.segment_top = flow.y
        flow.gap(8)

    # --- pieces -----------------------------------------------------------------------------

    def _header(self) -> None:
        flow, pdf = self.flow, self.pdf
        self.segment_top = flow.y
        pdf.rect(flow.page, MARGIN, flow.y - self.head_height, flow.cw, self.head_height,
                 fill=0.9)
        for (hsize, lines), left, w, column in zip(self.head, self.lefts, self.widths,
                                                   self.columns, strict=True):
            baseline = flow.y - hsize - 1.5
            right = column.align == "right"
            for line in lines:
                pdf.text(flow.page, left + w - PAD if right else left + PAD, baseline, line,
                         BOLD, hsize, align="right" if right else "left")
                baseline -= hsize * 1.15
        flow.y -= self.head_height
        pdf.line(flow.page, MARGIN, flow.y, MARGIN + flow.cw, flow.y, 0.5)

    def _room(self, height: float, policy: str) -> None:
        """Continue on a new page, naming the policy again, unless `height` fits."""
        flow, pdf = self.flow, self.pdf
        if flow.y - height >= BOTTOM:
            return
        self._close()
        flow.new_page()
        baseline = flow.y - 8
        x = MARGIN + PAD
        x += pdf.text(flow.page, x, baseline, "POLICY", BOLD, 7.5) + 4
        path = f"{policy}.policy_number"
        pdf.field(flow.page, x, baseline, path, width=160, font=BOLD, size=7.5)
        x += width_of(pdf.recorder.text_of(path) or "", BOLD, 7.5) + 4
        pdf.text(flow.page, x, baseline, "(CONTINUED)", REGULAR, 7.5)
        flow.y -= 12
        self._header()

    def _rule(self, height: float) -> None:
        self.flow.y -= height
        self.pdf.line(self.flow.page, MARGIN, self.flow.y, MARGIN + self.flow.cw, self.flow.y,
                      0.2)

    def _close(self) -> None:
        """Draw the column rules of the rows drawn since the last header or totals row."""
        flow = self.flow
        if self.segment_top > flow.y:
            for x in [*self.lefts, MARGIN + flow.cw]:
                flow.pdf.line(flow.page, x, self.segment_top, x, flow.y, 0.3)
        self.segment_top = flow.y

