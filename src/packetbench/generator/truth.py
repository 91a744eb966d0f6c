"""The truth artifacts written next to every rendered document (docs/design.md §4)."""

from __future__ import annotations

import hashlib
from functools import cache
from importlib.metadata import version
from typing import Any

import orjson

from packetbench import __version__
from packetbench.generator.render.recorder import Recorder

LINE = 260  # a value whose compact form fits in this many characters sits on one line


def _compact(value: Any) -> str:
    return orjson.dumps(value).decode("utf-8")


def _lines(data: Any, indent: str, out: list[str], prefix: str) -> None:
    text = _compact(data)
    if not isinstance(data, dict | list) or len(indent) + len(prefix) + len(text) <= LINE:
        out.append(f"{indent}{prefix}{text}")
        return
    opening, closing = ("{", "}") if isinstance(data, dict) else ("[", "]")
    out.append(f"{indent}{prefix}{opening}")
    inner = indent + "  "
    items = data.items() if isinstance(data, dict) else ((None, value) for value in data)
    for key, value in items:
        _lines(value, inner, out, "" if key is None else f"{_compact(key)}: ")
        out[-1] += ","
    out[-1] = out[-1][:-1]
    out.append(f"{indent}{closing}")


def dump_json(data: Any) -> bytes:
    """Stable JSON: a value that fits on a line is one line, bigger ones are indented.

    A field_truth entry or a universe string sits on one line, which keeps diffs readable;
    orjson writes each line (the standard library's indenting encoder was half of a
    packet's time).
    """
    out: list[str] = []
    _lines(data, "", out, "")
    return ("\n".join(out) + "\n").encode("utf-8")


@cache
def versions() -> dict[str, str]:
    """Versions of everything that decides the bytes of a packet (read once per process)."""
    return {
        "packetbench": __version__,
        "faker": version("faker"),
        "reportlab": version("reportlab"),
        "openpyxl": version("openpyxl"),
        "lxml": version("lxml"),
        "orjson": version("orjson"),
        "pillow": version("pillow"),
        "pypdfium2": version("pypdfium2"),
        "numpy": version("numpy"),
        "pikepdf": version("pikepdf"),
        "fonttools": version("fonttools"),
    }


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
