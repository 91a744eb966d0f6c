"""Fixtures for scoring tests: sim runs over the canonical suite, and a packet with a
superseded document (the generator does not make those yet) so stale values can occur."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.score.scorer import RunScores, score_run
from packetbench.generator.render.cells import cell_text
from tests.support.files import write_json as _save
from tests.support.paths import PACKETS


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def add_superseded_sov(packet: Path) -> None:
    """Give `packet` a prior version of its SOV workbook, superseded by `sov_excel`, whose
    building values are 10% lower (TIV and totals follow), drawn in its own cells."""
    old, new = "sov_excel", "sov_prior"
    changed: dict[str, float] = {}
    truth = _load(packet / f"document_truth_{old}.json")
    totals = {"building_value": 0.0, "tiv": 0.0}
    for index, row in enumerate(truth["truth"]["buildings"]):
        if row["building_value"]:
            lower = round(row["building_value"] * 0.9, -3)
            row["tiv"] = row["tiv"] - row["building_value"] + lower
            row["building_value"] = lower
            changed[f"buildings[{index}].building_value"] = lower
            changed[f"buildings[{index}].tiv"] = row["tiv"]
        totals["building_value"] += row["building_value"]
        totals["tiv"] += row["tiv"]
    for key, value in totals.items():
        truth["truth"]["totals"][key] = value
        changed[f"totals.{key}"] = value
    truth["doc_id"] = new
    _save(packet / f"document_truth_{new}.json", truth)
    fields = _load(packet / f"field_truth_{old}.json")
    fields["doc_id"] = new
    for entry in fields["fields"]:
        if entry["path"] in changed:
            entry["value"] = changed[entry["path"]]
            entry["rendered_as"] = cell_text(changed[entry["path"]])
    _save(packet / f"field_truth_{new}.json", fields)
    universe = _load(packet / f"rendered_universe_{old}.json")
    universe["doc_id"] = new
    universe["strings"] += [{"text": cell_text(v), "page": 1} for v in changed.values()]
    _save(packet / f"rendered_universe_{new}.json", universe)
    manifest = _load(packet / f"manifest_{old}.json")
    manifest.update(doc_id=new, file=f"{new}.xlsx")
    _save(packet / f"manifest_{new}.json", manifest)
    shutil.copy(packet / f"{old}.xlsx", packet / f"{new}.xlsx")
    packet_truth = _load(packet / "packet_truth.json")
    packet_truth["documents"].append(
        {
            "doc_id": new,
            "doc_type": "sov",
            "format": "xlsx",
            "file": f"{new}.xlsx",
            "schema": "sov",
            "superseded_by": old,
        }
    )
    _save(packet / "packet_truth.json", packet_truth)


@pytest.fixture(scope="session")
def stale_packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stale")
    for name in ("N2-000001", "N3-000001"):
        shutil.copytree(PACKETS / name, folder / name)
        add_superseded_sov(folder / name)
    return folder


@pytest.fixture(scope="session")
def sim_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[str, int, Path], tuple[Path, RunScores]]:
    """Extract `packets` with sim `profile` and `seed`, score it, once per session."""
    cache: dict[tuple[str, int, Path], tuple[Path, RunScores]] = {}

    def run(profile: str, seed: int, packets: Path = PACKETS) -> tuple[Path, RunScores]:
        key = (profile, seed, packets)
        if key not in cache:
            folder = tmp_path_factory.mktemp(f"run-{profile}-{seed}")
            extract(SimProvider(profile, seed), packets, folder, force=True)
            cache[key] = (folder, score_run(folder, packets))
        return cache[key]

    return run
