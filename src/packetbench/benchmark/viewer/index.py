"""A document's view cut into the parts the page asks for as it needs them, kept on disk.

A long document (a 179-page statement of values has 102,007 fields) cannot be sent whole:
its view is tens of megabytes of JSON. `split` cuts the view `document.build` makes into
parts: a **summary** (the document, its page sizes, the count of each outcome, the patterns
and hidden text), the **boxes of each page** (``page-N``: the fields drawn on page N, only
their locations on it), or for a workbook or CSV the **cells** (every located field), the
side table's **fields** worst first in chunks of `CHUNK` (``fields-K``: rows K x CHUNK
onwards; each outcome is one contiguous run of rows, so the page can skip the outcomes it
hides) and the **claims** in chunks (``claims-K``). Opening a document costs its summary,
its first page's boxes and the first chunk of its side table.

The parts are built the first time a document is opened and written into one file under the
cache, named by a key of everything they are made of: the file and truth hashes of the
document's packet as run.json records them, what the run's outcomes come from (the results
database as it was opened, or the document's extraction record) and the index format. A
later opening, by this server or the next, reads the parts it needs from that file.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

from packetbench import __version__
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.writing import write_atomic

FORMAT = "packetbench-view-index 1"
CHUNK = 500  # rows of the side table (fields or claims) per part
MEMORY_BYTES = 64 * 1024 * 1024  # indexes kept in memory when the cache cannot be written
TABLES = 64  # part tables of indexes on disk remembered
# What a box needs of its field: the outcome it is drawn in, and its tooltip.
BOX = ("path", "outcome", "truth", "rendered_as", "value")


def key(*facts: Any) -> str:
    """The name of an index made of `facts` (anything orjson writes)."""
    digest = hashlib.sha256(f"{FORMAT}\0{__version__}\0".encode())
    for fact in facts:
        digest.update(orjson.dumps(fact, option=orjson.OPT_SORT_KEYS))
        digest.update(b"\0")
    return digest.hexdigest()


def _chunks(rows: list[dict[str, Any]], prefix: str) -> Iterator[tuple[str, Any]]:
    for start in range(0, len(rows), CHUNK):
        yield f"{prefix}-{start // CHUNK}", rows[start : start + CHUNK]


def split(view: dict[str, Any]) -> dict[str, Any]:
    """The parts of a document's view (`document.build`), by name."""
    fields: list[dict[str, Any]] = view["fields"]
    claims: list[dict[str, Any]] = view["claims"]
    outcomes: list[list[Any]] = []
    for field in fields:
        if outcomes and outcomes[-1][0] == field["outcome"]:
            outcomes[-1][1] += 1
        else:
            outcomes.append([field["outcome"], 1])
    parts: dict[str, Any] = {}
    if view["format"] == "pdf":
        on_page: list[list[dict[str, Any]]] = [[] for _ in view["pages"]]
        for field in fields:
            by_page: dict[int, list[dict[str, Any]]] = {}
            for location in field["locations"]:
                page = location.get("page")
                if isinstance(page, int) and 1 <= page <= len(on_page) and "bbox" in location:
                    by_page.setdefault(page, []).append(location)
            for page, located in by_page.items():
                on_page[page - 1].append(
                    {name: field[name] for name in BOX} | {"locations": located}
                )
        for number, rows in enumerate(on_page, 1):
            parts[f"page-{number}"] = rows
        boxes = [sum(len(r["locations"]) for r in rows) for rows in on_page]
    else:
        parts["cells"] = [f for f in fields if f["locations"]]
        boxes = []
    parts.update(_chunks(fields, "fields"))
    parts.update(_chunks(claims, "claims"))
    summary = {k: v for k, v in view.items() if k not in ("fields", "claims", "run")}
    parts["summary"] = {
        **summary,
        "chunk": CHUNK,
        "fields_total": len(fields),
        "claims_total": len(claims),
        "outcomes": outcomes,
        "boxes": boxes,
    }
    return parts


class Index:
    """The parts of one document's view: read from its file, or held in memory."""

    def __init__(
        self, path: Path | None, table: dict[str, list[int]], memory: dict[str, bytes]
    ) -> None:
        self.path = path
        self.table = table
        self.memory = memory

    def part(self, name: str) -> bytes:
        """The JSON of part `name`; UsageError when the document has no such part."""
        if name in self.memory:
            return self.memory[name]
        where = self.table.get(name)
        if where is None or self.path is None:
            raise UsageError(f"no part {name[:40]!r} in this document")
        offset, length = where
        with self.path.open("rb") as handle:
            handle.seek(offset)
            return handle.read(length)

    @property
    def size(self) -> int:
        return sum(map(len, self.memory.values()))


def encode(parts: dict[str, Any]) -> dict[str, bytes]:
    return {
        name: orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS)
        for name, value in parts.items()
    }


def _write(path: Path, encoded: dict[str, bytes]) -> dict[str, list[int]]:
    """One file: a line naming the format, a line of JSON giving each part's offset (from
    the end of that line) and length, then the parts one after another."""
    table: dict[str, list[int]] = {}
    offset = 0
    for name, data in encoded.items():
        table[name] = [offset, len(data)]
        offset += len(data)
    header = (FORMAT + "\n").encode() + orjson.dumps(table) + b"\n"
    write_atomic(path, header + b"".join(encoded.values()))
    return {name: [start + len(header), length] for name, (start, length) in table.items()}


def _read_table(path: Path) -> dict[str, list[int]] | None:
    """The part table of the index file at `path` (offsets from the file's start), or None
    when there is none, or another format's, or a damaged one: it is then built again."""
    try:
        with path.open("rb") as handle:
            if handle.readline().rstrip(b"\n") != FORMAT.encode():
                return None
            table = orjson.loads(handle.readline())
            base = handle.tell()
            size = handle.seek(0, 2)
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(table, dict) or "summary" not in table:
        return None
    found: dict[str, list[int]] = {}
    for name, where in table.items():
        if not (
            isinstance(where, list)
            and len(where) == 2
            and all(isinstance(n, int) and n >= 0 for n in where)
            and base + where[0] + where[1] <= size
        ):
            return None
        found[name] = [base + where[0], where[1]]
    return found


class Indexes:
    """Document indexes under `folder`, each built once (by one thread at a time) and then
    read part by part."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}
        self._opened: OrderedDict[str, Index] = OrderedDict()

    def path(self, name: str) -> Path:
        return self.folder / name[:2] / f"{name}.pbv"

    def get(self, name: str, build: Callable[[], dict[str, Any]]) -> Index:
        """The index called `name`, built with `build` (returning the view's parts) when it
        is not on disk yet."""
        found = self._remembered(name)
        if found is not None:
            return found
        with self._lock:
            building = self._building.setdefault(name, threading.Lock())
        with building:
            found = self._remembered(name)
            if found is None:
                found = self._open_or_build(name, build)
                self._remember(name, found)
        with self._lock:
            self._building.pop(name, None)
        return found

    def _remembered(self, name: str) -> Index | None:
        with self._lock:
            found = self._opened.get(name)
            if found is not None:
                self._opened.move_to_end(name)
            return found

    def _remember(self, name: str, index: Index) -> None:
        with self._lock:
            self._opened[name] = index
            while len(self._opened) > TABLES or (
                sum(i.size for i in self._opened.values()) > MEMORY_BYTES and len(self._opened) > 1
            ):
                self._opened.popitem(last=False)

    def _open_or_build(self, name: str, build: Callable[[], dict[str, Any]]) -> Index:
        path = self.path(name)
        table = _read_table(path) if path.is_file() else None
        if table is not None:
            return Index(path, table, {})
        encoded = encode(build())
        try:
            return Index(path, _write(path, encoded), {})
        except BadInput:
            # An unwritable cache costs speed, not the view: keep this one in memory.
            return Index(None, {}, encoded)
