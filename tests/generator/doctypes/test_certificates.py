"""Certificates, evidence, binder, cancellation and schedules (PB-23, 24, 25, 27, 28, 35, 45,
75, 101) rendered: every located value reads back from the PDF, nothing is left undrawn, the
truth validates against the committed strict schema, continuation pages repeat the header,
packets carry each type in the tiers it belongs to, and the simulated extractor scores them
as its ledger says."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.score.scorer import score_run
from packetbench.core import codes
from packetbench.core.leaves import DocModel, iter_leaves
from packetbench.generator.doctypes.acord_35.model import PolicyType, Reason, ReturnPremium
from packetbench.generator.doctypes.acord_125.model import code_field
from packetbench.generator.doctypes.base import DOC_TYPES, compose
from packetbench.generator.packet import build_packet, packet_id, sub_seed
from packetbench.generator.world.build import build_world
from tests.support.certificate_oracle import CHECKS
from tests.support.files import read_json
from tests.support.paths import TIERS, plain
from tests.support.readback import check_document
from tests.support.schemas import SCHEMAS, strictness_problems
from tests.support.scoring import ledger_mismatches

TYPES = tuple(CHECKS)
SEED = 3
AUTO_TIERS = ("N4", "N5")


def wanted(tier: str) -> tuple[str, ...]:
    """These types, less those whose line the tier does not carry."""
    lines = set(plain(tier)["lines"])
    return tuple(n for n in TYPES if not DOC_TYPES[n].lines or DOC_TYPES[n].lines & lines)


@pytest.fixture(scope="session")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One packet per tier (seed 3) holding only these document types."""
    root = tmp_path_factory.mktemp("certificates")
    for tier in TIERS:
        built = build_packet(tier, SEED, plain(tier, {"documents": wanted(tier)}))
        folder = root / packet_id(tier, SEED)
        folder.mkdir()
        for name, data in built.files.items():
            (folder / name).write_bytes(data)
    return root


def _docs(folder: Path) -> list[str]:
    return [d["doc_id"] for d in read_json(folder / "packet_truth.json")["documents"]]


@pytest.mark.parametrize("tier", TIERS)
def test_every_value_is_drawn_and_reads_back(packets: Path, tier: str) -> None:
    folder = packets / packet_id(tier, SEED)
    knobs = plain(tier)
    world = build_world(SEED, knobs)
    docs = _docs(folder)
    assert len(docs) >= 6
    for doc_id in docs:
        checked, bad = check_document(folder, doc_id)
        assert bad == [], f"{doc_id}: {bad[:3]}"
        # The truth is the whole model: no value of it is left off the page.
        doc = DOC_TYPES[doc_id].build(world, random.Random(sub_seed(SEED, doc_id)), knobs)
        truth = read_json(folder / f"document_truth_{doc_id}.json")["truth"]
        assert truth == doc.model_dump(mode="json"), doc_id
        fields = read_json(folder / f"field_truth_{doc_id}.json")["fields"]
        non_null = [path for path, value, _ in iter_leaves(doc) if value is not None]
        assert [f["path"] for f in fields] == non_null, doc_id
        assert checked >= len(non_null)
        CHECKS[doc_id](world, doc)


@pytest.mark.parametrize("name", TYPES)
def test_schema_is_strict_and_the_truths_validate(packets: Path, name: str) -> None:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    assert strictness_problems(schema, name) == []
    validator = Draft202012Validator(schema)
    found = 0
    for tier in TIERS:
        path = packets / packet_id(tier, SEED) / f"document_truth_{name}.json"
        if path.exists():
            errors = list(validator.iter_errors(read_json(path)["truth"]))
            assert not errors, f"{tier}/{name}: {errors[0].message} at {errors[0].path}"
            found += 1
    assert found, f"no packet of seed {SEED} carries {name}"


def test_continuation_pages_repeat_the_header(packets: Path) -> None:
    """Long schedules run over pages; each page names the insured's policy again."""
    folder = packets / packet_id("N5", SEED)
    multi = 0
    for doc_id in _docs(folder):
        pages = read_json(folder / f"manifest_{doc_id}.json")["pages"]
        if pages == 1:
            continue
        multi += 1
        fields = {f["path"]: f for f in read_json(folder / f"field_truth_{doc_id}.json")["fields"]}
        key = next(
            p
            for p in ("header.policy_number", "policy.policy_number", "binder_number")
            if p in fields
        )
        assert sorted({loc["page"] for loc in fields[key]["locations"]}) == list(
            range(1, pages + 1)
        ), doc_id
    assert multi >= 2  # the interest schedule and the remarks run long at N5


@pytest.mark.slow
def test_packets_carry_each_type_in_its_tiers() -> None:
    """Every tier carries the certificates, schedules and paperwork; the vehicle certificate
    only with the auto line."""
    for tier in TIERS:
        knobs = plain(tier)
        seen: set[str] = set()
        for seed in range(1, 11):
            world = build_world(seed, knobs)
            seen |= {t.name for t, _ in compose(world, knobs["documents"])}
            assert {"acord_25", "acord_101"} <= seen
        expected = set(TYPES) - (set() if tier in AUTO_TIERS else {"acord_23"})
        assert seen & set(TYPES) == expected, tier


def test_line_documents_need_their_line() -> None:
    world = build_world(1, plain("N2", {"lines": ("property",)}))
    assert not DOC_TYPES["acord_23"].carried_by(world)
    assert DOC_TYPES["acord_24"].lines == frozenset({"property"})


@pytest.mark.parametrize(
    ("group", "code_list"),
    [
        (PolicyType, codes.LOSS_LINE),
        (Reason, codes.CANCELLATION_REASON),
        (ReturnPremium, codes.RETURN_PREMIUM_METHOD),
    ],
)
def test_checkbox_groups_mirror_their_code_lists(
    group: type[DocModel], code_list: codes.CodeList
) -> None:
    assert list(group.model_fields) == [code_field(v) for v in code_list.values]


def test_same_seed_gives_identical_bytes() -> None:
    knobs = plain("N4", {"documents": TYPES})
    assert build_packet("N4", 11, knobs).files == build_packet("N4", 11, knobs).files


@pytest.fixture(scope="session")
def sim_scores(
    packets: Path, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str, int], Path]:
    def run(profile: str, seed: int) -> Path:
        folder = tmp_path_factory.mktemp(f"sim-{profile}")
        extract(SimProvider(profile, seed), packets, folder, force=True)
        score_run(folder, packets)
        return folder

    return run


def test_sim_perfect_scores_every_type_fully(sim_scores: Callable[[str, int], Path]) -> None:
    run = sim_scores("perfect", 0)
    fields = read_json(run / "scores" / "field_breakdown.json")["by_doc_type"]
    assert set(fields) == set(TYPES)
    for name, counts in fields.items():
        assert counts["gt_fields"] == counts["correct"] > 0, name
        assert counts["wrong"] == counts["omitted"] == counts["answered"] == 0, name
    grounding = read_json(run / "scores" / "hallucination.json")["by_doc_type"]
    for name in TYPES:
        for kind in ("numbers", "strings"):
            assert grounding[name]["packet"][kind]["hallucinated"] == 0, name


def test_sim_typical_equals_its_ledger(sim_scores: Callable[[str, int], Path]) -> None:
    run = sim_scores("typical", 1)
    assert ledger_mismatches(run) == []
    ledger = read_json(run / "sim_injections.json")
    injected = {
        key.split("/")[1]
        for key, entry in ledger["documents"].items()
        if entry["status"] == "ok" and entry.get("injections")
    }
    assert injected == set(TYPES)
