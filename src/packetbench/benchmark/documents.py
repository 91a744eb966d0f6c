"""Your own documents: a folder of PDF, XLSX and CSV files with no truth, extracted as a run.

`packetbench extract --documents FOLDER` extracts every ``*.pdf``, ``*.xlsx`` and ``*.csv``
file of FOLDER (not its subfolders; other files are listed as skipped) under a schema chosen
per document: `--schema` for every file, `--schema-map FILE` (a JSON object, file name ->
document type) for the files it names, and for the rest a classifier prompt
(`benchmark.classify`). The folder becomes one truthless packet (`Packet.own`): its id is the
folder's name, each document's id its file's stem. run.json's packets entry holds the folder,
every file with its sha256 and schema and how that schema was chosen, so every later command
finds the documents again, and refuses files changed since.

Such a run has no truth: `score` refuses it in one line; `verify` labels its claims and, with
a calibration, estimates its hallucination rate; `report` shows that estimate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from packetbench.benchmark.packets import DocInfo, Packet, find_packets
from packetbench.core import ids, safe_read
from packetbench.core.errors import BadInput, UsageError

SUFFIXES = {".pdf": "pdf", ".xlsx": "xlsx", ".csv": "csv"}
TIER = "own"  # the tier slice of one's own documents
BY_SCHEMA, BY_MAP = "--schema", "--schema-map"


def is_documents(packet: Packet) -> bool:
    return packet.truthless


def is_documents_run(info: dict[str, Any]) -> bool:
    """Whether run.json (`info`) is a run of one's own documents."""
    entries = info.get("packets")
    return isinstance(entries, list) and any(
        isinstance(e, dict) and isinstance(e.get("own_documents"), dict) for e in entries
    )


def files_of(folder: Path) -> tuple[list[Path], list[str]]:
    """The documents of `folder` (by name) and the names of the other files it holds."""
    if not folder.is_dir():
        raise BadInput(f"{folder}: not a folder (--documents takes a folder of documents)")
    found: list[Path] = []
    skipped: list[Path] = []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name.startswith(".") or not path.is_file():
            continue
        (found if path.suffix.lower() in SUFFIXES else skipped).append(path)
    if not found:
        raise BadInput(f"{folder}: holds no document (no *.pdf, *.xlsx or *.csv file)")
    return found, [p.name for p in skipped]


def doc_id_of(path: Path) -> str:
    """A document's id: its file's stem, every run of characters outside the id grammar an
    underscore."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", path.stem).strip("._-")[: ids.MAX_LENGTH]
    name = re.sub(r"\.{2,}", ".", name)
    if not ids.is_id(name):
        raise BadInput(f"{path}: no document id can be made of its name")
    return name


def packet_id_of(folder: Path) -> str:
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", folder.resolve().name).strip("._-")
    name = re.sub(r"\.{2,}", ".", name)[: ids.MAX_LENGTH]
    return name if ids.is_id(name) else "documents"


def known_types() -> list[str]:
    """The document types a document of one's own may be given (those with a prompt)."""
    from packetbench.benchmark.harness import prompts
    from packetbench.generator.schema_files import all_schemas

    return sorted(
        name
        for name in all_schemas()
        if (prompts.folder() / f"{prompts.template_name(name)}.j2").is_file()
    )


def _check_type(value: Any, where: str) -> str:
    known = known_types()
    if not isinstance(value, str) or value not in known:
        raise BadInput(f"{where}: unknown document type {value!r} (known: {', '.join(known)})")
    return value


def read_schema_map(path: Path) -> dict[str, str]:
    """The `--schema-map` file: a JSON object of file name -> document type."""
    try:
        data = orjson.loads(safe_read.read_bytes(path, "settings"))
    except FileNotFoundError:
        raise BadInput(f"{path}: missing (the --schema-map file)") from None
    except (OSError, orjson.JSONDecodeError, safe_read.UnsafeFile) as error:
        raise BadInput(f"{path}: unreadable ({error})") from None
    if not isinstance(data, dict) or not data:
        raise BadInput(f"{path}: not a schema map (a JSON object: file name -> document type)")
    return {str(name): _check_type(kind, f"{path}: {name}") for name, kind in data.items()}


@dataclass(frozen=True)
class Typed:
    """One document of the folder with its schema and how the schema was chosen."""

    path: Path
    doc_id: str
    format: str
    schema: str
    chosen_by: str


def chosen(
    folder: Path, schema: str | None, schema_map: Path | None
) -> tuple[list[Typed], list[Path], list[str]]:
    """The documents the user typed, the documents left to a classifier, the skipped
    files' names."""
    files, skipped = files_of(folder)
    given = read_schema_map(schema_map) if schema_map is not None else {}
    if schema is not None:
        _check_type(schema, "--schema")
    names = {p.name for p in files}
    unknown = sorted(set(given) - names)
    if unknown:
        raise BadInput(f"{schema_map}: names {unknown[0]!r}, which is no document of {folder}")
    typed, left = [], []
    seen: dict[str, Path] = {}
    for path in files:
        doc_id = doc_id_of(path)
        if doc_id in seen:
            raise BadInput(
                f"{path}: its document id {doc_id!r} is also {seen[doc_id].name}'s; rename one"
            )
        seen[doc_id] = path
        fmt = SUFFIXES[path.suffix.lower()]
        if path.name in given:
            typed.append(Typed(path, doc_id, fmt, given[path.name], BY_MAP))
        elif schema is not None:
            typed.append(Typed(path, doc_id, fmt, schema, BY_SCHEMA))
        else:
            left.append(path)
    return typed, left, skipped


def packet_of(
    folder: Path, typed: list[Typed], skipped: list[str], classifier: dict[str, Any] | None
) -> Packet:
    """The truthless packet of `folder`'s documents, in file name order."""
    ordered = sorted(typed, key=lambda t: t.path.name)
    documents = tuple(
        DocInfo(t.doc_id, t.schema, t.format, t.path.name, t.schema, None) for t in ordered
    )
    own = {
        "folder": str(folder.resolve()),
        "chosen_by": {t.doc_id: t.chosen_by for t in ordered},
        "skipped": skipped,
        **({"classifier": classifier} if classifier else {}),
    }
    return Packet(folder.resolve(), packet_id_of(folder), TIER, 0, documents, None, own)


def packet_from_entry(entry: dict[str, Any], run: Path) -> Packet:
    """The packet a run.json entry of one's own documents describes (BadInput naming
    run.json when it is damaged)."""
    where = run / "run.json"
    own = entry.get("own_documents")
    try:
        assert isinstance(own, dict)
        folder = Path(str(own["folder"]))
        documents = tuple(
            DocInfo(
                ids.check(f["doc_id"], "doc_id", where),
                ids.check(f["doc_type"], "doc_type", where),
                ids.check(f["format"], "format", where),
                ids.check(f["file"], "file", where),
                ids.check_schema(f["schema"], "schema", where),
                None,
            )
            for f in own["files"]
        )
        rest = {k: v for k, v in own.items() if k != "files"}
        return Packet(
            folder,
            ids.check(entry["packet_id"], "packet_id", where),
            TIER,
            0,
            documents,
            None,
            rest,
        )
    except (AssertionError, KeyError, TypeError) as error:
        raise BadInput(f"{where}: a damaged listing of your own documents ({error})") from None


@dataclass(frozen=True)
class RunPackets:
    packets: list[Packet]
    source: dict[str, Any] | None  # one's own documents: their folder and listing


def run_packets(info: dict[str, Any], run: Path, packets_dir: Path) -> RunPackets:
    """The packets of the run whose run.json is `info`: those of `packets_dir`, or, for a
    run of one's own documents, its folder as run.json lists it."""
    if not is_documents_run(info):
        return RunPackets(find_packets(packets_dir), None)
    packets = [
        packet_from_entry(e, run)
        for e in info["packets"]
        if isinstance(e, dict) and "own_documents" in e
    ]
    source = {"folder": str(packets[0].path), "packet_id": packets[0].packet_id}
    return RunPackets(packets, source)


def not_scorable(run: Path) -> BadInput:
    """The one-line refusal of every command that needs a run's truth."""
    return BadInput(
        f"{run / 'run.json'}: a run of your own documents has no truth to score against; "
        f"estimate its hallucination rate with `packetbench verify {run} --calibration CAL_RUN`"
    )


def previous_packet(out: Path, folder: Path) -> Packet | None:
    """The packet of the run being resumed in `out` (None when there is none): a resumed run
    keeps the documents and schemas it started with, and is not classified again."""
    from packetbench.benchmark.runs import read_run

    if not (out / "run.json").is_file():
        return None
    info = read_run(out)
    if not is_documents_run(info):
        raise UsageError(f"{out}: the run there is not a run of your own documents")
    packet = packet_from_entry(
        next(e for e in info["packets"] if isinstance(e, dict) and "own_documents" in e), out
    )
    if packet.path != folder.resolve():
        raise UsageError(f"{out}: the run there is of {packet.path}, not of {folder}")
    return packet
