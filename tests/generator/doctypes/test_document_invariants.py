"""World invariants of the issue-14 documents (declarations, engineering report, cover letter,
policy form) over 100 worlds per tier, each document built as a packet builds it.

One sweep for all of them: building 100 worlds of a large tier dominates the time, so each
world is built once and every type's checks (defined beside that type's own tests) run on it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.packet import sub_seed
from packetbench.generator.tiers import PRESETS
from packetbench.generator.world.build import build_world
from tests.generator.doctypes import (
    test_broker_narrative,
    test_dec_page,
    test_engineering_report,
    test_policy_form,
)
from tests.support.paths import plain
from tests.support.sweep import seeds

SEEDS = seeds(100)
CHECKS: dict[str, Callable[[Any, Any, dict[str, Any]], None]] = {
    "broker_narrative": test_broker_narrative.check,
    "dec_page": test_dec_page.check,
    "engineering_report": test_engineering_report.check,
    "policy_form": test_policy_form.check,
}


@pytest.mark.parametrize("tier", tuple(PRESETS))
@pytest.mark.slow
def test_world_invariants_over_100_seeds(tier: str) -> None:
    knobs = plain(tier)
    carried = dict.fromkeys(CHECKS, 0)
    for seed in SEEDS:
        world = build_world(seed, knobs)
        for name, check in CHECKS.items():
            kind = DOC_TYPES[name]
            if not kind.carried_by(world):
                continue
            carried[name] += 1
            doc = kind.build(world, random.Random(sub_seed(seed, name)), knobs)
            try:
                check(world, doc, knobs)
            except AssertionError as error:
                raise AssertionError(f"{name} {tier} seed {seed}: {error}") from error
    assert all(count > 0 for count in carried.values()), carried


# One fact of each document nudged off the world: the check of its type must notice.
BROKEN: dict[str, Callable[[Any], Any]] = {
    "broker_narrative": lambda doc: doc.losses.model_copy(
        update={"claim_count": (doc.losses.claim_count or 0) + 1}
    ),
    "dec_page": lambda doc: doc.premium.model_copy(
        update={"amount_due": (doc.premium.amount_due or 0) + 0.01}
    ),
    "engineering_report": lambda doc: doc.summary.model_copy(
        update={"critical_count": (doc.summary.critical_count or 0) + 1}
    ),
    "policy_form": lambda doc: doc.premium.model_copy(
        update={"coverage_premium": (doc.premium.coverage_premium or 0) + 1}
    ),
}
FIELD = {
    "broker_narrative": "losses",
    "dec_page": "premium",
    "engineering_report": "summary",
    "policy_form": "premium",
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_each_check_can_fail(name: str) -> None:
    knobs = plain("N3")
    world = build_world(2, knobs)
    kind = DOC_TYPES[name]
    doc = kind.build(world, random.Random(sub_seed(2, name)), knobs)
    CHECKS[name](world, doc, knobs)
    broken = doc.model_copy(update={FIELD[name]: BROKEN[name](doc)})
    with pytest.raises(AssertionError):
        CHECKS[name](world, broken, knobs)
