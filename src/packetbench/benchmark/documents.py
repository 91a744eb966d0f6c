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

from packetbench.benchmark.runs import RUN_FILE, PacketEntry, RunInfo, is_run, read_run
from packetbench.core import ids
from packetbench.core.errors import BadInput, UsageError
from packetbench.truth.packets import DocInfo, Packet, find_packets

SUFFIXES = {".pdf": "pdf", ".xlsx": "xlsx", ".csv": "csv"}
TIER = "own"  # the tier slice of one's own documents
BY_SCHEMA, BY_MAP = "--schema", "--schema-map"


def is_documents(packet: Packet) -> bool:
    return packet.truthless


def is_documents_run(info: RunInfo) -> bool:
    """Whether run.json (`info`) is a run of one's own documents."""
    return bool(own_entries(info))


def own_entries(info: RunInfo) -> list[PacketEntry]:
    """The packets entries of run.json (`info`) that list a folder of one's own documents."""
    return [e for e in info.packets or [] if e.own_documents is not None]


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


@dataclass(frozen=True)
class Typed:
    """One document of the folder with its schema and how the schema was chosen."""

    path: Path
    doc_id: str
    format: str
    schema: str
    chosen_by: str


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


def packet_from_entry(entry: PacketEntry, run: Path) -> Packet:
    """The packet a run.json entry of one's own documents describes (BadInput naming
    run.json when it is damaged)."""
    where = run / RUN_FILE
    own = entry.own_documents
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
            ids.check(entry.packet_id, "packet_id", where),
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


def run_packets(info: RunInfo, run: Path, packets_dir: Path) -> RunPackets:
    """The packets of the run whose run.json is `info`: those of `packets_dir`, or, for a
    run of one's own documents, its folder as run.json lists it."""
    if not is_documents_run(info):
        return RunPackets(find_packets(packets_dir), None)
    packets = [packet_from_entry(e, run) for e in own_entries(info)]
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
    if not is_run(out):
        return None
    info = read_run(out)
    if not is_documents_run(info):
        raise UsageError(f"{out}: the run there is not a run of your own documents")
    packet = packet_from_entry(own_entries(info)[0], out)
    if packet.path != folder.resolve():
        raise UsageError(f"{out}: the run there is of {packet.path}, not of {folder}")
    return packet
