"""What a workbook's and a CSV file's auditors share: values located by cell, and the finding
for visible cells that belong to nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from packetbench.audit.result import UNACCOUNTED, Finding
from packetbench.audit.sources.base import SourceAuditor
from packetbench.audit.unaccounted import describe, orphans


class CellAuditor(SourceAuditor):
    """A source whose values are located by cell: a workbook's (sheet, cell) or a CSV file's
    (row, column)."""

    def _cell_locations(
        self,
        keys: tuple[str, str],
        kind: type,
        shape: str,
    ) -> Iterator[tuple[int, Any, Any]]:
        """(field index, first key, second key) of every cell location, shape-checked."""
        for index, entry in enumerate(self.doc.fields):
            for location in entry.get("locations") or []:
                first = location.get(keys[0]) if isinstance(location, dict) else None
                second = location.get(keys[1]) if isinstance(location, dict) else None
                if not isinstance(first, kind) or not isinstance(second, kind):
                    raise self.state.bad_location(index, location, shape)
                yield index, first, second

    def cells_unaccounted(
        self, reader: str, page: int, where: str, left: list[tuple[Any, str]]
    ) -> None:
        """A finding naming the visible cells of a sheet (or CSV file) that are no located
        value and no declared string (`unaccounted`)."""
        if not left:
            return
        named = orphans(self.doc).get(page)
        self.audit.findings.append(
            Finding(
                UNACCOUNTED,
                self.doc.doc_id,
                self.doc.file.name,
                "",
                reader,
                page,
                where,
                "",
                describe(Counter(text for _, text in left)),
                f"{len(left)} visible cell(s) belong to no truth value, declared label or hidden "
                "text"
                + (
                    f" (the universe shows {', '.join(named)}, which no truth holds)"
                    if named
                    else ""
                ),
            )
        )
