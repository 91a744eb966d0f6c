"""Reading files that come from outside: regular files only, and never more than a ceiling.

Packets, corpora, run folders, rules, pricing tables and the response cache are untrusted
input. A FIFO in place of a truth file would block its reader forever and a symlink to
``/dev/zero`` would feed it without end; a 40 GB "truth file" would exhaust memory. Every such
file is read through `read_bytes` (or hashed through `sha256`), which opens it without
blocking, reads it only when it is a regular file (a symlink to one is followed) and stops at
the ceiling of its kind; a file another library opens by name (pdfium, openpyxl, DuckDB) is
first passed to `check_file`. Anything else is `UnsafeFile`, one line naming the file.

A missing or unreadable file raises the `OSError` an ordinary read would, so callers keep
their own wording for those. `toml_file` (and `parse_json` for JSON) is the one way a
command reads a settings file it did not write (a release spec, a seed file, gate rules,
submission.toml; release.json, run.json): BadInput naming the file for every way it can be
wrong, nesting past MAX_DEPTH included (Python's TOML reader recurses, and ends in a
RecursionError at a few hundred levels).
"""

from __future__ import annotations

import hashlib
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

import orjson

from packetbench.core.errors import BadInput, InputError

_MB = 1 << 20
# The largest file of each kind packetbench reads. Generous (the canonical N5 packet's largest
# truth file is 0.5 MB, its largest PDF 3 MB; run.json of 10,000 packets about 150 MB), and
# finite: a ceiling is what turns an endless stream into an error.
CEILINGS = {
    "packet_truth": 256 * _MB,
    "truth": 512 * _MB,  # document_truth, field_truth, manifest, rendered_universe
    "document": 1024 * _MB,  # a PDF, workbook or CSV of a packet, hashed
    # ... and read to be sent to a model or shown: a ceiling per kind, each far above what
    # a model's context takes (a 10 MB workbook is millions of tokens), so a 15 MB workbook
    # of 3 M rows is refused at once instead of parsed for minutes in gigabytes.
    "pdf": 512 * _MB,
    "xlsx": 10 * _MB,
    "csv": 16 * _MB,
    "record": 256 * _MB,  # an extraction record
    "run": 1024 * _MB,  # run.json, sim_injections.json
    "scores": 4096 * _MB,  # scores/*.json and *.parquet, results.duckdb
    "corpus": 1024 * _MB,  # corpus.json, corpus.lock
    "settings": 16 * _MB,  # gate rules, pricing tables, cache entries
    "schema": 64 * _MB,  # a JSON Schema
}
# What the XML inside a workbook may unpack to (a zip bomb is small on disk).
XLSX_UNPACKED = 100 * _MB
DOCUMENT_KINDS = {".pdf": "pdf", ".xlsx": "xlsx", ".csv": "csv"}
CHUNK = 1 << 20
# How deep JSON from outside may nest (objects and arrays): far beyond any truth, schema or
# answer (a dozen levels), and well within what code that walks it recursively can take.
MAX_DEPTH = 100


class UnsafeFile(InputError):
    """A path to read is not a regular file, or is larger than its kind allows."""


def _ceiling(kind: str) -> int:
    return CEILINGS[kind]


def _refuse(path: Path, mode: int, size: int, kind: str) -> None:
    if not stat.S_ISREG(mode):
        what = (
            "a FIFO"
            if stat.S_ISFIFO(mode)
            else "a device"
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket"
            if stat.S_ISSOCK(mode)
            else "a folder"
            if stat.S_ISDIR(mode)
            else "not a regular file"
        )
        raise UnsafeFile(f"{path}: {what}, not a regular file; refusing to read it")
    if size > _ceiling(kind):
        raise UnsafeFile(
            f"{path}: {size:,} bytes, larger than a {kind} file may be "
            f"({_ceiling(kind):,} bytes); refusing to read it"
        )


def check_file(path: Path, kind: str) -> int:
    """The size of `path` after checking that it is a regular file within the ceiling of
    `kind` (for a library that opens the path itself). OSError when it cannot be stat'ed."""
    found = os.stat(path)
    _refuse(path, found.st_mode, found.st_size, kind)
    return found.st_size


def document_kind(path: Path) -> str:
    """The ceiling's kind of a document file by its suffix ("document" for another)."""
    return DOCUMENT_KINDS.get(path.suffix.lower(), "document")


def check_workbook(path: Path, data: bytes) -> None:
    """UnsafeFile when the workbook `data` (of `path`) unpacks to more than XLSX_UNPACKED;
    a file that is no zip is left to the workbook reader to refuse."""
    import io
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError):
        return
    if unpacked > XLSX_UNPACKED:
        raise UnsafeFile(
            f"{path}: unpacks to {unpacked:,} bytes, more than a workbook may "
            f"({XLSX_UNPACKED:,} bytes); refusing to read it"
        )


def _open(path: Path, kind: str) -> int:
    # O_NONBLOCK: opening a FIFO for reading must not wait for a writer.
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        found = os.fstat(handle)
        _refuse(path, found.st_mode, found.st_size, kind)
    except BaseException:
        os.close(handle)
        raise
    return handle


def read_bytes(path: Path, kind: str) -> bytes:
    """The bytes of the regular file `path`, at most the ceiling of `kind`."""
    handle = _open(path, kind)
    limit = _ceiling(kind)
    try:
        parts: list[bytes] = []
        total = 0
        while chunk := os.read(handle, CHUNK):
            total += len(chunk)
            if total > limit:  # it grew while being read
                _refuse(path, stat.S_IFREG, total, kind)
            parts.append(chunk)
    finally:
        os.close(handle)
    return b"".join(parts)


def read_text(path: Path, kind: str) -> str:
    """`read_bytes` decoded as UTF-8 (UnicodeDecodeError as `bytes.decode` raises it)."""
    return read_bytes(path, kind).decode("utf-8")


def sha256(path: Path, kind: str) -> str:
    """The sha256 of the regular file `path`, read in chunks (never held whole)."""
    handle = _open(path, kind)
    limit = _ceiling(kind)
    digest = hashlib.sha256()
    total = 0
    try:
        while chunk := os.read(handle, CHUNK):
            total += len(chunk)
            if total > limit:
                _refuse(path, stat.S_IFREG, total, kind)
            digest.update(chunk)
    finally:
        os.close(handle)
    return digest.hexdigest()


def _nesting(value: Any) -> int:
    """How deep `value` nests, counted without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


def parse_json(data: bytes | str) -> Any:
    """JSON from outside: ValueError when it is not JSON, or nests deeper than MAX_DEPTH
    (a reader that walks it would end in a RecursionError)."""
    value = orjson.loads(data)
    if _nesting(value) > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    return value


def load_json(path: Path, kind: str) -> Any:
    """`parse_json` of the regular file `path` (`read_bytes`)."""
    return parse_json(read_bytes(path, kind))


def parse_toml(text: str) -> dict[str, Any]:
    """TOML from outside: ValueError when it is not TOML, or nests deeper than MAX_DEPTH."""
    try:
        value = tomllib.loads(text)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels") from None
    if _nesting(value) > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    return value


def toml_file(path: Path, what: str, kind: str = "settings") -> dict[str, Any]:
    """The TOML file `path` from outside (`what` it should be, for the message when it is
    missing): BadInput naming it for every way it can be wrong."""
    try:
        data = read_bytes(path, kind)
    except FileNotFoundError:
        raise BadInput(f"{path}: missing ({what})") from None
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error.strerror or type(error).__name__})") from None
    try:
        return parse_toml(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not UTF-8 text") from None
    except ValueError as error:
        raise BadInput(f"{path}: not TOML ({' '.join(str(error).split())})") from None
