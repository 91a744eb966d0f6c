"""textlayer.cmap_scramble and textlayer.cmap_gaps: the standard fonts' ToUnicode scrambled,
or missing some digits, after emission (post).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeGuard

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.textlayer.common import (
    NO_SCAN,
    ROW_SPLIT,
    TEXT_ATTACKS,
    _acted,
    _pages,
    _strings_off,
    _unreadable,
    _values,
)
from packetbench.generator.render import attack
from packetbench.generator.render.ops import Op, TextOp
from packetbench.generator.render.pdf import PdfDocument


def _tounicode(
    staging: Staging,
    mapping: dict[int, str],
    affected: Callable[[str], bool],
) -> None:
    """Give the standard fonts of some pages `mapping` as their ToUnicode after emission;
    values and strings drawn in them with a character `affected` are marked."""
    look = staging.presentation
    applied = staging.applied
    chosen: list[int] = []
    holder: list[PdfDocument] = []

    def choose(pdf: PdfDocument) -> None:
        holder.append(pdf)
        chosen.extend(_pages(staging, len(pdf.pages)))

    def post(data: bytes) -> bytes:
        pdf = holder[0]
        for page in chosen:
            ops = pdf.pages[page - 1]
            hit = {
                op.text
                for op in ops
                if isinstance(op, TextOp) and op.font in attack.TEXT_FONTS and affected(op.text)
            }
            if not hit:
                continue
            for path, location, indices in _values(pdf, page):
                if any(_attackable(op) and affected(op.text) for op in (ops[i] for i in indices)):
                    _unreadable(applied, page, path, location)
            _strings_off(pdf.recorder, page, hit)
            applied.pages.add(page)
        if not applied.pages:
            return data
        return attack.with_tounicode(data, [p - 1 for p in sorted(applied.pages)], mapping)

    staging.after_layout(choose)
    look.post.append(post)
    staging.confirm(_acted(staging))


def _attackable(op: Op) -> TypeGuard[TextOp]:
    return isinstance(op, TextOp) and op.font in attack.TEXT_FONTS


@pattern(
    "textlayer.cmap_scramble",
    "Scrambled ToUnicode",
    phase="post",
    truth="none",
    reference="p28_broken_cmap",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN, "overlay.redaction", *ROW_SPLIT),
    description="the standard fonts' ToUnicode scrambled on some pages",
)
def _cmap_scramble(staging: Staging) -> bool:
    staging.applied.details["fonts"] = "standard (Helvetica, Courier, Times)"
    _tounicode(staging, attack.scrambled(staging.rng), lambda text: bool(text.strip()))
    return True


@pattern(
    "textlayer.cmap_gaps",
    "ToUnicode missing digits",
    phase="post",
    truth="none",
    reference="p42_font_corrupt",
    incompatible=(*TEXT_ATTACKS, *NO_SCAN, "overlay.redaction", *ROW_SPLIT),
    description="the standard fonts' ToUnicode missing two or three digits",
)
def _cmap_gaps(staging: Staging) -> bool:
    digits = "".join(sorted(staging.rng.sample("0123456789", staging.rng.randint(2, 3))))
    staging.applied.details["digits"] = digits
    _tounicode(staging, attack.gapped(digits), lambda text: any(d in text for d in digits))
    return True
