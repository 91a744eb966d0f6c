"""Tiers as pattern presets, over the shared tier corpus (tests/support/tier_corpus.py: 10 to 20
seeds per tier, 4 of N4-N5; slow, but for a check of
the canonical suite): harder tiers carry more patterns, every packet audits clean, every
document truth validates, and a process with another hash seed writes the same bytes.

The packets are the session's shared tier corpus (`tier_corpus`, written by `packetbench
generate` with PYTHONHASHSEED=0), one test per tier so xdist workers build tiers side by side.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from packetbench.audit import audit_packets
from packetbench.generator.schema_files import all_schemas
from tests.support.files import file_digests as _digests
from tests.support.paths import PACKETS, TIERS
from tests.support.tier_corpus import SEEDS

# Seeds of each tier written again under another hash seed. N4 and N5 cost 5-20 times an
# N1-N3 packet, and their seed 1 is rebuilt under another hash seed against the suite's lock
# (tests/generator/test_determinism.py).
AGAIN = {"N1": 3, "N2": 3, "N3": 3, "N4": 0, "N5": 0}


def _patterns(packet: Path) -> set[str]:
    found: set[str] = set()
    for manifest in packet.glob("manifest_*.json"):
        found |= {p["id"] for p in json.loads(manifest.read_text())["patterns_applied"]}
    return found


@pytest.mark.slow
@pytest.mark.parametrize("tier", TIERS)
def test_tier_audits_clean_validates_and_is_hash_seed_free(
    tier: str, tier_corpus: Callable[[str], Path], tmp_path: Path, run_cli: Any
) -> None:
    corpus = tier_corpus(tier)

    # Every packet audits clean, except that values on scanned pages need OCR (OCR of 100
    # packets would take an hour; test_scan.py reads scans back); every document truth
    # validates against its schema.
    result = audit_packets([corpus])
    problems = [f for f in result.findings() if f.problem != "not_checked"]
    assert not problems, problems[:5]
    assert result.totals()["packets"] == SEEDS[tier]
    if tier != "N1":
        assert result.totals()["fields_not_checked"] > 0, "the presets scan some pages"
    validators = {name: Draft202012Validator(schema) for name, schema in all_schemas().items()}
    for path in sorted(corpus.rglob("document_truth_*.json")):
        document = json.loads(path.read_text())
        errors = list(validators[document["schema"]].iter_errors(document["truth"]))
        assert not errors, (path, errors[0].message)

    # Another process, another hash seed, two workers: the same bytes, packet by packet.
    if not AGAIN[tier]:
        return
    again = tmp_path / "again"
    result_cli = run_cli(
        *("generate", "--tiers", tier, "--seed", "1", "--count", str(AGAIN[tier]), "--jobs", "2"),
        *("--out", str(again)),
        env={"PYTHONHASHSEED": "4242"},
        timeout=1800,
    )
    assert result_cli.returncode == 0, result_cli.stderr
    for seed in range(1, AGAIN[tier] + 1):
        name = f"{tier}-{seed:06d}"
        fresh = _digests(again / name)
        assert len(fresh) > 20
        assert fresh == _digests(corpus / name), name


@pytest.mark.slow
def test_harder_tiers_carry_more_patterns(tier_corpus: Callable[[str], Path]) -> None:
    """Any three N1 packets at most 8 patterns, any three N5 at least 25; more pattern uses
    per document as the tier rises, most at N5; and more distinct patterns per packet (and in
    all) from N1 to N4, N5 more than N3 (it photographs nine PDF documents in ten, so it
    draws few of the other scan levels and of the text-layer attacks; in all, N5's packets
    are held against as many of N3's)."""
    per_tier: dict[str, list[set[str]]] = {
        tier: [
            _patterns(tier_corpus(tier) / f"{tier}-{seed:06d}")
            for seed in range(1, SEEDS[tier] + 1)
        ]
        for tier in TIERS
    }
    triples = {
        tier: [len(sets[i] | sets[i + 1] | sets[i + 2]) for i in range(0, len(sets) - 2, 3)]
        for tier, sets in per_tier.items()
    }
    assert max(triples["N1"]) <= 8, triples["N1"]
    assert min(triples["N5"]) >= 25, triples["N5"]
    means = [sum(len(s) for s in per_tier[tier]) / SEEDS[tier] for tier in TIERS]
    assert means[:4] == sorted(means[:4]) and means[4] > means[2], means
    unions = [len(set().union(*per_tier[tier])) for tier in TIERS]
    assert unions[:4] == sorted(unions[:4]), unions
    n3_alike = len(set().union(*per_tier["N3"][: SEEDS["N5"]]))
    assert unions[4] > n3_alike, (unions, n3_alike)
    uses = []
    for tier in TIERS:
        manifests = sorted(tier_corpus(tier).glob("*/manifest_*.json"))
        applied = sum(len(json.loads(m.read_text())["patterns_applied"]) for m in manifests)
        uses.append(applied / len(manifests))
    assert uses == sorted(uses) and uses[4] > uses[3], uses


@pytest.mark.slow
def test_every_perception_indicator_escalates(tier_corpus: Callable[[str], Path]) -> None:
    """The difficulty card of the five tier corpora (the shared tier corpus, no OCR):
    image-page share, located values missing from the text layer, conflicts, illegible values
    and patterns per document never fall from N1 to N5 and are strictly higher at N5 than at
    N4; image pages are about N2 15 %, N3 40 %, N4 65-80 %, N5 85 % or more of PDF pages."""
    from packetbench.benchmark.difficulty import difficulty_card

    rows = difficulty_card([tier_corpus(tier) for tier in TIERS], ocr_sample=0).tiers
    assert [row["tier"] for row in rows] == list(TIERS)
    for key in (
        "image_page_share",
        "not_in_text_layer_share",
        "conflicts_per_packet",
        "illegible_values_per_packet",
        "pattern_uses_per_document",
        "pdf_pages_per_packet",
    ):
        values = [row[key] or 0 for row in rows]
        assert values == sorted(values) and values[4] > values[3], (key, values)
    images = [row["image_page_share"] for row in rows]
    assert images[0] == 0 and 0.08 <= images[1] <= 0.25 and 0.3 <= images[2] <= 0.5, images
    assert 0.6 <= images[3] <= 0.8 and images[4] >= 0.85, images


def test_the_canonical_suite_escalates_and_validates() -> None:
    """The fast tier's check, on the canonical suite (one packet a tier, built at session
    start): the patterns a document carries never fall from N1 to N5 and are most at N5; the
    distinct patterns a packet carries never fall from N1 to N4 (at most 8 at N1) and are at
    least 25 at N5, more than at N3 (N5 photographs nine PDF documents in ten, so it draws
    fewer of the other scan levels, and of the text-layer attacks, which need a native page);
    and every document truth validates against its schema."""
    counts = [len(_patterns(PACKETS / f"{tier}-000001")) for tier in TIERS]
    assert counts[:4] == sorted(counts[:4]) and counts[0] <= 8, counts
    assert counts[4] >= max(25, counts[2] + 1), counts
    per_document = []
    for tier in TIERS:
        manifests = sorted((PACKETS / f"{tier}-000001").glob("manifest_*.json"))
        uses = sum(len(json.loads(m.read_text())["patterns_applied"]) for m in manifests)
        per_document.append(uses / len(manifests))
    assert per_document == sorted(per_document) and per_document[4] > per_document[3]
    validators = {name: Draft202012Validator(schema) for name, schema in all_schemas().items()}
    checked = 0
    for path in sorted(PACKETS.glob("N*-000001/document_truth_*.json")):
        document = json.loads(path.read_text())
        errors = list(validators[document["schema"]].iter_errors(document["truth"]))
        assert not errors, (path, errors[0].message)
        checked += 1
    assert checked > 100
