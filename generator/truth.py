"""The truth artifacts written next to every rendered document (DESIGN §4)."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib.metadata import version
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

from generator import __version__
from generator.render.record import Recorder

# One C encoder, built once: `JSONEncoder.encode` would build a new one for every record.
_C_ENCODER = c_make_encoder(None, None, encode_basestring, None, ": ", ", ", False, False, True)
_FALLBACK = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def _compact(value: Any) -> str:
    if _C_ENCODER is None:  # interpreters without the _json accelerator
        return _FALLBACK(value)
    return "".join(_C_ENCODER(value, 0))


LINE = 240  # a value whose compact form fits in this many characters sits on one line
MANY = 24  # a container with more items than this never fits, so it is not tried


def _scalar(value: Any) -> str | None:
    """JSON text of a scalar without the encoder's per-call overhead (None for containers)."""
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _compact(value)  # the encoder's own spelling of floats (nan, inf, repr)
    return None


def _lines(data: Any, indent: str, out: list[str], prefix: str) -> None:
    text = _scalar(data)
    if text is None and len(data) <= MANY:
        text = _compact(data)
        if len(text) + len(indent) + len(prefix) > LINE:
            text = None
    if text is not None:
        out.append(f"{indent}{prefix}{text}")
        return
    opening, closing = ("{", "}") if isinstance(data, dict) else ("[", "]")
    out.append(f"{indent}{prefix}{opening}")
    inner = indent + "  "
    if isinstance(data, dict):
        for key, value in data.items():
            _lines(value, inner, out, f"{encode_basestring(key)}: ")
            out[-1] += ","
    else:
        for value in data:
            _lines(value, inner, out, "")
            out[-1] += ","
    out[-1] = out[-1][:-1]
    out.append(f"{indent}{closing}")


def dump_json(data: Any) -> bytes:
    """Stable JSON: a value that fits on a line is one line, bigger ones are indented.

    A field_truth entry or a universe string sits on one line: diff-friendly, and written by
    the C encoder, which the indenting encoder cannot use (it was half of a packet's time).
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
    }


def document_artifacts(
    *, recorder: Recorder, doc_type: str, fmt: str, file: str, data: bytes, pages: int,
    tier: str, seed: int, knobs: dict[str, Any], omits: frozenset[str],
) -> dict[str, Any]:
    """Artifact kind -> JSON content of one document's four truth files.

    The file of kind K for document D is ``K_D.json``.
    """
    doc_id = recorder.doc_id
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
            "patterns_applied": [],
            "versions": dict(versions()),
        },
        "rendered_universe": {
            "doc_id": doc_id,
            "strings": recorder.strings,
            "hidden": recorder.hidden,
        },
    }
