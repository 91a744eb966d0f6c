"""Ids and names read from files, and the paths they are allowed to name.

A packet folder, a corpus, a run folder or an imported benchmark is untrusted input: a
``packet_truth.json`` whose ``packet_id`` is ``../../ESCAPED`` would otherwise make the tool
read or write outside the folder it was given. Every id read from a file (packet ids, doc
ids, document file names, schema names, cohort names) passes `check` before it names a file,
and every path built from one for writing passes `inside`, which resolves it (symlinks
included) and refuses anything outside the folder it belongs to.

The grammar: a letter or digit, then letters, digits, ``.``, ``_`` or ``-``; no path
separator, never ``..``, at most `MAX_LENGTH` characters (an id is part of file names such
as ``document_truth_<doc_id>.json``, which must stay under the file system's 255 bytes).
"""

from __future__ import annotations

import re
from pathlib import Path

from packetbench.core.errors import InputError

GRAMMAR = "[A-Za-z0-9][A-Za-z0-9._-]*"
MAX_LENGTH = 128
_ID = re.compile(rf"{GRAMMAR}\Z")


class UnsafeName(InputError):
    """An id read from a file is not an id, or a path built from ids leaves its folder."""


def is_id(value: object) -> bool:
    """Whether `value` is a string of the id grammar."""
    return (
        isinstance(value, str)
        and len(value) <= MAX_LENGTH
        and _ID.match(value) is not None
        and ".." not in value
    )


def check(value: object, what: str, source: Path | str) -> str:
    """`value` when it is an id; otherwise UnsafeName naming `source` (the file it was read
    from) and `what` it was ("packet_id", "documents[3].doc_id")."""
    if is_id(value):
        assert isinstance(value, str)
        return value
    shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
    raise UnsafeName(
        f"{source}: {what} {shown} is not an id (letters, digits, '.', '_' and '-', "
        f"starting with a letter or digit, no '..', at most {MAX_LENGTH} characters)"
    )


def check_schema(value: object, what: str, source: Path | str) -> str:
    """A schema reference, ``name`` or ``namespace/name``, each part an id."""
    if isinstance(value, str) and value.count("/") == 1:
        space, name = value.split("/")
        if is_id(space) and is_id(name):
            return value
    return check(value, what, source)


def inside(folder: Path, *parts: str) -> Path:
    """``folder / parts...`` after checking that it resolves inside `folder` (symlinks
    followed): the path a writer may use. UnsafeName otherwise."""
    path = folder.joinpath(*parts)
    root = folder.resolve()
    resolved = path.resolve()
    if resolved != root and root not in resolved.parents:
        raise UnsafeName(f"{path}: resolves to {resolved}, outside {folder}; refusing to use it")
    return path
