"""Packets rendered in memory with one pattern forced on, read back with pdfium."""

from __future__ import annotations

import ctypes
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as raw


@dataclass
class Rendered:
    """One packet's files in memory, with helpers to read them."""

    files: dict[str, bytes]

    def json(self, name: str) -> Any:
        return json.loads(self.files[name])

    def manifest(self, doc_id: str) -> dict[str, Any]:
        return dict(self.json(f"manifest_{doc_id}.json"))

    def applied(self, doc_id: str, pattern_id: str) -> dict[str, Any] | None:
        return next(
            (p for p in self.manifest(doc_id)["patterns_applied"] if p["id"] == pattern_id), None
        )

    def fields(self, doc_id: str) -> dict[str, dict[str, Any]]:
        return {f["path"]: f for f in self.json(f"field_truth_{doc_id}.json")["fields"]}

    def truth(self, doc_id: str) -> dict[str, Any]:
        return dict(self.json(f"document_truth_{doc_id}.json")["truth"])

    def universe(self, doc_id: str) -> dict[str, Any]:
        return dict(self.json(f"rendered_universe_{doc_id}.json"))

    def pdf(self, doc_id: str) -> pdfium.PdfDocument:
        return pdfium.PdfDocument(self.files[f"{doc_id}.pdf"])

    @contextmanager
    def page(self, doc_id: str, number: int) -> Iterator[tuple[Any, Any]]:
        """(page, textpage) of page `number` (1-based)."""
        pdf = self.pdf(doc_id)
        page = pdf[number - 1]
        textpage = page.get_textpage()
        try:
            yield page, textpage
        finally:
            textpage.close()
            page.close()
            pdf.close()

    def text(self, doc_id: str, number: int) -> str:
        with self.page(doc_id, number) as (_, textpage):
            return str(textpage.get_text_range())

    def pixels(self, doc_id: str, number: int, scale: float = 2.0) -> Any:
        import numpy as np

        pdf = self.pdf(doc_id)
        try:
            return np.asarray(pdf[number - 1].render(scale=scale).to_pil().convert("RGB"))
        finally:
            pdf.close()


def char_infos(textpage: Any) -> list[dict[str, Any]]:
    """Every character of a page: text, box, font size, angle and font name."""
    out = []
    name = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    for index in range(textpage.count_chars()):
        raw.FPDFText_GetFontInfo(textpage, index, name, 128, flags)
        out.append(
            {
                "char": chr(raw.FPDFText_GetUnicode(textpage, index)),
                "box": textpage.get_charbox(index),
                "size": raw.FPDFText_GetFontSize(textpage, index),
                "angle": raw.FPDFText_GetCharAngle(textpage, index),
                "font": name.value.decode(errors="replace"),
            }
        )
    return out


Render = Callable[..., Rendered]


@dataclass
class Case:
    """One pattern forced on a packet, and the same packet plain."""

    pattern: str
    doc_id: str
    on: Rendered
    off: Rendered

    @cached_property
    def record(self) -> dict[str, Any]:
        found = self.on.applied(self.doc_id, self.pattern)
        assert found is not None, f"{self.pattern} was not applied to {self.doc_id}"
        return found


def write(rendered: Rendered, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in rendered.files.items():
        (folder / name).write_bytes(data)
    return folder


def first_applied(
    render: Render,
    pattern: str,
    doc_id: str,
    tier: str,
    documents: tuple[str, ...],
    seeds: range = range(1, 13),
) -> int:
    """The first seed whose `doc_id` carries `pattern` when it is forced on: a pattern whose
    effect depends on how a document falls on its pages (a row split at a page break) needs
    the right packet, and a pattern that never acts fails here."""
    for seed in seeds:
        if render(tier, seed, documents, pattern).applied(doc_id, pattern) is not None:
            return seed
    raise AssertionError(f"{pattern} acted on no {doc_id} of {tier} seeds {seeds}")


def gray_page(pdf: bytes, dpi: float, page: int = 0) -> np.ndarray[Any, Any]:
    """Page `page` (0-based) of a PDF rendered by pdfium in gray at `dpi`, as a 2-D array."""
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[page].render(scale=dpi / 72, grayscale=True).to_numpy()
    finally:
        document.close()
    return np.ascontiguousarray(image.reshape(image.shape[:2]))
