"""The truth artifacts written next to every rendered document (docs/design.md §4)."""

from __future__ import annotations

import hashlib
from typing import Any

from packetbench.core.versions import versions
from packetbench.generator.render.recorder import Recorder


def _mapped(data: Any, sheets: dict[int, int]) -> Any:
    """`data` (a pattern's details) with every page number under a ``page`` key moved through
    the page map (docs/design.md §4: page numbers live only under `page` and `pages_affected`)."""
    if isinstance(data, dict):
        return {
            key: (
                sheets.get(value, value)
                if key == "page" and type(value) is int
                else _mapped(value, sheets)
            )
            for key, value in data.items()
        }
    if isinstance(data, list):
        return [_mapped(value, sheets) for value in data]
    return data


def on_sheets(record: dict[str, Any], sheets: dict[int, int]) -> dict[str, Any]:
    """A pattern's manifest record, recorded in the document's page numbers, in the file's
    (`Presentation.sheets`): its pages affected and the pages its details name."""
    return {
        **record,
        "pages_affected": sorted({sheets.get(page, page) for page in record["pages_affected"]}),
        "details": _mapped(record["details"], sheets),
    }


def document_artifacts(
    *,
    recorder: Recorder,
    doc_type: str,
    fmt: str,
    file: str,
    data: bytes,
    pages: int,
    tier: str,
    seed: int,
    knobs: dict[str, Any],
    omits: frozenset[str],
    patterns_applied: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Artifact kind -> JSON content of one document's four truth files.

    The file of kind K for document D is ``K_D.json``. `pages` counts the document's pages;
    when it was printed two pages to a sheet (`Presentation.sheets`), every page number of the
    recorder and of `patterns_applied` is moved to its sheet here, once (after every pattern
    recorded its pages), and the manifest counts the file's pages, the sheets.
    """
    doc_id = recorder.doc_id
    sheets = recorder.presentation.sheets
    if sheets:
        recorder.map_pages(sheets)
        patterns_applied = [on_sheets(record, sheets) for record in patterns_applied or []]
        pages = max(sheets.values())
    return {
        "document_truth": {
            "doc_id": doc_id,
            "doc_type": doc_type,
            "schema": doc_type,
            "truth": recorder.truth(omits),
        },
        "field_truth": {"doc_id": doc_id, "fields": recorder.field_truth()},
        "manifest": {
            "doc_id": doc_id,
            "doc_type": doc_type,
            "format": fmt,
            "file": file,
            "sha256": hashlib.sha256(data).hexdigest(),
            "pages": pages,
            "tier": tier,
            "seed": seed,
            "knobs": knobs,
            "patterns_applied": patterns_applied or [],
            "versions": dict(versions()),
        },
        "rendered_universe": {
            "doc_id": doc_id,
            "strings": recorder.universe_strings(),
            "hidden": recorder.hidden,
            "illegible": recorder.illegible(),
        },
    }
