"""`RUN/batches.json`: every provider batch of a run, its chunk and its state.

An entry is written (atomically) before its batch is created ("submitting"), again as soon as
the provider gave its id ("submitted"), whenever the provider's state of it changes, and once
every document of it has its record ("collected"). A run killed at any point is resumed from
this file: a batch with an id is polled, never created again.

The file is read back as untrusted input: a batch id must look like one (it is only ever sent
back to the provider), and an entry's documents must be documents of the run's packets (their
ids name record files).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packetbench.benchmark.providers.batch import valid_batch_id
from packetbench.core import safe_read
from packetbench.core.errors import BadInput
from packetbench.core.writing import write_json

NAME = "batches.json"
CUSTOM_ID = re.compile(r"pb-[0-9a-f]{32}")
DIGEST = re.compile(r"[0-9a-f]{64}")
OPEN = ("submitting", "submitted", "ended", "expired", "failed")  # not yet collected


def custom_id(packet_id: str, doc_id: str) -> str:
    """A document's custom id in a batch: within every provider's pattern and length
    (Anthropic's: 1-64 of [A-Za-z0-9_-]), and the same in every run."""
    return "pb-" + hashlib.sha256(f"{packet_id}/{doc_id}".encode()).hexdigest()[:32]


@dataclass
class Item:
    custom_id: str
    packet_id: str
    doc_id: str
    cache: str | None  # the response-cache key of its request

    def to_json(self) -> dict[str, Any]:
        return {
            "custom_id": self.custom_id,
            "packet_id": self.packet_id,
            "doc_id": self.doc_id,
            "cache": self.cache,
        }


@dataclass
class Entry:
    chunk: int
    state: str  # submitting | submitted | ended | expired | failed | refused | collected
    items: list[Item]
    batch_id: str | None = None
    provider_state: str | None = None
    message: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "chunk": self.chunk,
            "batch_id": self.batch_id,
            "state": self.state,
            "provider_state": self.provider_state,
            "message": self.message,
            "items": [item.to_json() for item in self.items],
        }


@dataclass
class BatchLog:
    path: Path
    entries: list[Entry] = field(default_factory=list)

    def save(self) -> None:
        write_json(self.path, {"batches": [entry.to_json() for entry in self.entries]})

    def open_entries(self) -> list[Entry]:
        return [entry for entry in self.entries if entry.state in OPEN]

    def add(self, items: list[Item]) -> Entry:
        entry = Entry(len(self.entries) + 1, "submitting", items)
        self.entries.append(entry)
        self.save()
        return entry


def load(run: Path, documents: set[tuple[str, str]]) -> BatchLog:
    """The run's batch log (empty when it has none); BadInput naming the file when it is
    not one, holds a malformed batch id, or names a document the run does not have."""
    path = run / NAME
    log = BatchLog(path)
    if not os.path.lexists(path):
        return log
    # Anything else in its place (a FIFO, a folder, a link to nowhere, a file that cannot be
    # read) is refused, never taken for "no batches": that would submit and pay for the
    # run's documents a second time.
    try:
        data = json.loads(safe_read.read_bytes(path, "run"))
        raw = data["batches"]
        for number, entry in enumerate(raw, 1):
            items = []
            for item in entry["items"]:
                where = (item["packet_id"], item["doc_id"])
                if where not in documents:
                    raise BadInput(
                        f"{path}: batch {number} names {where[0]}/{where[1]}, "
                        "which is not a document of this run"
                    )
                if not (
                    isinstance(item["custom_id"], str)
                    and CUSTOM_ID.fullmatch(item["custom_id"])
                    and item["custom_id"] == custom_id(*where)
                ):
                    raise BadInput(f"{path}: batch {number} has a malformed custom id")
                cache = item.get("cache")
                if cache is not None and not (isinstance(cache, str) and DIGEST.fullmatch(cache)):
                    cache = None
                items.append(Item(item["custom_id"], where[0], where[1], cache))
            batch_id = entry.get("batch_id")
            if batch_id is not None and not valid_batch_id(batch_id):
                raise BadInput(f"{path}: batch {number} has a malformed batch id {batch_id!r}")
            state = entry["state"]
            if state not in (*OPEN, "refused", "collected"):
                raise BadInput(f"{path}: batch {number} has an unknown state {state!r}")
            log.entries.append(
                Entry(
                    number,
                    state,
                    items,
                    batch_id,
                    entry.get("provider_state"),
                    entry.get("message"),
                )
            )
    except BadInput:
        raise
    except OSError as error:
        raise BadInput(
            f"{path}: unreadable ({error.strerror or type(error).__name__}); the batches it "
            "lists may be paid for already, so nothing is submitted again"
        ) from None
    except (ValueError, KeyError, TypeError, RecursionError) as error:
        raise BadInput(f"{path}: not a batch log ({type(error).__name__}: {error})") from None
    return log
