"""The scorer against the simulated extractor: perfect scores 100 %, and for typical and sloppy
the scorer's counts equal the simulator's ledger exactly, on all five tiers."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest

from packetbench.benchmark.score.outputs import read_documents
from packetbench.benchmark.score.scorer import RunScores, score_run
from packetbench.generator.doctypes.base import DOC_TYPES
from tests.support.files import read_json as _json
from tests.support.paths import PACKETS, TIERS
from tests.support.scoring import INDUSTRY_TYPES, ledger_mismatches

SimRun = Callable[..., tuple[Path, RunScores]]
INJECTION_KINDS = {
    "omit",
    "wrong_in_universe",
    "wrong_out_of_universe",
    "composed",
    "overreach",
    "moved",
    "stale",
    "reformat",
    "fabricate",
    "drop",
    "invent",
    "shuffle",
}


@pytest.mark.slow
def test_perfect_scores_everything_correct(sim_run: SimRun) -> None:
    run, result = sim_run("perfect", 0)
    fields = _json(run / "scores" / "field_breakdown.json")
    overall = fields["overall"]
    assert overall["gt_fields"] == overall["correct"] > 40_000
    assert overall["wrong"] == overall["omitted"] == overall["answered"] == 0
    assert overall["abstained"] == overall["gt_null_fields"] > 0
    assert set(fields["by_tier"]) == set(TIERS)
    # The canonical suite carries every document type but those of other classes of business
    # (proved in test_industry_types), and each one scores 100 %.
    assert set(fields["by_doc_type"]) == set(DOC_TYPES) - set(INDUSTRY_TYPES)
    for doc_type, counts in fields["by_doc_type"].items():
        assert counts["gt_fields"] == counts["correct"] > 0, doc_type
    halluc = _json(run / "scores" / "hallucination.json")
    for universe in ("packet", "document"):
        for kind in ("numbers", "strings"):
            assert halluc["overall"][universe][kind]["hallucinated"] == 0
            assert halluc["overall"][universe][kind]["rate_micro"] == 0.0
    assert halluc["verdicts"]["overall"]["supported"] == result.claims
    assert _json(run / "scores" / "consistency.json")["overall"]["failed"] == 0
    assert ledger_mismatches(run) == []


@pytest.mark.parametrize("profile", ["typical", "sloppy"])
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.slow
def test_scorer_recovers_every_injected_count(sim_run: SimRun, profile: str, seed: int) -> None:
    run, result = sim_run(profile, seed)
    assert result.documents, "nothing was scored"
    assert ledger_mismatches(run) == []


@pytest.mark.parametrize("profile", ["typical", "sloppy"])
def test_stale_values_are_recovered(sim_run: SimRun, stale_packets: Path, profile: str) -> None:
    run, _ = sim_run(profile, 3, stale_packets)
    assert ledger_mismatches(run) == []
    verdicts = _json(run / "scores" / "hallucination.json")["verdicts"]["overall"]
    assert verdicts["stale"] > 0


@pytest.mark.slow
def test_every_injection_kind_and_exclusion_occurs(sim_run: SimRun, stale_packets: Path) -> None:
    """The ledger tests above only mean something if every kind was actually injected."""
    injected: Counter[str] = Counter()
    excluded: Counter[str] = Counter()
    for profile, seed, packets in (
        ("typical", 1, PACKETS),
        ("sloppy", 1, PACKETS),
        ("sloppy", 2, PACKETS),
        ("sloppy", 3, stale_packets),
    ):
        run, _ = sim_run(profile, seed, packets)
        ledger = _json(run / "sim_injections.json")
        injected.update(ledger["overall"]["injected"])
        excluded.update({k: len(v) for k, v in ledger["overall"]["excluded"].items()})
    assert {k for k, n in injected.items() if n > 0} >= INJECTION_KINDS
    assert all(excluded[k] > 0 for k in ("missing", "error", "invalid"))


@pytest.mark.parametrize("profile", ["typical", "sloppy"])
@pytest.mark.slow
def test_run_totals_are_the_sums_of_documents_parquet(sim_run: SimRun, profile: str) -> None:
    """The run-level files are summed as documents stream past; documents.parquet keeps each
    document: both say the same, micro and macro, by tier and by document type."""
    run, _ = sim_run(profile, 1)
    documents = read_documents(run / "scores")
    fields = _json(run / "scores" / "field_breakdown.json")
    grounding = _json(run / "scores" / "hallucination.json")
    consistency = _json(run / "scores" / "consistency.json")
    assert fields["documents_scored"] == grounding["documents_scored"] == len(documents) > 50
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for key, doc in documents.items():
        packet_id = key.split("/")[0]
        groups.setdefault(("overall", ""), []).append(doc)
        groups.setdefault(("by_tier", packet_id.split("-")[0]), []).append(doc)
        groups.setdefault(("by_doc_type", _doc_type(run, key)), []).append(doc)
    for (level, name), docs in groups.items():
        want_fields = fields[level] if level == "overall" else fields[level][name]
        assert want_fields == {k: sum(d["fields"][k] for d in docs) for k in want_fields}
        want = grounding[level] if level == "overall" else grounding[level][name]
        for universe in ("packet", "document"):
            for kind in ("numbers", "strings"):
                own = [d["grounding"][universe][kind] for d in docs]
                rates = [o["rate"] for o in own if o["rate"] is not None]
                entry = want[universe][kind]
                assert entry["checked"] == sum(o["checked"] for o in own)
                assert entry["hallucinated"] == sum(o["hallucinated"] for o in own)
                assert entry["documents_with_checks"] == len(rates)
                assert entry["rate_macro"] == (round(sum(rates) / len(rates), 6) if rates else None)
    assert grounding["verdicts"]["overall"] == {
        v: sum(d["verdicts"][v] for d in documents.values())
        for v in grounding["verdicts"]["overall"]
    }
    assert consistency["overall"] == {
        k: sum(d["consistency"][k] for d in documents.values()) for k in consistency["overall"]
    }
    assert (
        sum(len(d["consistency"]["flags"]) for d in documents.values())
        == consistency["overall"]["failed"]
    )


def _doc_type(run: Path, key: str) -> str:
    return str(_json(run / "extractions" / f"{key}.json")["doc_type"])


@pytest.mark.slow
def test_scorer_catches_a_wrong_count(sim_run: SimRun, tmp_path: Path) -> None:
    """The ledger comparison can fail: a tampered score file is noticed."""
    run, _ = sim_run("typical", 1)
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    path = copy / "scores" / "documents.parquet"
    key = next(iter(read_documents(copy / "scores")))
    tampered = tmp_path / "tampered.parquet"
    duckdb.execute(
        f"COPY (SELECT * REPLACE (wrong + (packet_id || '/' || doc_id = '{key}')::INT "
        f"AS wrong) FROM read_parquet('{path}')) TO '{tampered}' (FORMAT parquet)"
    )
    tampered.replace(path)
    problems = ledger_mismatches(copy)
    assert len(problems) == 1 and problems[0].startswith(f"{key} field counts")


def _copy_run(run: Path, target: Path) -> Path:
    shutil.copytree(run, target, ignore=shutil.ignore_patterns("scores"))
    return target


@pytest.mark.slow
def test_invalid_and_missing_records_are_listed(sim_run: SimRun, tmp_path: Path) -> None:
    run = _copy_run(sim_run("perfect", 0)[0], tmp_path / "run")
    folder = run / "extractions" / "N1-000001"
    extra, wrong_type, errored, gone = (
        folder / f"{doc}.json"
        for doc in ("acord_125", "sov_pdf", "loss_run_csv", "financial_statement_excel")
    )
    data = _json(extra)
    data["output"]["notes"] = "not in the schema"
    extra.write_text(json.dumps(data))
    data = _json(wrong_type)
    data["output"]["insured_name"] = 12
    wrong_type.write_text(json.dumps(data))
    data = _json(errored)
    data.update(status="timeout", output=None, error="no answer in 120 s")
    errored.write_text(json.dumps(data))
    gone.unlink()
    result = score_run(run, PACKETS)
    key = f"N1-000001/{extra.stem}"
    reasons = {e["document"]: e["reason"] for e in result.invalid}
    assert "additional property 'notes'" in reasons[key]
    assert "is not of type 'string'" in reasons[f"N1-000001/{wrong_type.stem}"]
    assert result.errors == [
        {
            "document": f"N1-000001/{errored.stem}",
            "status": "timeout",
            "error": "no answer in 120 s",
        }
    ]
    assert result.missing == [f"N1-000001/{gone.stem}"]
    breakdown = _json(run / "scores" / "field_breakdown.json")
    assert breakdown["documents_expected"] == breakdown["documents_scored"] + 4


@pytest.mark.slow
def test_scores_are_byte_identical_under_another_hash_seed(
    sim_run: SimRun, run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    source = sim_run("sloppy", 1)[0]
    outputs = []
    for hash_seed in ("0", "4242"):
        run = _copy_run(source, tmp_path / f"run-{hash_seed}")
        result = run_cli(
            "score", str(run), "--packets", str(PACKETS), env={"PYTHONHASHSEED": hash_seed}
        )
        assert result.returncode == 0, result.stderr
        outputs.append({p.name: p.read_bytes() for p in sorted((run / "scores").iterdir())})
    assert outputs[0].keys() == {
        "claims.parquet",
        "consistency.json",
        "documents.parquet",
        "field_breakdown.json",
        "fields.parquet",
        "hallucination.json",
    }
    assert outputs[0] == outputs[1]


KEY_COLUMNS = ("keys_emitted", "invented_keys", "unfit_leaves", "salvaged")


@pytest.fixture(scope="module")
def one_packet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the canonical N1-000001 alone (a run of it scores in a second)."""
    folder = tmp_path_factory.mktemp("one-packet")
    shutil.copytree(PACKETS / "N1-000001", folder / "N1-000001")
    return folder


def _rows(scores: Path) -> dict[str, dict[str, Any]]:
    """documents.parquet by document, its key columns left out."""
    table = duckdb.execute(f"SELECT * FROM read_parquet('{scores / 'documents.parquet'}')")
    names = [d[0] for d in table.description]
    return {
        f"{row['packet_id']}/{row['doc_id']}": {
            k: v for k, v in row.items() if k not in KEY_COLUMNS
        }
        for row in (dict(zip(names, values, strict=True)) for values in table.fetchall())
    }


def test_invalid_salvage_scores_the_leaves_that_fit(
    sim_run: SimRun, one_packet: Path, tmp_path: Path
) -> None:
    """--invalid salvage scores an invalid output on the leaves that fit its schema: a key the
    schema lacks is an invented key, a leaf of the wrong type is left out (an omission); a
    valid output scores as under exclude, and exclude (the default) writes no key counts."""
    source = sim_run("perfect", 0, one_packet)[0]
    run = _copy_run(source, tmp_path / "run")
    folder = run / "extractions" / "N1-000001"
    extra, wrong_type = folder / "acord_125.json", folder / "sov_pdf.json"
    data = _json(extra)
    data["output"]["notes"] = "not in the schema"
    extra.write_text(json.dumps(data))
    data = _json(wrong_type)
    data["output"]["insured_name"] = 12
    wrong_type.write_text(json.dumps(data))
    a, s = f"N1-000001/{extra.stem}", f"N1-000001/{wrong_type.stem}"

    excluded = score_run(run, one_packet)
    assert [e["document"] for e in excluded.invalid] == [a, s]
    breakdown = _json(run / "scores" / "field_breakdown.json")
    assert not {"invalid_policy", "salvaged", "keys"} & set(breakdown)
    described = duckdb.execute(f"DESCRIBE SELECT * FROM '{run / 'scores' / 'documents.parquet'}'")
    assert not set(KEY_COLUMNS) & {column[0] for column in described.fetchall()}
    excluded_rows = _rows(run / "scores")

    salvaged = score_run(run, one_packet, invalid="salvage")
    assert salvaged.invalid == []
    assert {e["document"]: (e["invented_keys"], e["unfit_leaves"]) for e in salvaged.salvaged} == {
        a: (["notes"], []),
        s: ([], ["insured_name"]),
    }
    assert salvaged.documents == excluded.documents + 2
    rows = _rows(run / "scores")
    original = _rows(source / "scores")
    assert {k: v for k, v in rows.items() if k not in (a, s)} == excluded_rows
    assert rows[a] == original[a]  # only the invented key dropped: scored as the valid output
    assert (rows[s]["correct"], rows[s]["omitted"]) == (
        original[s]["correct"] - 1,
        original[s]["omitted"] + 1,
    )
    keys = _json(run / "scores" / "field_breakdown.json")["keys"]
    assert (keys["invented"], keys["unfit"], keys["salvaged"]) == (1, 1, 2)
    assert keys["emitted"] > 100
    assert keys["invented_rate"] == pytest.approx(1 / keys["emitted"], abs=1e-6)
    flagged = duckdb.execute(
        "SELECT packet_id || '/' || doc_id, invented_keys, unfit_leaves FROM "
        f"read_parquet('{run / 'scores' / 'documents.parquet'}') WHERE salvaged"
    ).fetchall()
    assert sorted(flagged) == [(a, 1, 0), (s, 0, 1)]


@pytest.mark.e2e  # six commands, 25-140 s on 2 shared cores; the library test is in the fast tier
def test_score_invalid_from_the_command_line(
    sim_run: SimRun,
    run_cli: Callable[..., subprocess.CompletedProcess[str]],
    one_packet: Path,
    tmp_path: Path,
) -> None:
    """`score --invalid salvage` says what it salvaged, the invented-key rate is a headline
    rate, runs scored under different policies are not paired, and a policy it does not know
    is one line, exit 2, with nothing written."""
    packets = one_packet
    source = sim_run("perfect", 0, packets)[0]
    runs = {}
    for policy in ("exclude", "salvage"):
        run = runs[policy] = _copy_run(source, tmp_path / policy)
        record = run / "extractions" / "N1-000001" / "acord_125.json"
        data = _json(record)
        data["output"]["notes"] = "not in the schema"
        record.write_text(json.dumps(data))
    refused = run_cli("score", str(runs["salvage"]), "--packets", str(packets), "--invalid", "keep")
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.strip().count("\n") == 0
    assert "--invalid must be one of exclude, salvage (got 'keep')" in refused.stderr
    assert not (runs["salvage"] / "scores").exists()
    done = {
        policy: run_cli("score", str(run), "--packets", str(packets), "--invalid", policy)
        for policy, run in runs.items()
    }
    assert all(d.returncode == 0 for d in done.values()), [d.stderr for d in done.values()]
    assert "excluded: 1 invalid" in done["exclude"].stdout
    assert "excluded: none; salvaged: 1 invalid (the leaves that fit; 1 invented keys)" in (
        done["salvage"].stdout
    )
    query = "SELECT metric, num, den > 0 FROM headline WHERE metric = 'invented_keys'"
    for policy, want in (("exclude", []), ("salvage", ["invented_keys,1,True"])):
        found = run_cli("sql", str(runs[policy]), query, "--format", "csv")
        assert found.returncode == 0, found.stderr
        assert found.stdout.splitlines()[1:] == want  # exclude counts no keys: no rate
    paired = run_cli("compare", str(runs["exclude"]), str(runs["salvage"]))
    assert paired.returncode == 2
    assert "scored under different policies for invalid outputs" in paired.stderr
