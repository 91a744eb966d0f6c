"""A workbook (XLSX) as a source: each located value read from its cell through openpyxl
(`sheets`), each visible string looked up among its sheet's visible cells, and every visible
cell accounted for."""

from __future__ import annotations

from typing import ClassVar

from packetbench.audit.sheets import Workbook
from packetbench.audit.sources.base import Pages, squash
from packetbench.audit.sources.cells import CellAuditor
from packetbench.audit.unaccounted import declared_cells


class WorkbookAuditor(CellAuditor):
    """Reads a workbook's cells; its pages are its sheets."""

    reader: ClassVar[str] = "xlsx"

    def check(self, pages: Pages) -> None:
        book = Workbook(self.doc.file)
        try:
            self.state.check_files(len(book.sheets))
            for index, sheet, ref in self._cell_locations(("sheet", "cell"), str, "{sheet, cell}"):
                got, why = book.cell(sheet, ref)
                self.state.field_result(
                    index,
                    got == self.doc.fields[index]["rendered_as"],
                    "xlsx",
                    where=f"{sheet}!{ref}",
                    got=got or "",
                    detail=why,
                )
            for page, indices in sorted(pages.strings.items()):
                texts = book.sheet_texts(page)
                for index in indices:
                    visible = texts is not None and squash(self.doc.strings[index]["text"]) in texts
                    self.state.string_result(
                        index,
                        visible,
                        "xlsx",
                        page,
                        "" if texts is not None else f"sheet {page} is hidden or absent",
                    )
            located = {
                (sheet, ref)
                for _, sheet, ref in self._cell_locations(("sheet", "cell"), str, "{sheet, cell}")
            }
            declared = declared_cells(self.doc)
            for page, ws in enumerate(book.sheets, start=1):
                left = [
                    (ref, text)
                    for ref, text in book.visible_cells(page)
                    if (ws.title, ref) not in located and text not in declared.get(page, set())
                ]
                self.cells_unaccounted("xlsx", page, f"sheet {ws.title!r}", left)
        finally:
            book.close()
