"""The simulator plans every record the way the scorer's aligner will pair it: a record whose
key is missing or shared with another record of its list is paired by agreement, so the
simulator changes at most one of its leaves (with more, the aligner would call it invented
beside a dropped one, and the scorer would differ from the ledger)."""

from __future__ import annotations

import random
from typing import Any

from pydantic import Field

from packetbench.benchmark.score.align import align
from packetbench.benchmark.sim.engine import Engine
from packetbench.benchmark.sim.profiles import Profile
from packetbench.core.leaves import DocModel, ListShape, fields_of
from packetbench.generator.doctypes.driver_schedule.model import ScheduledDriver
from packetbench.truth.packets import Touched
from packetbench.truth.universe import Universe


class _Schedule(DocModel):
    drivers: list[ScheduledDriver] = Field(default_factory=list)


def _drivers() -> list[dict[str, Any]]:
    """Twelve drivers: four with a licence number of their own, four sharing one, four with
    none."""
    return [
        {
            "driver_number": number,
            "first_name": f"Ann{number}",
            "middle_initial": "Q",
            "last_name": f"Lee{number}",
            "birth_date": f"{1960 + number}-03-0{number % 9 + 1}",
            "gender": "F",
            "marital_status": "S",
            "license_number": (
                f"L{number:07d}" if number <= 4 else "L9999999" if number <= 8 else None
            ),
        }
        for number in range(1, 13)
    ]


def test_records_without_a_unique_key_stay_pairable_under_a_heavy_profile() -> None:
    truths = _drivers()
    heavy = Profile("heavy", omit=0.3, wrong_out=0.3, overreach=0.2)
    shape = next(s for name, s in fields_of(_Schedule) if name == "drivers")
    assert isinstance(shape, ListShape)
    changes = [0] * len(truths)
    for seed in range(20):
        engine = Engine(heavy, random.Random(seed), Universe(), Universe(), {}, [], {}, Touched({}))
        outputs = engine.items(shape, truths, "drivers")
        # The profile drops and invents nothing, so every truth record must pair with the
        # output the simulator made from it.
        pairing = align(ScheduledDriver, truths, outputs)
        assert (pairing.dropped, pairing.invented) == ([], []), seed
        assert pairing.pairs == [(i, i) for i in range(len(truths))], seed
        for note in engine.injections:
            changes[int(note["path"].split("[")[1].split("]")[0])] += 1
    # Keyed records take the heavy profile's errors; the others one change at most.
    assert min(changes[:4]) > 20 * 2
    assert max(changes[4:]) <= 20
