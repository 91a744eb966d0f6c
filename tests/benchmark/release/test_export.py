"""`packetbench release export`: Parquet that Hugging Face `datasets` loads offline, one row
per document, and a dataset card."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from tests.support.files import file_digests as tree
from tests.support.releases import RunCli


@pytest.fixture(scope="module")
def exported(tiny_release: Path, run_cli: RunCli) -> Path:
    folder = tiny_release
    done = run_cli(
        "release", "export", str(folder / "rel"), "--out", str(folder / "data"), "--dpi", "50"
    )
    assert done.returncode == 0, done.stderr
    assert "data/dev.parquet: 25 documents" in done.stdout
    return folder


def _load(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(folder / "hf-home"))
    from datasets import load_dataset

    files = {
        "dev": str(folder / "data" / "dev.parquet"),
        "test": str(folder / "data" / "test.parquet"),
    }
    return load_dataset("parquet", data_files=files, cache_dir=str(folder / "hf-cache"))


@pytest.mark.slow
def test_datasets_loads_the_export_and_a_truth_round_trips(
    exported: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _load(exported, monkeypatch)
    release = json.loads((exported / "rel" / "release.json").read_text())
    assert data["dev"].num_rows == release["splits"]["dev"]["documents"] == 25
    assert data["test"].num_rows == release["splits"]["test"]["documents"]
    packet = exported / "rel" / "dev" / "N1-000001"
    rows = {row["doc_id"]: row for row in data["dev"]}
    acord = rows["acord_125"]
    stored = json.loads((packet / "document_truth_acord_125.json").read_text())["truth"]
    assert json.loads(acord["truth"]) == stored
    assert acord["file"] == (packet / "acord_125.pdf").read_bytes()
    assert acord["file_sha256"] == hashlib.sha256(acord["file"]).hexdigest()
    pages = json.loads((packet / "manifest_acord_125.json").read_text())["pages"]
    assert acord["pages"] == pages == len(acord["page_images"])
    image = acord["page_images"][0]  # decoded by datasets' Image feature: a PIL image
    assert image.format == "PNG" and image.size[0] == pytest.approx(612 * 50 / 72, abs=2)
    assert json.loads(acord["json_schema"])["title"] or acord["schema"] == "acord_125"
    workbook = next(row for row in rows.values() if row["format"] == "xlsx")
    assert workbook["page_images"] == [] and workbook["pages"] == 0
    assert acord["seed"] == 1 and acord["tier"] == "N1"


def test_the_test_split_is_exported_without_truth_or_seeds(
    exported: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _load(exported, monkeypatch)
    test = data["test"]
    assert set(test["truth"]) == {None} and set(test["seed"]) == {None}
    assert set(test["packet"]) == {"N1-t001"}
    seed = json.loads((exported / "rel" / "test" / "N1-t001" / "packet_truth.json").read_text())
    parquet = (exported / "data" / "test.parquet").read_bytes()
    assert str(seed["seed"]).encode() not in parquet


def test_the_parquet_is_written_in_row_groups_and_the_card_describes_it(exported: Path) -> None:
    assert pq.ParquetFile(exported / "data" / "dev.parquet").num_row_groups >= 2
    card = (exported / "data" / "README.md").read_text()
    for part in (
        "license: apache-2.0",
        "## Fields",
        "## Splits",
        "## How it was made",
        "## Licence",
        "## Intended use",
        "## Known limits",
        "| test | ",
        "withheld",
    ):
        assert part in card, part


@pytest.mark.slow
def test_an_export_is_byte_identical_when_made_again(exported: Path, run_cli: RunCli) -> None:
    done = run_cli(
        "release",
        "export",
        str(exported / "rel"),
        "--out",
        str(exported / "data-again"),
        "--dpi",
        "50",
    )
    assert done.returncode == 0, done.stderr
    assert tree(exported / "data-again") == tree(exported / "data")


def test_a_changed_release_or_an_existing_export_is_refused(
    exported: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    again = run_cli("release", "export", str(exported / "rel"), "--out", str(exported / "data"))
    assert again.returncode == 2 and "already exists (use --force" in again.stderr
    copy = tmp_path / "rel"
    shutil.copytree(exported / "rel", copy)
    target = copy / "dev" / "N1-000001" / "acord_125.pdf"
    target.write_bytes(target.read_bytes() + b" ")
    done = run_cli("release", "export", str(copy), "--out", str(tmp_path / "data"))
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "acord_125.pdf: sha256 differs" in done.stderr
    assert not (tmp_path / "data").exists()
    assert not any(p.name.startswith(".data.") for p in tmp_path.iterdir())
