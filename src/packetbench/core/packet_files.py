"""The files of a packet, typed: what the generator writes next to every document and every
reader of a packet reads (docs/design.md §4).

    packet_truth.json                  PacketTruthFile
    document_truth_<doc_id>.json       DocumentTruthFile
    field_truth_<doc_id>.json          FieldTruthFile
    manifest_<doc_id>.json             ManifestFile
    rendered_universe_<doc_id>.json    RenderedUniverseFile

Each is a `TypedDict` checked by pydantic when it is read (`read_packet_file`): a file that is
not JSON, or whose keys a reader relies on are missing or of another type, is refused in one
line naming it. What is read is the file's own JSON, checked and returned as it was parsed
(key order, numbers and the keys a reader does not rely on kept), so reading a packet
through these types changes no value anything computes from it. Packets are untrusted input:
every file is read through `safe_read` (a regular file, under its kind's size ceiling).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, NotRequired, TypeVar, cast

import orjson
from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict

from packetbench.core import safe_read
from packetbench.core.errors import BadInput

_OPEN = ConfigDict(extra="allow")  # a reader relies on the keys declared; others may be there


@with_config(_OPEN)
class DocumentEntry(TypedDict):
    """One document of packet_truth.json's `documents`."""

    doc_id: str
    doc_type: str
    format: str
    file: str
    schema: str
    superseded_by: NotRequired[str | None]  # the doc_id of the document that replaces it


@with_config(_OPEN)
class PacketTruthFile(TypedDict):
    packet_id: str
    tier: str
    seed: int
    generator_version: NotRequired[str | None]
    knobs: NotRequired[dict[str, Any]]
    documents: list[DocumentEntry]
    world: NotRequired[dict[str, Any]]  # the packet's whole world model


@with_config(_OPEN)
class DocumentTruthFile(TypedDict):
    doc_id: str
    doc_type: str
    schema: str
    truth: dict[str, Any]  # an instance of the document's schema, null where not shown


@with_config(_OPEN)
class Placement(TypedDict, total=False):
    """Where a value was drawn: a PDF page and box, a workbook cell, a CSV row and column."""

    page: int
    bbox: list[int | float]  # PDF points, origin bottom-left
    quad: Any
    text_layer: bool  # the page's text layer carries it readably
    legible: bool  # false: damaged past reading (docs/patterns.md rule 3b)
    fragment: Any
    sheet: str
    cell: str
    row: int
    column: int


@with_config(_OPEN)
class FieldEntry(TypedDict):
    """One non-null scoreable leaf of a document's truth."""

    path: str
    value: Any
    kind: str
    rendered_as: NotRequired[Any]  # the exact string drawn
    locations: list[Placement]
    illegible: NotRequired[bool]  # no legible location: abstention expected


@with_config(_OPEN)
class FieldTruthFile(TypedDict):
    doc_id: str
    fields: list[FieldEntry]


@with_config(_OPEN)
class PatternApplied(TypedDict):
    """One presentation pattern applied to the document."""

    id: str
    name: NotRequired[str]
    family: NotRequired[str]
    phase: NotRequired[str]
    pages_affected: NotRequired[list[int]]
    targets: NotRequired[list[str]]  # the truth paths it touched
    ground_truth_delta: NotRequired[Any]
    details: NotRequired[Any]


@with_config(_OPEN)
class ManifestFile(TypedDict):
    doc_id: str
    doc_type: NotRequired[str]
    format: NotRequired[str]
    file: NotRequired[str]
    sha256: str  # of the document's file
    pages: NotRequired[int]
    tier: NotRequired[str]
    seed: NotRequired[int]
    knobs: NotRequired[dict[str, Any]]
    patterns_applied: list[PatternApplied]
    versions: NotRequired[dict[str, Any]]


@with_config(_OPEN)
class DrawnString(TypedDict):
    text: str
    page: NotRequired[int]


@with_config(_OPEN)
class RenderedUniverseFile(TypedDict):
    doc_id: str
    strings: list[DrawnString]  # every string drawn visibly
    hidden: NotRequired[list[dict[str, Any]]]  # drawn invisibly: never truth
    illegible: NotRequired[list[dict[str, Any]]]  # damaged past reading


# kind -> (the type of its file, the safe_read ceiling it is read under)
KINDS: dict[str, tuple[Any, str]] = {
    "packet_truth": (PacketTruthFile, "packet_truth"),
    "document_truth": (DocumentTruthFile, "truth"),
    "field_truth": (FieldTruthFile, "truth"),
    "manifest": (ManifestFile, "truth"),
    "rendered_universe": (RenderedUniverseFile, "truth"),
}

T = TypeVar("T")


@cache
def _adapter(kind: str) -> TypeAdapter[Any]:
    return TypeAdapter(KINDS[kind][0])


def file_name(kind: str, doc_id: str | None = None) -> str:
    """The file of `kind` (of document `doc_id`) in a packet folder."""
    return f"{kind}.json" if doc_id is None else f"{kind}_{doc_id}.json"


def read_json(path: Path, ceiling: str = "truth") -> Any:
    """The JSON of `path`, a regular file within the `ceiling` of safe_read; BadInput naming
    it when it is missing or not JSON."""
    try:
        return orjson.loads(safe_read.read_bytes(path, ceiling))
    except FileNotFoundError:
        raise BadInput(f"{path}: missing") from None
    except (OSError, orjson.JSONDecodeError) as error:
        raise BadInput(f"{path}: unreadable ({error})") from None


def check(data: Any, kind: str, path: Path) -> Any:
    """`data` (the JSON of `path`), after checking it is a file of `kind`; BadInput naming
    the file and the first problem otherwise."""
    try:
        _adapter(kind).validate_python(data, strict=True)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "file"
        raise BadInput(f"{path}: not a {kind} file ({where}: {first['msg']})") from None
    return data


def read_packet_file(path: Path, kind: str) -> Any:
    """The file `path` of `kind` (a key of KINDS), read and checked once."""
    return check(read_json(path, KINDS[kind][1]), kind, path)


def read_packet_truth(folder: Path) -> PacketTruthFile:
    return cast(
        PacketTruthFile,
        read_packet_file(folder / file_name("packet_truth"), "packet_truth"),
    )


def read_document_truth(folder: Path, doc_id: str) -> DocumentTruthFile:
    path = folder / file_name("document_truth", doc_id)
    return cast(DocumentTruthFile, read_packet_file(path, "document_truth"))


def read_field_truth(folder: Path, doc_id: str) -> FieldTruthFile:
    path = folder / file_name("field_truth", doc_id)
    return cast(FieldTruthFile, read_packet_file(path, "field_truth"))


def read_manifest(folder: Path, doc_id: str) -> ManifestFile:
    path = folder / file_name("manifest", doc_id)
    return cast(ManifestFile, read_packet_file(path, "manifest"))


def read_rendered_universe(folder: Path, doc_id: str) -> RenderedUniverseFile:
    path = folder / file_name("rendered_universe", doc_id)
    return cast(RenderedUniverseFile, read_packet_file(path, "rendered_universe"))
