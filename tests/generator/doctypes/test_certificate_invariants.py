"""Certificates, evidence, binder, cancellation and schedules over 100 worlds per tier: each
document a packet carries agrees with its world (limits are the policy's, dates fall in the
term, the holder and interests are the world's), validates, and draws only code-list values.

The worlds are built once per tier and every document type is checked on each, so the 100
seeds cost one world build each however many types are checked.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pydantic
import pytest

from packetbench.core.leaves import iter_leaves
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.packet import sub_seed
from packetbench.generator.world.build import build_world
from packetbench.generator.world.models import World
from tests.support.certificate_oracle import CHECKS, carried
from tests.support.paths import TIERS, plain
from tests.support.sweep import seeds

SEEDS = seeds(100)
TYPES = tuple(CHECKS)


def build(name: str, world: World, seed: int, knobs: dict[str, Any]) -> Any:
    doc_type = DOC_TYPES[name]
    return doc_type.build(world, random.Random(sub_seed(seed, name)), knobs)


def check_model(doc: Any) -> None:
    data = doc.model_dump(mode="json")
    assert type(doc).model_validate(data).model_dump(mode="json") == data
    for path, value, leaf in iter_leaves(doc):
        if leaf.codes is not None and value is not None:
            assert value in leaf.codes.values, path


@pytest.mark.sweep
@pytest.mark.parametrize("tier", TIERS)
def test_documents_agree_with_their_world(tier: str) -> None:
    knobs = plain(tier)
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        world = build_world(seed, knobs)
        expected = carried(world)
        assert {name for name in TYPES if DOC_TYPES[name].carried_by(world)} == expected, seed
        for name in sorted(expected):
            doc = build(name, world, seed, knobs)
            try:
                CHECKS[name](world, doc)
                check_model(doc)
            except AssertionError as error:
                raise AssertionError(f"{tier} seed {seed} {name}: {error}") from error
            seen[name] += 1
    # Every type of the tier occurs in its worlds; the schedule and the request in most.
    auto = tier in ("N4", "N5")
    assert set(seen) == set(TYPES) - (set() if auto else {"acord_23"})
    for name in ("acord_25", "acord_101"):
        assert seen[name] == len(SEEDS)
    assert min(seen["acord_45"], seen["acord_35"]) >= len(SEEDS) // 2


def _broken(name: str, doc: Any) -> Any:
    """`doc` with one fact off: a limit by a cent, a date by a day, a name or a flag."""
    data = doc.model_dump(mode="json")
    if name == "acord_25":
        data["holder"]["name"] += " Jr."
    elif name == "acord_24":
        data["coverages"][0]["limit"] += 0.01
    elif name in ("acord_27", "acord_28"):
        data["coverages"][-1]["limit"] += 0.01
    elif name == "acord_23":
        data["vehicles"][0]["collision_deductible"] = 1.0
    elif name == "acord_45":
        data["interests"][-1]["item_number"] += 1
    elif name == "acord_75":
        data["property"]["building_limit"] += 0.01
    elif name == "acord_101":
        data["premises"] = data["premises"][1:]
    elif name == "acord_35":
        data["reason"] = {key: "Yes" for key in data["reason"]}
    return type(doc).model_validate(data)


def test_checks_can_fail() -> None:
    knobs = plain("N5")
    # The first N5 world that carries every certificate type (a binder and a change of
    # carrier are facts some worlds lack).
    seed, world = next(
        (seed, world)
        for seed in range(1, 40)
        if carried(world := build_world(seed, knobs)) == set(TYPES)
    )
    for name in TYPES:
        doc = build(name, world, seed, knobs)
        CHECKS[name](world, doc)
        with pytest.raises(AssertionError):
            CHECKS[name](world, _broken(name, doc))
            pytest.fail(f"{name}: the check passed a broken document")


def test_validation_rejects_a_value_outside_its_code_list() -> None:
    knobs = plain("N4")
    world = build_world(1, knobs)
    doc = build("acord_45", world, 1, knobs)
    data = doc.model_dump(mode="json")
    data["interests"][0]["interest_type"] = "Landlord"
    with pytest.raises(pydantic.ValidationError):
        type(doc).model_validate(data)
