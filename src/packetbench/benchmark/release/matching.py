"""Whether a run was made on a release's packets: the sha256s it recorded of every file it
read (run.json, or an inspect_ai log's task metadata) against the release's COMMITMENT.

A run's packet is found by the sha256 of its packet_truth.json, not by its packet id, so a
run of the test split is matched without the release naming any test packet (their ids carry
their seeds), and every message names a packet it found by its folder in the release
(`test/N1-t002`), never by the run's id for it. Each document's truth files must be the
committed files of the same name and its file one of the packet's committed files (its
manifest, matched too, records the file's sha256). A run must cover a whole split: every
packet, every document; a run of some documents, of two splits or of other packets is
refused with the first reason found.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from packetbench.benchmark.release.layout import Release
from packetbench.benchmark.release.reading import RunPacket
from packetbench.benchmark.release.spec import SMALLEST_PRIVATE_SEED
from packetbench.core.errors import CheckFailed

TRUTH_KINDS = ("document_truth", "field_truth", "manifest", "rendered_universe")


class NotOnRelease(CheckFailed):
    """A run (or log) not made on exactly the packets of one split of the release."""


@dataclass(frozen=True)
class Match:
    split: str
    folders: dict[str, str]  # the run's packet id -> the release's packet folder
    documents: int


def _named(packet: RunPacket, place: int, count: int) -> str:
    """A run's packet the release does not hold, as a message names it: by its id, unless
    the id may carry a private seed (a held-out packet's, 2**40 and above), then by its place
    in the run."""
    _, _, seed = packet.packet_id.rpartition("-")
    if seed.isdigit() and int(seed) >= SMALLEST_PRIVATE_SEED:
        return f"{place} of the run's {count}"
    return packet.packet_id


def match(release: Release, packets: tuple[RunPacket, ...], source: Path) -> Match:
    """The split `packets` (what a run read) cover; NotOnRelease naming the first reason
    they are not exactly the packets of one split of `release`."""
    title = release.title
    index: dict[str, tuple[str, str]] = {}
    for split, entry in release.manifest.splits.items():
        for folder in entry.packets:
            sha = release.lines.get(f"{split}/{folder}/packet_truth.json")
            if sha is not None:
                index[sha] = (split, folder)
    folders: dict[str, str] = {}
    splits: set[str] = set()
    documents = 0
    for place, packet in enumerate(packets, 1):
        hit = index.get(packet.packet_truth_sha256)
        if hit is None:
            raise NotOnRelease(
                f"{source}: packet {_named(packet, place, len(packets))} is not a packet of "
                f"release {title} (its packet_truth.json is not committed): the run was made "
                "on other packets"
            )
        split, folder = hit  # named from here on by its folder in the release
        if folder in folders.values():
            raise NotOnRelease(f"{source}: lists packet {split}/{folder} twice")
        splits.add(split)
        folders[packet.packet_id] = folder
        files = release.files_of(split, folder)
        committed = set(files.values())
        expected = release.split(split).pages.get(folder, {})
        for doc_id, kinds in sorted(packet.documents.items()):
            where = f"{source}: {folder}/{doc_id}"
            if doc_id not in expected:
                raise NotOnRelease(f"{where}: not a document of release {title}")
            for kind in ("file", *TRUTH_KINDS):
                sha = kinds.get(kind)
                if sha is None:
                    raise NotOnRelease(
                        f"{where}: records no sha256 of its {kind.replace('_', ' ')}"
                    )
                ok = (
                    sha in committed
                    if kind == "file"
                    else files.get(f"{kind}_{doc_id}.json") == sha
                )
                if not ok:
                    raise NotOnRelease(
                        f"{where}: its {kind.replace('_', ' ')} is not the one release {title} "
                        "commits (sha256 differs): the run was made on other packets"
                    )
        left = sorted(set(expected) - set(packet.documents))
        if left:
            raise NotOnRelease(
                f"{source}: covers {len(packet.documents)} of the {len(expected)} documents of "
                f"packet {split}/{folder} (first missing: {left[0]}); a leaderboard run covers "
                "its whole split"
            )
        documents += len(packet.documents)
    if not splits:
        raise NotOnRelease(f"{source}: lists no packets")
    if len(splits) > 1:
        raise NotOnRelease(
            f"{source}: mixes packets of the {' and '.join(sorted(splits))} splits; a run covers "
            "one split"
        )
    split = splits.pop()
    listed = release.split(split).packets
    if len(folders) != len(listed):
        raise NotOnRelease(
            f"{source}: covers {len(folders)} of the {len(listed)} packets of split {split} of "
            f"release {title}; a leaderboard run covers its whole split"
        )
    return Match(split, folders, documents)
