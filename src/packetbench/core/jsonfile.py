"""The one stable JSON layout packetbench writes (truth files, run.json, scores): a value that
fits on a line is one line, bigger ones are indented."""

from __future__ import annotations

from typing import Any

import orjson

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
