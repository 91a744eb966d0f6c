"""The one stable JSON layout packetbench writes (truth files, run.json, scores): a value that
fits on a line is one line, bigger ones are indented."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import Any

import orjson

LINE = 260  # a value whose compact form fits in this many characters sits on one line


def _compact(value: Any) -> str:
    return orjson.dumps(value).decode("utf-8")


@lru_cache(maxsize=4096)
def _key(key: str) -> str:
    """A member's prefix: its key as JSON, then ": " (keys repeat in every record)."""
    return f"{_compact(key)}: "


def _one_line(value: Any, room: int) -> str | None:
    """`value`'s compact form when it is not a container or fits in `room` characters, else
    None. A container of n members is at least 2n + 1 characters long (one per member, the
    commas between them, the brackets), so a big one is never serialized only to be split."""
    if not isinstance(value, dict | list):
        return _compact(value)
    if 2 * len(value) + 1 > room:
        return None
    text = _compact(value)
    return text if len(text) <= room else None


def _lines(data: dict[str, Any] | list[Any], indent: str, out: list[str], prefix: str) -> None:
    """`data`, a container too long for one line, on lines of `out` after `indent` and
    `prefix`: its brackets on lines of their own, a member per line or laid out the same way."""
    opening, closing = ("{", "}") if isinstance(data, dict) else ("[", "]")
    out.append(f"{indent}{prefix}{opening}")
    inner = indent + "  "
    room = LINE - len(inner)
    items = data.items() if isinstance(data, dict) else ((None, value) for value in data)
    for key, value in items:
        member = "" if key is None else _key(key)
        text = _one_line(value, room - len(member))
        if text is None:
            _lines(value, inner, out, member)
            out[-1] += ","
        else:
            out.append(f"{inner}{member}{text},")
    out[-1] = out[-1][:-1]
    out.append(f"{indent}{closing}")


def dump_json(data: Any) -> bytes:
    """Stable JSON: a value that fits on a line is one line, bigger ones are indented.

    A field_truth entry or a universe string sits on one line, which keeps diffs readable;
    orjson writes each line (the standard library's indenting encoder was half of a
    packet's time).
    """
    text = _one_line(data, LINE)
    if text is not None:
        return (text + "\n").encode("utf-8")
    out: list[str] = []
    _lines(data, "", out, "")
    return ("\n".join(out) + "\n").encode("utf-8")


def compact_length(members: Iterable[tuple[str, int]]) -> int:
    """The length of an object's compact form from its members' (key, compact value length)."""
    count = total = 0
    for key, length in members:
        count += 1
        total += len(_compact(key)) + 1 + length
    return 2 + total + max(count - 1, 0)


def dump_json_streamed(
    head: dict[str, Any],
    key: str,
    members: Callable[[], Iterable[tuple[str, Any]]],
    length: int,
) -> Iterator[bytes]:
    """`dump_json({**head, key: dict(members())})`, a piece at a time, the members never held
    together (a run's ledger of every document): `length` is their object's compact length
    (`compact_length`), which says whether it fits on a line; only then are they gathered."""
    own = _key(key)
    whole = len(_compact(head)) + (1 if head else 0) + len(_compact(key)) + 1 + length
    room = LINE - 2
    if whole <= LINE or length <= room - len(own):
        yield dump_json({**head, key: dict(members())})
        return
    out: list[str] = []
    if head:
        _lines(head, "", out, "")  # "{", the head's members, "}"
        out.pop()
        out[-1] += ","
    else:
        out.append("{")
    out.append(f"  {own}{{")
    yield ("\n".join(out) + "\n").encode("utf-8")
    inner = "    "
    waiting: list[str] | None = None
    for name, value in members():
        if waiting is not None:
            waiting[-1] += ","
            yield ("\n".join(waiting) + "\n").encode("utf-8")
        member = _key(name)
        text = _one_line(value, LINE - len(inner) - len(member))
        if text is None:
            waiting = []
            _lines(value, inner, waiting, member)
        else:
            waiting = [f"{inner}{member}{text}"]
    if waiting is not None:
        yield ("\n".join(waiting) + "\n").encode("utf-8")
    yield b"  }\n}\n"
