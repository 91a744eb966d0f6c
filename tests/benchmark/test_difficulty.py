"""`packetbench difficulty`: the card measured on real packets (a scanned one and a native one,
generated small), on an imported corpus, and its bad input."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.difficulty import difficulty_card, render_table
from tests.support.corpus_fixture import write_corpus

RunCli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One ACORD 125 scanned whole (N3, scan.degraded), one scanned with an invisible OCR
    layer over the image (N2, scan.ocr_layer) and one drawn native (N1, no pattern), each a
    packet of its own tier."""
    from tests.support.paths import cli_path

    out = tmp_path_factory.mktemp("difficulty")
    for tier, chosen in (
        ("N3", "patterns.only=scan.degraded"),
        ("N2", "patterns.only=scan.ocr_layer"),
        ("N1", "patterns.off=*"),
    ):
        subprocess.run(
            [
                *(cli_path(), "generate", "--tiers", tier, "--seed", "1", "--out", str(out)),
                *("--set", "documents=acord_125", "--set", chosen),
            ],
            check=True,
            capture_output=True,
            timeout=600,
        )
    return out


@pytest.mark.slow  # ~30 s on 2 loaded cores: Tesseract reads two pages twice
def test_card_tells_a_scanned_packet_from_a_native_one(packets: Path) -> None:
    card = difficulty_card([packets], ocr_sample=1, seed=3, readers=("careful_300",))
    rows = {row["tier"]: row for row in card.tiers}
    assert list(rows) == ["N1", "N2", "N3"]
    native, layered, scanned = rows["N1"], rows["N2"], rows["N3"]
    for row in (native, layered, scanned):
        assert row["packets"] == 1 and row["documents_per_packet"] == 1
        assert row["pdf_pages_per_packet"] >= 1
        assert row["located_values"] > 20
        assert row["ocr_pages_read"] == 1 and row["ocr_located_values"] > 0
    # Read from the PDFs: every scanned page is one image with no text, no native page is.
    assert scanned["image_page_share"] == 1.0
    assert native["image_page_share"] == 0.0
    # A scan with an OCR layer has text, but its page is one image: still an image page.
    assert layered["image_page_share"] == 1.0
    assert scanned["not_in_text_layer_share"] == 1.0
    assert scanned["declared_no_text_layer_share"] == 1.0
    assert native["not_in_text_layer_share"] < 0.05
    assert native["declared_no_text_layer_share"] == 0.0
    # Tesseract reads a clean native page almost whole; the card counts what it read.
    assert native["ocr_recovered_share"] > 0.9
    assert scanned["pattern_uses_per_document"] == 1.0
    assert native["pattern_uses_per_document"] == 0.0
    assert native["conflicts_per_packet"] == 0.0
    assert native["illegible_values_per_packet"] == 0.0
    assert native["largest_table_rows"] >= 1
    # The careful reader (turned, deskewed, evened out) reads what the naive one does and more,
    # and the card says what it read by page kind.
    assert card.readers == ["careful_300"]
    assert scanned["careful_300_recovered_share"] >= scanned["ocr_recovered_share"]
    assert native["careful_300_recovered_share"] > 0.9
    assert scanned["careful_150_recovered_share"] is None  # not asked for
    kinds = {(row["tier"], row["page_kind"]): row for row in card.levels}
    assert set(kinds) == {("N1", "native"), ("N2", "clean"), ("N3", "degraded")}
    assert all(row["ocr_pages_read"] == 1 for row in kinds.values())
    modes = {(row["tier"], row["capture_mode"]): row for row in card.modes}
    assert (
        modes["N3", "low_res_scan"]["careful_300_recovered_share"]
        == (kinds["N3", "degraded"]["careful_300_recovered_share"])
    )
    # Seeded: the same sample reads the same pages, the same numbers, in worker processes too.
    assert (
        difficulty_card([packets], ocr_sample=1, seed=3, jobs=2, readers=("careful_300",)) == card
    )


@pytest.mark.slow  # Tesseract reads four pages
def test_each_mode_is_read_on_the_pages_asked_and_the_tier_rows_stay_the_samples(
    packets: Path,
) -> None:
    """`ocr_per_mode`: a mode the tier's sample read on one page is read on more of its pages,
    for its row alone; the tier and page-kind rows are the uniform sample's, unchanged."""
    plain = difficulty_card([packets], ocr_sample=1, seed=3, readers=())
    topped = difficulty_card([packets], ocr_sample=1, seed=3, readers=(), ocr_per_mode=2)
    assert (topped.tiers, topped.levels) == (plain.tiers, plain.levels)
    assert all(row["ocr_pages_read"] == 1 for row in plain.modes)
    before = {(row["tier"], row["capture_mode"]): row for row in plain.modes}
    grown = 0
    for row in topped.modes:
        assert row["ocr_pages_read"] == min(2, row["pdf_pages"]), row
        if row["ocr_pages_read"] == 2:
            grown += 1
            assert (
                row["ocr_located_values"]
                > before[row["tier"], row["capture_mode"]]["ocr_located_values"]
            )
    assert grown >= 2  # the ACORD 125 runs over pages: the top-up had pages to read
    assert "each mode on at least 2 of its pages" in render_table(topped)


@pytest.mark.slow
def test_jobs_measure_the_same_card(run_cli: RunCli, packets: Path) -> None:
    """`--jobs 2` measures the packets in two worker processes: the card is the same."""
    one = run_cli("difficulty", "--packets", str(packets), "--ocr-sample", "0", "--json")
    two = run_cli(
        "difficulty", "--packets", str(packets), "--ocr-sample", "0", "--json", "--jobs", "2"
    )
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert json.loads(two.stdout) == json.loads(one.stdout)
    assert [row["tier"] for row in json.loads(one.stdout)["tiers"]] == ["N1", "N2", "N3"]
    zero = run_cli("difficulty", "--packets", str(packets), "--jobs", "0")
    assert zero.returncode == 2 and zero.stderr.startswith("packetbench: error: --jobs")


def test_cli_prints_the_card_and_its_json(run_cli: RunCli, packets: Path) -> None:
    done = run_cli("difficulty", "--packets", str(packets), "--ocr-sample", "0")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:2] == ["tier", "packets"]
    assert [line.split()[0] for line in lines[1:4]] == ["N1", "N2", "N3"]
    assert "0 page(s) read" in lines[4]
    # By capture mode, from the manifests: each tier's PDF pages under the mode they were made.
    table = lines[lines.index("") + 3 :]
    assert [line.split()[:2] for line in table] == [
        ["N1", "native"],
        ["N2", "office_scan"],
        ["N3", "low_res_scan"],
    ]
    done = run_cli("difficulty", "--packets", str(packets), "--ocr-sample", "0", "--json")
    assert done.returncode == 0, done.stderr
    card = json.loads(done.stdout)
    assert [row["tier"] for row in card["tiers"]] == ["N1", "N2", "N3"]
    assert [row["image_page_share"] for row in card["tiers"]] == [0.0, 1.0, 1.0]
    assert card["tiers"][2]["ocr_recovered_share"] is None  # a rate over nothing
    modes = {(row["tier"], row["capture_mode"]): row for row in card["modes"]}
    assert set(modes) == {("N1", "native"), ("N2", "office_scan"), ("N3", "low_res_scan")}
    assert modes["N1", "native"]["image_pages"] == 0
    scanned = modes["N3", "low_res_scan"]
    assert scanned["image_pages"] == scanned["pdf_pages"] >= 1
    assert scanned["image_page_share_of_tier"] == 1.0
    assert scanned["located_values"] == card["tiers"][2]["located_values"]


def test_illegible_values_are_counted_apart_and_not_read(tmp_path: Path) -> None:
    """A value damaged past reading (overlay.blot) is counted per packet, and its location is
    not one of the located values the naive OCR is asked to recover."""
    from packetbench.benchmark.difficulty import _located
    from packetbench.truth.documents import read_packet
    from tests.support.paths import cli_path

    subprocess.run(
        [
            *(cli_path(), "generate", "--tiers", "N5", "--seed", "3", "--out", str(tmp_path)),
            *("--set", "documents=acord_125", "--set", "patterns.only=scan.clean,overlay.blot"),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    card = difficulty_card([tmp_path], ocr_sample=0)
    (row,) = card.tiers
    (document,) = [d for d in read_packet(tmp_path / "N5-000003").documents if d.format == "pdf"]
    illegible = [e for e in document.fields if e.get("illegible")]
    assert illegible and row["illegible_values_per_packet"] == len(illegible)
    located = [text for here in _located(document).values() for _, text, _ in here]
    everywhere = [
        entry["rendered_as"]
        for entry in document.fields
        if entry.get("kind") != "checkbox" and entry["rendered_as"].strip()
        for _ in entry["locations"]
    ]
    assert len(located) == len(everywhere) - len(illegible)


@pytest.mark.slow
def test_card_runs_on_an_imported_corpus(run_cli: RunCli, tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    done = run_cli("import", "nightmare", str(corpus), "--out", str(tmp_path / "imported"))
    assert done.returncode == 0, done.stderr
    done = run_cli("difficulty", "--packets", str(tmp_path / "imported" / "packets"), "--json")
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)["tiers"]
    assert row["tier"] == "N1" and row["packets"] == 1 and row["documents_per_packet"] == 2
    assert row["image_page_share"] == 0.0  # the fixture's ACORD 25 is drawn with text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ocr-sample", "-1"], "--ocr-sample must be 0 or more"),
        (["--ocr-sample", "x"], "--ocr-sample"),
        (["--ocr-sample-per-mode", "-1"], "--ocr-sample-per-mode must be 0 or more"),
        (["--readers", "careful,bogus"], "--readers: no reader 'bogus'"),
    ],
)
def test_bad_options_exit_2(run_cli: RunCli, tmp_path: Path, args: list[str], message: str) -> None:
    done = run_cli("difficulty", "--packets", str(tmp_path), *args)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_folder_without_packets_exits_2(run_cli: RunCli, tmp_path: Path) -> None:
    done = run_cli("difficulty", "--packets", str(tmp_path))
    assert done.returncode == 2
    assert str(tmp_path) in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_broken_manifest_exits_2_naming_it(
    run_cli: RunCli, packets: Path, tmp_path: Path
) -> None:
    import shutil

    copy = Path(shutil.copytree(packets / "N1-000001", tmp_path / "N1-000001"))
    (copy / "manifest_acord_125.json").write_text("{not json", encoding="utf-8")
    done = run_cli("difficulty", "--packets", str(copy), "--ocr-sample", "0")
    assert done.returncode == 2
    assert "manifest_acord_125.json" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
