"""Tiers as pattern presets, over 20 seeds per tier (slow): harder tiers carry more patterns,
every packet audits clean, every document truth validates, and two processes with different
hash seeds write the same bytes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from packetbench.benchmark.audit import audit_packets
from packetbench.generator.schema_files import all_schemas
from tests.support.paths import TIERS

SEEDS = 20

pytestmark = pytest.mark.slow


def _digests(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _patterns(packet: Path) -> set[str]:
    found: set[str] = set()
    for manifest in packet.glob("manifest_*.json"):
        found |= {p["id"] for p in json.loads(manifest.read_text())["patterns_applied"]}
    return found


def test_tiers_over_twenty_seeds(tmp_path: Path, run_cli: Any) -> None:
    """One test (one corpus, built once even under xdist): generated twice by
    `packetbench generate --jobs 2` in processes with different PYTHONHASHSEED values."""
    for name, hash_seed in (("a", "0"), ("b", "4242")):
        for tier in TIERS:
            result = run_cli(
                "generate",
                "--tier",
                tier,
                "--seed",
                "1",
                "--count",
                str(SEEDS),
                "--jobs",
                "2",
                "--out",
                str(tmp_path / name),
                env={"PYTHONHASHSEED": hash_seed},
                timeout=1800,
            )
            assert result.returncode == 0, result.stderr
    corpus = tmp_path / "a"

    # Harder tiers carry more patterns: any three N1 packets at most 8, any three N5 at least
    # 25, and more per packet as the tier rises.
    per_tier: dict[str, list[set[str]]] = {
        tier: [_patterns(corpus / f"{tier}-{seed:06d}") for seed in range(1, SEEDS + 1)]
        for tier in TIERS
    }
    triples = {
        tier: [len(sets[i] | sets[i + 1] | sets[i + 2]) for i in range(0, SEEDS - 2, 3)]
        for tier, sets in per_tier.items()
    }
    assert max(triples["N1"]) <= 8, triples["N1"]
    assert min(triples["N5"]) >= 25, triples["N5"]
    means = [sum(len(s) for s in per_tier[tier]) / SEEDS for tier in TIERS]
    assert means == sorted(means), means
    unions = [len(set().union(*per_tier[tier])) for tier in TIERS]
    assert unions == sorted(unions), unions

    # Every packet audits clean, except that values on scanned pages need OCR (OCR of 100
    # packets would take an hour; test_scan.py reads scans back); every document truth
    # validates against its schema.
    result = audit_packets([corpus])
    problems = [f for f in result.findings() if f.problem != "not_checked"]
    assert not problems, problems[:5]
    assert result.totals()["fields_not_checked"] > 0, "the presets scan some pages"
    assert result.totals()["packets"] == SEEDS * len(TIERS)
    validators = {name: Draft202012Validator(schema) for name, schema in all_schemas().items()}
    for path in sorted(corpus.rglob("document_truth_*.json")):
        document = json.loads(path.read_text())
        errors = list(validators[document["schema"]].iter_errors(document["truth"]))
        assert not errors, (path, errors[0].message)

    # The two processes wrote the same bytes.
    first, second = _digests(tmp_path / "a"), _digests(tmp_path / "b")
    assert len(first) > SEEDS * len(TIERS) * 40
    assert first == second
