"""The simulator's ledger is kept on disk as a run goes and written an entry at a time.

At 1,000 hard packets the ledger is 240 MB of JSON; held as Python objects it was most of the
simulated extraction's 2.6 GB peak (850 MB at 250 packets). Its file must stay what it was:
the stable JSON layout of the whole ledger (`dump_json`), documents in key order.
"""

from __future__ import annotations

import json
import random
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest

from packetbench.benchmark.providers.sim import LEDGER, Ledger, SimProvider
from packetbench.benchmark.sim.confiding import expected, tally
from packetbench.core.jsonfile import compact_length, dump_json, dump_json_streamed
from packetbench.truth.packets import find_packets
from tests.support.paths import PACKETS


def _value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        return rng.choice([1, 2.5, "x" * rng.randint(0, 120), None, True, "é"])
    if roll < 0.7:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 12))]
    return {f"k{i}" * rng.randint(1, 3): _value(rng, depth + 1) for i in range(rng.randint(0, 12))}


def test_the_streamed_layout_is_the_stable_layout() -> None:
    """Pieces of `dump_json_streamed` make the bytes of `dump_json` of the whole: an empty
    head or none, members that fit on a line or not, and no members at all."""
    rng = random.Random(20261127)
    shapes: Counter[tuple[bool, bool]] = Counter()
    for _ in range(600):
        head = {f"h{i}": _value(rng, 2) for i in range(rng.randint(0, 4))}
        members = list(
            {
                f"P-{rng.randint(0, 9999)}/d{i}": _value(rng, 1) for i in range(rng.randint(0, 30))
            }.items()
        )
        length = compact_length((key, len(orjson.dumps(value))) for key, value in members)
        assert length == len(orjson.dumps(dict(members)))
        whole = dump_json({**head, "documents": dict(members)})
        pieces = list(dump_json_streamed(head, "documents", members.copy, length))
        assert b"".join(pieces) == whole
        shapes[(bool(head), len(pieces) > 1)] += 1
    assert all(shapes[(head, streamed)] for head in (True, False) for streamed in (True, False))


def test_the_ledger_file_is_every_entry_in_document_order(tmp_path: Path) -> None:
    """A cited run with confidences over a canonical packet: the file's documents are the
    entries the provider put, in key order, and the file is the stable layout of itself."""
    (packet,) = find_packets(PACKETS / "N3-000001")
    provider = SimProvider("typical", 0, cite="page", confidence=True)
    provider.prepare(packet)
    keys = []
    for doc in packet.documents:
        provider.extract(packet, doc)
        keys.append(f"{packet.packet_id}/{doc.doc_id}")
    entries = {key: provider.ledger[key] for key in keys}
    provider.finish(tmp_path)
    data = (tmp_path / LEDGER).read_bytes()
    ledger = json.loads(data)
    assert list(ledger["documents"]) == sorted(keys) != keys  # put in packet order
    assert ledger["documents"] == entries
    assert dump_json(ledger) == data
    statuses = Counter(entry["status"] for entry in entries.values())
    assert statuses["ok"] > 10
    overall = ledger["overall"]
    ok = [entry for entry in entries.values() if entry["status"] == "ok"]
    assert overall["field"]["gt_fields"] == sum(e["field"]["gt_fields"] for e in ok)
    assert overall["confidences"]["values"] == sum(len(e["confidences"]) for e in ok)
    assert sum(overall["citations"]["verdicts"].values()) == sum(
        sum(e["citations"]["verdicts"].values()) for e in ok
    )


def test_the_ledger_holds_no_entry_in_memory() -> None:
    """3,000 entries of about 8 KB each (24 MB of JSON) put into the ledger: the memory the
    ledger holds stays under 2 MB, its index of where each entry lies."""
    ledger = Ledger()
    tracemalloc.start()
    try:
        for index in range(3_000):
            entry = {
                "status": "ok",
                "field": {"gt_fields": 10, "correct": 9},
                "injected": {"omit": 1},
                "injections": [{"kind": "omit", "path": f"items[{i}].value"} for i in range(200)],
            }
            ledger.put(f"N5-{index:06d}/acord_125", entry)
            del entry
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 2 * 1024 * 1024
    assert ledger["N5-000042/acord_125"]["injections"][199]["path"] == "items[199].value"
    assert ledger.field == {"gt_fields": 30_000, "correct": 27_000}
    ledger.close()


def test_expected_confidences_count_every_pair() -> None:
    """The AUC from counts by confidence is the pairwise count of right over wrong, ties a
    half, exactly; bins and calibration error as from the items themselves."""
    rng = random.Random(7)
    items = [
        {"confidence": round(rng.random(), 2), "right": rng.random() < 0.7} for _ in range(3_000)
    ]
    counts: Counter[tuple[float, bool]] = Counter()
    tally(items, counts)
    found = expected(counts)
    right = [i["confidence"] for i in items if i["right"]]
    wrong = [i["confidence"] for i in items if not i["right"]]
    wins = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
    assert found["auc"] == wins / (len(right) * len(wrong))
    assert found["values"] == 3_000 and found["right"] == len(right)
    for row in found["bins"]:
        inside = [i for i in items if min(int(i["confidence"] * 10), 9) == row["bin"]]
        assert row["values"] == len(inside)
        assert row["mean_confidence"] == pytest.approx(
            sum(i["confidence"] for i in inside) / len(inside), abs=1e-12
        )
        assert row["accuracy"] == sum(i["right"] for i in inside) / len(inside)
    assert expected(Counter())["auc"] is None
