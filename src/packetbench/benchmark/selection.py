"""Which documents of the packets a run extracts (`--tiers`, `--doc-types`, `--formats`,
`--limit`).

A run of a selection lists only the selected documents in its run.json, so scoring, reports
and `--resume` see that run and nothing else; the selection itself is recorded there too
(`selection`), and a run continued with another one is refused.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from packetbench.core.codes import TIERS
from packetbench.core.errors import UsageError
from packetbench.truth.packets import Packet


def _names(text: str | None, option: str) -> tuple[str, ...]:
    if text is None:
        return ()
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    if not names:
        raise UsageError(f"{option} names nothing")
    return names


@dataclass(frozen=True)
class Selection:
    tiers: tuple[str, ...] = ()  # empty: every tier
    doc_types: tuple[str, ...] = ()
    formats: tuple[str, ...] = ()
    limit: int | None = None  # the first N documents left, in packet and document order

    @classmethod
    def parse(
        cls,
        tiers: str | None = None,
        doc_types: str | None = None,
        formats: str | None = None,
        limit: int | None = None,
    ) -> Selection:
        """A selection from the options' text; UsageError for an unknown tier or a --limit
        below 1."""
        chosen = tuple(t.upper() for t in _names(tiers, "--tiers"))
        unknown = [t for t in chosen if t not in TIERS]
        if unknown:
            raise UsageError(f"unknown tier {unknown[0]!r}; choose from {', '.join(TIERS)}")
        if limit is not None and limit < 1:
            raise UsageError(f"--limit must be at least 1 (got {limit})")
        return cls(
            chosen,
            _names(doc_types, "--doc-types"),
            tuple(f.lower() for f in _names(formats, "--formats")),
            limit,
        )

    def describe(self) -> dict[str, Any] | None:
        """run.json's `selection`: the filters given, or None when every document is read."""
        given = {
            "tiers": list(self.tiers),
            "doc_types": list(self.doc_types),
            "formats": list(self.formats),
            "limit": self.limit,
        }
        given = {k: v for k, v in given.items() if v}
        return given or None

    def apply(self, packets: list[Packet], where: str) -> list[Packet]:
        """`packets` with only the selected documents (packets left with none dropped);
        UsageError naming `where` (the packets folder) when a named doc type or format is
        in none of them, or nothing is left."""
        if self.describe() is None:
            return packets
        every = [d for p in packets for d in p.documents]
        for option, asked, present in (
            ("--doc-types", self.doc_types, {d.doc_type for d in every}),
            ("--formats", self.formats, {d.format for d in every}),
        ):
            missing = [name for name in asked if name not in present]
            if missing:
                raise UsageError(
                    f"{where}: {option}: no document is a {missing[0]!r} (these packets "
                    f"hold {', '.join(sorted(present))})"
                )
        left = self.limit
        chosen: list[Packet] = []
        for packet in packets:
            if self.tiers and packet.tier not in self.tiers:
                continue
            docs = [
                d
                for d in packet.documents
                if (not self.doc_types or d.doc_type in self.doc_types)
                and (not self.formats or d.format in self.formats)
            ]
            if left is not None:
                docs, left = docs[:left], max(0, left - len(docs))
            if docs:
                chosen.append(dataclasses.replace(packet, documents=tuple(docs)))
        if not chosen:
            raise UsageError(f"{where}: no document matches {self.describe()}")
        return chosen
