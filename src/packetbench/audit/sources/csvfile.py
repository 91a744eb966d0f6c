"""A CSV file as a source: each located value read from its (row, column) through the csv
module (`csvcells`), each visible string looked up among its cells, and every visible cell
accounted for."""

from __future__ import annotations

from typing import ClassVar

from packetbench.audit.csvcells import CsvCells
from packetbench.audit.sources.base import Pages, squash
from packetbench.audit.sources.cells import CellAuditor
from packetbench.audit.unaccounted import declared_cells


class CsvAuditor(CellAuditor):
    """Reads a CSV file's cells; the file is one page."""

    reader: ClassVar[str] = "csv"

    def check(self, pages: Pages) -> None:
        cells = CsvCells(self.doc.file)
        self.state.check_files(1)
        for index, row, column in self._cell_locations(("row", "column"), int, "{row, column}"):
            got, why = cells.cell(row, column)
            self.state.field_result(
                index,
                got == self.doc.fields[index]["rendered_as"],
                "csv",
                where=f"row {row}, column {column}",
                got=got or "",
                detail=why,
            )
        texts = cells.texts()
        for page, indices in sorted(pages.strings.items()):
            for index in indices:
                found = page == 1 and squash(self.doc.strings[index]["text"]) in texts
                self.state.string_result(
                    index, found, "csv", page, "" if page == 1 else "a CSV file has one page"
                )
        located = {
            (row, column)
            for _, row, column in self._cell_locations(("row", "column"), int, "{row, column}")
        }
        declared = declared_cells(self.doc).get(1, set())
        left = [
            (at, text)
            for at, text in cells.visible_cells()
            if at not in located and text not in declared
        ]
        self.cells_unaccounted("csv", 1, "the file", left)
