"""The broker's cover letter: facts equal the world, prose facts read back where they are
drawn, every wording states the same facts, and changing one fact changes only its words."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

import pytest

from packetbench.core import codes
from packetbench.generator import packet as packet_module
from packetbench.generator.doctypes.base import DOC_TYPES
from packetbench.generator.doctypes.broker_narrative.build import build
from packetbench.generator.doctypes.broker_narrative.model import BrokerNarrative
from packetbench.generator.packet import sub_seed
from packetbench.generator.render import prose
from packetbench.generator.render.layout import Lit
from packetbench.generator.render.recorder import Recorder
from packetbench.generator.tiers import PRESETS
from packetbench.generator.world.build import build_world
from packetbench.generator.world.draw import add_years
from packetbench.generator.world.models import World
from tests.support.paths import plain
from tests.support.rendered import render
from tests.support.sections import check_codes
from tests.support.values import cents

TIERS = tuple(PRESETS)
COMPANIONS = ("acord_125", "sov_pdf", "sov_excel", "loss_run_pdf", "financial_statement_pdf")
PARAGRAPHS = (
    "subject",
    "greeting",
    "overview",
    "program",
    "target",
    "losses",
    "marketing",
    "closing",
)


def check(world: World, doc: BrokerNarrative, knobs: dict[str, Any]) -> None:
    """The letter's facts against the world they were drawn from."""
    letter, account, program, losses = doc.letter, doc.account, doc.program, doc.losses
    assert letter.carrier_name == world.carrier.name
    assert letter.underwriter_name == world.carrier.underwriter
    assert letter.agency_name == world.producer.agency_name
    assert letter.producer_name == world.producer.contact_name
    renewal = world.expiring is not None and world.expiring.carrier == world.carrier.name
    assert letter.submission_type == ("Renewal" if renewal else "New Business")
    assert account.named_insured == world.insured.name and account.dba == world.insured.dba
    assert account.annual_revenue == world.insured.annual_revenue
    assert account.location_count == len(world.locations)
    start = dt.date.fromisoformat(world.insured.business_start_date)
    sent = dt.date.fromisoformat(str(letter.letter_date))
    years = account.years_in_business
    assert years is not None and years >= 2
    assert add_years(start, years) <= sent < add_years(start, years + 1)
    if world.carries("property"):
        assert cents(account.schedule_tiv) == sum(cents(b.tiv) for b in world.buildings())
    else:
        assert account.schedule_tiv is None
    assert (account.vehicle_count is None) == (not world.carries("auto"))
    # Dates: the letter follows the application and asks for quotes before inception.
    quote = dt.date.fromisoformat(str(program.quote_needed_by))
    effective = dt.date.fromisoformat(world.policy.effective_date)
    assert dt.date.fromisoformat(world.policy.completion_date) <= sent < quote <= effective
    assert program.effective_date == world.policy.effective_date
    # The program is the policy's lines; expiring terms are the loss history's latest terms.
    assert [line.line for line in program.lines] == [p.line for p in world.policy.lines]
    latest = {
        t.line: t
        for t in world.loss_history.terms
        if t.expiration_date == world.policy.effective_date
    }
    for line in program.lines:
        term = latest.get(str(line.line))
        assert cents(line.requested_limit) > 0
        if term is None:
            assert (line.expiring_carrier, line.expiring_premium) == (None, None)
        else:
            assert line.expiring_carrier == term.carrier
            assert line.expiring_policy_number == term.policy_number
            assert cents(line.expiring_premium) == cents(term.premium)
    expiring = [
        cents(line.expiring_premium) for line in program.lines if line.expiring_premium is not None
    ]
    assert (program.expiring_premium is None) == (not expiring)
    if expiring:
        assert cents(program.expiring_premium) == sum(expiring)
    assert cents(program.target_premium) > 0 and cents(program.target_premium) % 10_000 == 0
    # The loss summary is the loss history's.
    claims = [c for t in world.loss_history.terms for c in t.claims]
    assert losses.claim_count == len(claims)
    assert losses.open_claim_count == sum(c.status in codes.OPEN_CLAIM_STATUSES for c in claims)
    assert cents(losses.incurred) == sum(cents(c.incurred) for c in claims)
    if claims:
        assert cents(losses.largest_loss) == max(cents(c.incurred) for c in claims)
    else:
        assert losses.largest_loss is None and losses.largest_loss_date is None
    assert losses.years == knobs["loss_run.years"]
    # Enclosures: the packet's other document types, once each.
    titles = [a.title for a in doc.attachments]
    assert len(titles) == len(set(titles))
    assert DOC_TYPES["broker_narrative"].title not in titles


def _doc(tier: str, seed: int, documents: tuple[str, ...] = COMPANIONS) -> BrokerNarrative:
    knobs = plain(tier, {"documents": documents})
    return build(build_world(seed, knobs), random.Random(0), knobs)


@pytest.mark.parametrize("tier", TIERS)
def test_model_validates_and_enums_are_in_their_code_lists(tier: str) -> None:
    check_codes(_doc(tier, 2))


@pytest.mark.parametrize("tier", TIERS)
def test_every_fact_reads_back_and_the_truth_is_the_model(tier: str, tmp_path: Path) -> None:
    rendered = render("broker_narrative", tier, 3, tmp_path, COMPANIONS)
    check(rendered.world, rendered.doc, plain(tier))  # type: ignore[arg-type]
    # Prose facts are located inside the sentences, one box on one line each.
    premium = rendered.fields["program.target_premium"]
    assert premium["kind"] == "money" and premium["rendered_as"].startswith("$")
    for location in premium["locations"]:
        _, y0, _, y1 = location["bbox"]
        assert y1 - y0 < 12  # one line of 8.5 pt text
    enclosed = [f for path, f in rendered.fields.items() if path.startswith("attachments[")]
    assert enclosed and all(f["kind"] == "string" for f in enclosed)
    assert rendered.fields["highlights[0].text"]["kind"] == "text"


def _facts(template: str, rec: Recorder) -> set[str]:
    paragraphs = prose.write(rec, "", template=template)
    return {part for paragraph in paragraphs for part in paragraph if isinstance(part, str)}


@pytest.mark.parametrize("tier", ("N1", "N4"))
@pytest.mark.parametrize("name", PARAGRAPHS)
def test_every_wording_states_the_same_facts(tier: str, name: str) -> None:
    options = prose.wordings(f"broker_narrative/{name}")
    assert len(options) >= 2
    for seed in range(1, 9):
        rec = Recorder("broker_narrative", _doc(tier, seed))
        found = [_facts(template, rec) for template in options]
        assert all(facts == found[0] for facts in found), (name, seed)


def test_wording_follows_the_seed_not_the_facts() -> None:
    chosen = {
        prose.choose(sub_seed(seed, "broker_narrative:wording"), "broker_narrative/losses")
        for seed in range(1, 40)
    }
    assert chosen == set(prose.wordings("broker_narrative/losses"))
    assert prose.choose(5, "broker_narrative/losses") == prose.choose(5, "broker_narrative/losses")


def _moved(world: World, fact: str) -> World:
    """`world` with one fact changed to a value of the same printed width."""
    if fact == "target_premium":
        narrative = world.narrative.model_copy(
            update={"target_premium": world.narrative.target_premium + 100}
        )
        return world.model_copy(update={"narrative": narrative})
    insured = world.insured.model_copy(
        update={"annual_revenue": world.insured.annual_revenue + 1000}
    )
    return world.model_copy(update={"insured": insured})


@pytest.mark.parametrize(
    ("fact", "path"),
    [("target_premium", "program.target_premium"), ("annual_revenue", "account.annual_revenue")],
)
def test_changing_one_fact_changes_exactly_its_words(
    fact: str, path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = render("broker_narrative", "N3", 4, tmp_path / "before", COMPANIONS)
    original = getattr(packet_module, "build_world")  # noqa: B009  (the name packet.py calls)
    monkeypatch.setattr(
        packet_module, "build_world", lambda seed, knobs: _moved(original(seed, knobs), fact)
    )
    after = render("broker_narrative", "N3", 4, tmp_path / "after", COMPANIONS)
    changed = [p for p in before.fields if before.fields[p] != after.fields[p]]
    assert changed == [path]
    old, new = before.fields[path], after.fields[path]
    assert old["rendered_as"] != new["rendered_as"] and old["value"] != new["value"]
    assert old["locations"] == new["locations"]
    # The page shows the same words around it: the universe differs by that value only.
    assert [s for s in before.universe if s["text"] != old["rendered_as"]] == [
        s for s in after.universe if s["text"] != new["rendered_as"]
    ]


def test_a_claim_free_history_is_stated_as_such(tmp_path: Path) -> None:
    knobs = plain(
        "N1",
        {"loss_run.min_claims": 0, "loss_run.max_claims": 0, "documents": ("broker_narrative",)},
    )
    world = build_world(6, knobs)
    doc = build(world, random.Random(0), knobs)
    assert doc.losses.claim_count == 0 and doc.losses.largest_loss is None
    rec = Recorder("broker_narrative", doc)
    for template in prose.wordings("broker_narrative/losses"):
        facts = _facts(template, rec)
        assert "losses.claim_count" in facts and "losses.largest_loss" not in facts
        text = " ".join(
            part.text
            for p in prose.write(rec, "", template=template)
            for part in p
            if isinstance(part, Lit)
        )
        assert "largest" not in text.lower()
