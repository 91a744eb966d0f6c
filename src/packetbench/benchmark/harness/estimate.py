"""Token estimates, before anything is sent: for `--dry-run` and for `--max-cost` reservations.

Text is counted at four characters a token (JSON output at three: its punctuation tokenizes
densely); a PDF page sent natively or as an image costs the provider's per-page image tokens
(`ApiProvider.page_tokens`) plus, natively, its text layer. The output estimate is the size of
a perfect answer (the document's truth), so reasoning tokens are extra; the upper bound assumes
every completion uses its whole cap.
"""

from __future__ import annotations

import json
from typing import Any

from packetbench.benchmark.harness.inputs import DocumentInput
from packetbench.benchmark.providers.api import Prompt

CHARS_PER_TOKEN = 4
JSON_CHARS_PER_TOKEN = 3
NATIVE_TEXT_PER_PAGE = 600  # tokens of text layer a provider extracts from a native PDF page


def input_tokens(
    prompt: Prompt, document: DocumentInput, schema: dict[str, Any], page_tokens: int
) -> int:
    chars = len(prompt.system) + len(prompt.instructions)
    chars += sum(len(p.text) for p in prompt.parts if p.kind == "text")
    chars += len(json.dumps(schema, separators=(",", ":")))
    tokens = chars // CHARS_PER_TOKEN
    pages = document.pages or 0
    if document.mode == "native":
        tokens += pages * (page_tokens + NATIVE_TEXT_PER_PAGE)
    elif document.mode == "images":
        tokens += pages * page_tokens
    return tokens


def output_tokens(truth: dict[str, Any]) -> int:
    return len(json.dumps(truth, separators=(",", ":"), ensure_ascii=False)) // JSON_CHARS_PER_TOKEN
