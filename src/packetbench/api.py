"""packetbench's Python API: load a packet, read a run, query its results (docs/api.md).

    from packetbench import api

    packet = api.load_packet("packets/N1-000001")
    truth = packet.files().truth("sov_pdf")         # each file read once, then kept
    run = api.read_run("runs/sim-typical")          # run.json, typed
    with api.open_results("runs/sim-typical") as results:
        results.metric("headline")                  # a metric view, as rows
        results.rows("SELECT verdict, count(*) AS n FROM claims GROUP BY verdict")

Everything here reads files and never writes one; every problem with a file is a
`packetbench.core.errors.BadInput` naming it (an `InputError`, as the command line reports it).
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path

from packetbench.benchmark.results.query import RunSet, open_runs
from packetbench.benchmark.runs import RunInfo
from packetbench.benchmark.runs import read_run as _read_run
from packetbench.truth.packets import DocInfo, Packet, PacketFiles, find_packets
from packetbench.truth.packets import load_packet as _load_packet

__all__ = [
    "DocInfo",
    "Packet",
    "PacketFiles",
    "RunInfo",
    "RunSet",
    "load_packet",
    "load_packets",
    "open_results",
    "read_run",
]

Where = str | PathLike[str]


def load_packet(folder: Where) -> Packet:
    """The packet in `folder` (its packet_truth.json read and checked): its id, tier, seed and
    documents; `files()` reads its truth files, each once."""
    return _load_packet(Path(folder))


def load_packets(folder: Where) -> list[Packet]:
    """The packet `folder` is, or every packet directly inside it, by packet id."""
    return find_packets(Path(folder))


def read_run(run: Where) -> RunInfo:
    """run.json of the run folder `run`, typed (`RunInfo`). A repeated run (`--repeats`)
    is read as well: its `repeats` lists the repeats, each a run of its own."""
    return _read_run(Path(run), repeats=True)


def open_results(*runs: Where, paired: bool = False) -> RunSet:
    """The results databases of the scored runs `runs`, stacked in one read-only connection
    with every metric of the reports as a view (`RunSet.metric`, `RunSet.rows`); close it,
    or use it as a context manager. With `paired`, the runs must share the documents they
    have in common (what `compare` and `gate` require)."""
    return open_runs([Path(run) for run in runs], paired=paired)
