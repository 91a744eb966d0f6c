"""`extract --cite native`: the provider's own document citations, asked for in a second pass.

Anthropic's document citations name the pages a passage of the answer rests on, but the API
refuses them together with a forced tool (our strict extraction), so they cannot come with
the values. The harness therefore asks twice per PDF document: first the strict extraction,
as always; then, with the same document sent with citations enabled, a question listing the
values the first answer gave, numbered, one per line ("[3] locations[0].tiv = 1250000"), and
asking the model to quote, for each number, where the document shows it.

The answer is a run of text blocks, some carrying citations (`page_location`: the cited text
and a page range, 1-based, end exclusive). A value's citation is the first citation found
after its marker `[n]` and before the next marker; its page is the first page of the range.
A value without one is uncited. The record keeps every value's citation as `Citation(path,
page)` (no box: native citations have none) and the cited text under `quote`, and run.json
says `"source": "native"`, so the grounding views score them at page level exactly as
`--cite page`. Workbooks and CSV files are not sent as PDFs: they get no native citations,
and a native run's grounding rates are over its PDF documents (`metrics/grounding_units.sql`).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from packetbench.benchmark.grounding.citations import Citation

MARKER = re.compile(r"\[(\d{1,5})\]")
MAX_VALUE_CHARS = 200  # a value longer than this is shown cut (the quote finds it anyway)


def leaves(output: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Every non-null scalar of an extraction's output with its path (dotted; list items by
    0-based index: ``locations[2].building_value``), in document order."""
    found: list[tuple[str, Any]] = []
    if isinstance(output, dict):
        for key, value in output.items():
            found.extend(leaves(value, f"{prefix}.{key}" if prefix else str(key)))
    elif isinstance(output, list):
        for index, value in enumerate(output):
            found.extend(leaves(value, f"{prefix}[{index}]"))
    elif output is not None and prefix:
        if isinstance(output, float) and not math.isfinite(output):
            return found
        found.append((prefix, output))
    return found


def shown(value: Any) -> str:
    """A value as the question lists it."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def question(values: list[tuple[str, Any]]) -> str:
    """The numbered list of the first answer's values (numbers from 1)."""
    return "\n".join(
        f"[{number}] {path} = {shown(value)}" for number, (path, value) in enumerate(values, 1)
    )


def read(blocks: list[dict[str, Any]], values: list[tuple[str, Any]], pages: int) -> list[Citation]:
    """Each value's citation from the answer's text blocks (`{"text", "citations": [...]}`,
    as `providers.anthropic` keeps them). A cited page outside the document is kept with its
    problem, so it counts as a citation that supports nothing."""
    found: dict[int, Citation] = {}
    current: int | None = None
    for block in blocks:
        text = str(block.get("text") or "")
        markers = [int(m.group(1)) for m in MARKER.finditer(text)]
        if markers:
            # The citations of a block belong to the value named last before them.
            current = markers[-1]
        if current is None or not 1 <= current <= len(values) or current in found:
            continue
        for cited in block.get("citations") or []:
            if not isinstance(cited, dict) or cited.get("type") != "page_location":
                continue
            page = cited.get("start_page_number")
            path = values[current - 1][0]
            quote = str(cited.get("cited_text") or "")[:MAX_VALUE_CHARS]
            if not isinstance(page, int) or isinstance(page, bool):
                found[current] = Citation(path=path, quote=quote, problem="no page")
            elif not 1 <= page <= pages:
                found[current] = Citation(
                    path=path, page=page, quote=quote, problem=f"page {page} of {pages}"
                )
            else:
                found[current] = Citation(path=path, page=page, quote=quote)
            break
    return [found[number] for number in sorted(found)]
