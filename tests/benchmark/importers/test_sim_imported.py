"""The simulated extractor on an imported corpus: it answers each document in the document's own
schema (the reference's, not packetbench's), with the same seeded errors, ledger and label as on
packetbench's packets, and the scorer recovers every count it injected.

The corpus is the two-document one of tests/support/corpus_fixture.py, imported, plus a prior
version of its loss run (superseded by it) so that stale values can occur.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.importers.nightmare.importer import import_corpus
from packetbench.benchmark.providers.sim import LABEL, LEDGER, SimProvider
from packetbench.benchmark.score.field_view import compare
from packetbench.benchmark.score.scorer import score_run
from packetbench.benchmark.sim.engine import Engine
from packetbench.benchmark.sim.profiles import Profile
from packetbench.truth.namespaces.nightmare import (
    emit,
    project,
    required_leaves,
    scored_schema,
)
from packetbench.truth.universe import Universe
from tests.support.corpus_fixture import ACORD_25_SCHEMA, write_corpus
from tests.support.files import read_json as _json
from tests.support.files import write_json as _save
from tests.support.scoring import ledger_mismatches

PACKET = "N1-070001"
PRIOR = "loss_run_prior"  # the loss run's prior version, superseded by loss_run_csv
PRIOR_PAID = 950.0


def _add_prior_loss_run(packet: Path) -> None:
    """A prior loss run in the packet, superseded by loss_run_csv: the same claim, paid
    $950.00 instead of $1,200.00 (its file, truth, rendered strings and manifest say so)."""
    old, shown = "loss_run_csv", f"${PRIOR_PAID:,.2f}"
    text = (packet / f"{old}.csv").read_text(encoding="utf-8")
    (packet / f"{PRIOR}.csv").write_text(text.replace("$1,200.00", shown), encoding="utf-8")
    truth = _json(packet / f"document_truth_{old}.json")
    truth["doc_id"] = PRIOR
    truth["truth"]["claims"][0]["paid"] = PRIOR_PAID
    truth["truth"]["grand_totals"]["paid"] = PRIOR_PAID
    _save(packet / f"document_truth_{PRIOR}.json", truth)
    fields = _json(packet / f"field_truth_{old}.json")
    fields["doc_id"] = PRIOR
    for entry in fields["fields"]:
        if entry["path"].endswith("paid"):
            entry.update(value=PRIOR_PAID, rendered_as=shown)
    _save(packet / f"field_truth_{PRIOR}.json", fields)
    universe = _json(packet / f"rendered_universe_{old}.json")
    universe["doc_id"] = PRIOR
    for string in universe["strings"]:
        string["text"] = string["text"].replace("$1,200.00", shown)
    _save(packet / f"rendered_universe_{PRIOR}.json", universe)
    manifest = _json(packet / f"manifest_{old}.json")
    sha256 = hashlib.sha256((packet / f"{PRIOR}.csv").read_bytes()).hexdigest()
    manifest.update(doc_id=PRIOR, file=f"{PRIOR}.csv", sha256=sha256)
    _save(packet / f"manifest_{PRIOR}.json", manifest)
    listed = _json(packet / "packet_truth.json")
    listed["documents"].append(
        {
            "doc_id": PRIOR,
            "doc_type": "loss_run_csv",
            "format": "csv",
            "file": f"{PRIOR}.csv",
            "schema": "nightmare/loss_run",
            "superseded_by": old,
        }
    )
    _save(packet / "packet_truth.json", listed)


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sim-imported")
    import_corpus(write_corpus(root / "corpus"), root / "imported")
    _add_prior_loss_run(root / "imported" / "packets" / PACKET)
    return root / "imported" / "packets"


def _extract(packets: Path, out: Path, profile: str, seed: int) -> Path:
    extract(SimProvider(profile, seed), packets, out, force=True)
    return out


def _schema(packets: Path, doc_id: str) -> dict[str, Any]:
    listed = _json(packets / PACKET / "packet_truth.json")["documents"]
    name = next(d["schema"] for d in listed if d["doc_id"] == doc_id).split("/")[1]
    schema: dict[str, Any] = _json(packets / PACKET / "schemas" / f"{name}.schema.json")
    return schema


def _outputs(run: Path) -> dict[str, Any]:
    return {
        f"{PACKET}/{path.stem}": _json(path)
        for path in sorted((run / "extractions" / PACKET).glob("*.json"))
    }


def test_perfect_answers_each_document_s_truth_in_its_own_schema(
    packets: Path, tmp_path: Path
) -> None:
    """A list of strings stays a list of strings, a boolean a boolean: the record is the
    document's truth itself, not its projection onto packetbench's document model."""
    run = _extract(packets, tmp_path / "run", "perfect", 0)
    records = _outputs(run)
    assert sorted(records) == [f"{PACKET}/{d}" for d in ("acord_25", "loss_run_csv", PRIOR)]
    for key, record in records.items():
        doc_id = key.split("/")[1]
        truth = _json(packets / PACKET / f"document_truth_{doc_id}.json")["truth"]
        assert record["output"] == truth, key
    acord = records[f"{PACKET}/acord_25"]["output"]
    assert acord["forms_attached"] == ["CP 00 10"] and acord["flags"]["sprinklered"] is True
    ledger = _json(run / LEDGER)
    assert ledger["simulator"] is True and ledger["label"] == LABEL
    assert _json(run / "run.json")["label"] == LABEL  # "SIMULATED EXTRACTOR - not a model"


@pytest.mark.parametrize("profile", ["typical", "sloppy"])
def test_every_answer_is_valid_against_its_own_schema_and_every_count_is_recovered(
    packets: Path, tmp_path: Path, profile: str
) -> None:
    """Over 12 seeds: each answer the ledger calls ok is an instance of the document's own
    JSON Schema (jsonschema, draft 2020-12), each it calls invalid is not, and the scorer
    finds exactly the counts the ledger says it injected."""
    injected: Counter[str] = Counter()
    for seed in range(12):
        run = _extract(packets, tmp_path / f"run-{seed}", profile, seed)
        ledger = _json(run / LEDGER)
        for key, record in _outputs(run).items():
            if record["status"] != "ok":
                continue
            schema = _schema(packets, key.split("/")[1])
            errors = list(jsonschema.Draft202012Validator(schema).iter_errors(record["output"]))
            valid = ledger["documents"][key]["status"] != "invalid"
            assert (not errors) == valid, (seed, key, errors[:1], record["output"])
        score_run(run, packets)
        assert ledger_mismatches(run) == [], seed
        injected.update(ledger["overall"]["injected"])
    # The error model is at work on the foreign documents, stale values included.
    kinds = {"omit", "reformat", "stale"}
    if profile == "sloppy":
        kinds |= {"wrong_in_universe", "wrong_out_of_universe", "overreach", "invent"}
    assert kinds <= set(injected), injected


def test_the_same_seed_gives_the_same_bytes(packets: Path, tmp_path: Path) -> None:
    first = _extract(packets, tmp_path / "a", "sloppy", 3)
    again = _extract(packets, tmp_path / "b", "sloppy", 3)
    other = _extract(packets, tmp_path / "c", "sloppy", 4)

    def files(run: Path) -> dict[str, bytes]:
        found = sorted(run.rglob("*.json"))
        return {str(p.relative_to(run)): p.read_bytes() for p in found if p.name != "run.json"}

    assert files(first) == files(again)
    assert files(first) != files(other)


def test_an_unknown_foreign_schema_is_refused_before_anything_is_written(
    packets: Path, tmp_path: Path, run_cli: Any
) -> None:
    broken = tmp_path / "packets"
    shutil.copytree(packets, broken)
    (broken / PACKET / "schemas" / "loss_run.schema.json").unlink()
    done = run_cli(
        "extract", "--provider", "sim", "--packets", str(broken), "--out", str(tmp_path / "run")
    )
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and "unknown schema 'nightmare/loss_run'" in line, line
    assert str(broken / PACKET) in line
    assert not (tmp_path / "run").exists()


# --- the engine on a foreign schema: its way back, required leaves, keyless records ------------


def _engine(
    profile: Profile, seed: int, foreign: bool, required: frozenset[str] = frozenset()
) -> Engine:
    """An engine on an empty universe (no value is shown anywhere)."""
    return Engine(
        profile,
        random.Random(seed),
        Universe(),
        Universe(),
        {},
        [],
        {},
        required=required,
        foreign=foreign,
    )


CHECKBOXES = {
    "title": "form",
    "type": "object",
    "additionalProperties": False,
    "required": ["insured_name", "checkboxes", "states"],
    "properties": {
        "insured_name": {"type": ["string", "null"]},
        "checkboxes": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["field", "value", "note"],
                "properties": {
                    "field": {"type": "string"},
                    "value": {"type": "string", "enum": ["Yes", "No"]},
                    "note": {"type": ["string", "null"], "enum": ["a", "b"]},
                },
            },
        },
        "states": {"type": "array", "items": {"type": "string", "enum": ["TX", "OK"]}},
    },
}


def test_emit_undoes_the_projection() -> None:
    truth = {
        "header": {"insured_name": "A", "insured_zip": None, "policy_period_start": None},
        "total_premium": 1.5,
        "coverages": [{"coverage_type": "Property", "limit": None}],
        "forms_attached": ["CP 00 10", "IL 00 17"],
        "flags": {"sprinklered": False},
    }
    projected = project(ACORD_25_SCHEMA, truth)
    assert projected["forms_attached"] == [{"item": "CP 00 10"}, {"item": "IL 00 17"}]
    assert projected["flags"] == {"sprinklered": "No"}
    assert emit(ACORD_25_SCHEMA, projected) == truth
    assert emit(ACORD_25_SCHEMA, {"flags": {"sprinklered": None}}) == {
        "flags": {"sprinklered": None}
    }


def test_required_leaves_are_those_whose_schema_admits_no_null() -> None:
    assert required_leaves(CHECKBOXES) == {
        "checkboxes[].field",
        "checkboxes[].value",
        "checkboxes[].note",  # null is its type's, not its enum's
        "states[].item",
    }


def test_a_required_leaf_is_never_left_empty() -> None:
    """Every populated leaf omitted, a record invented in every list: the answer still has
    every leaf its schema requires, and is an instance of the schema."""
    scored = scored_schema(json.dumps(CHECKBOXES).encode())
    truth = {
        "insured_name": "Lone Star Holdings, LP",
        "checkboxes": [
            {"field": "sprinklered", "value": "Yes", "note": "a"},
            {"field": "alarmed", "value": "No", "note": "b"},
        ],
        "states": ["TX", "OK"],
    }
    greedy = Profile("greedy", omit=1.0, invent=1.0)
    for seed in range(10):
        engine = _engine(greedy, seed, foreign=True, required=scored.required)
        answer = scored.emit(engine.record(scored.model, scored.project(truth), "", None))
        jsonschema.validate(answer, CHECKBOXES)
        assert answer["insured_name"] is None  # omitted: its schema admits null
        assert answer["checkboxes"] == truth["checkboxes"]  # nothing invented with a null
        assert answer["states"] == truth["states"]


ENDORSEMENTS = {
    "title": "binder",
    "type": "object",
    "additionalProperties": False,
    "required": ["endorsements"],
    "properties": {
        "endorsements": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["form_number", "coverage", "claim_number"],
                "properties": {
                    "form_number": {"type": ["string", "null"]},
                    "coverage": {"type": ["string", "null"]},
                    "claim_number": {"type": ["string", "null"]},
                },
            },
        },
    },
}


def test_a_record_the_scorer_pairs_by_agreement_is_changed_only_where_it_still_pairs() -> None:
    """A foreign schema's lists have no record keys: the scorer pairs a record by agreement
    (half its populated leaves), so a record with one populated leaf is never changed, and
    the counts the engine expects are those the scorer finds."""
    scored = scored_schema(json.dumps(ENDORSEMENTS).encode())
    one = {"form_number": None, "coverage": "Commercial Property", "claim_number": None}
    two = {"form_number": "CP 00 10", "coverage": "Commercial Property", "claim_number": None}
    truth = {"endorsements": [one, dict(one), two, dict(two)]}
    wrong = Profile("wrong", wrong_out=1.0)
    for seed in range(5):
        engine = _engine(wrong, seed, foreign=True)
        answer = engine.record(scored.model, truth, "", None)
        assert answer["endorsements"][:2] == [one, one]
        assert compare(scored.model, truth, answer).counts == engine.expected.counts
        assert engine.expected.counts.wrong == 2  # one leaf of each two-leaf record


def test_a_respelling_is_written_only_when_it_equals_the_truth() -> None:
    """A foreign truth holds what the page shows: "BHG-2023-039582¹" without its marker is
    another value, so it is not written as a respelling of it; "CL-1001" as "CL1001" is."""
    scored = scored_schema(json.dumps(ENDORSEMENTS).encode())
    marked = {"form_number": None, "coverage": None, "claim_number": "BHG-2023-039582¹"}
    plain = {"form_number": None, "coverage": None, "claim_number": "CL-1001"}
    respell = Profile("respell", reformat=1.0)
    engine = _engine(respell, 0, foreign=True)
    answer = engine.record(scored.model, {"endorsements": [marked, plain]}, "", None)
    assert [r["claim_number"] for r in answer["endorsements"]] == ["BHG-2023-039582¹", "CL1001"]
    truth = {"endorsements": [marked, plain]}
    assert compare(scored.model, truth, answer).counts == engine.expected.counts
