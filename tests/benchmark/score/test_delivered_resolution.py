"""Scored at the delivered resolution (docs/resolution.md): a value legible in the file but not
on the page as the run sent it is an abstention test for that run, as an illegible one is.

The simulator is run through the command line at `--input images --dpi 96` and `--dpi 150` on
the canonical N4 packet (its far photos put values between those rungs): the 96 dpi run has
more abstention tests, both ledgers are exact, the views and the report count what the ledger
wrote; an off-ladder --dpi is refused; a run recorded without a delivery scores as before.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.delivery import below_resolution, decide, of_run
from packetbench.benchmark.results import open_runs
from packetbench.core.errors import UsageError
from packetbench.reading.resolution import legible_at
from tests.support.errors import one_line_error as _error
from tests.support.files import read_json as _json
from tests.support.paths import PACKETS, cli_path
from tests.support.scoring import ledger_mismatches

PACKET = "N4-000001"
OUTCOMES = ("abstained", "guess_right", "guess_grounded", "guess_wrong")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [cli_path(), *args], capture_output=True, text=True, timeout=600, check=False
    )


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("packets")
    (folder / PACKET).symlink_to(PACKETS / PACKET)
    return folder


@pytest.fixture(scope="module")
def runs(packets: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, Path]]:
    """The simulator's run of the packet sent as page images at 96 and at 150 dpi, scored."""
    base = tmp_path_factory.mktemp("runs")
    made = {}
    for dpi in (96, 150):
        run = base / f"sim-{dpi}"
        args = ("--input", "images", "--dpi", str(dpi))
        result = _cli("extract", "--packets", str(packets), "--out", str(run), *args)
        assert result.returncode == 0, result.stderr
        result = _cli("score", str(run), "--packets", str(packets))
        assert result.returncode == 0, result.stderr
        made[dpi] = run
    yield made


def _views(run: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    with open_runs([run]) as found:
        whole = found.rows("SELECT * FROM below_resolution WHERE tier = 'all'")
        guesses = found.rows(
            "SELECT packet_id || '/' || doc_id AS doc, path, guess, value FROM claims "
            "WHERE below_resolution"
        )
    return (whole[0] if whole else None), guesses


@pytest.mark.slow
def test_the_lower_resolution_has_more_abstention_tests_and_both_ledgers_are_exact(
    runs: dict[int, Path], packets: Path
) -> None:
    counts = {}
    for dpi, run in runs.items():
        info = _json(run / "run.json")
        assert info["delivery"] == {
            "input": "images",
            "dpi": dpi,
            "source": "images",
            "text_layer": False,
        }
        assert info["parameters"]["dpi"] == dpi
        assert ledger_mismatches(run) == []
        ledger = _json(run / "sim_injections.json")
        whole, guesses = _views(run)
        assert whole is not None, f"{dpi} dpi: no value below the resolution"
        total = ledger["overall"]["below_resolution"]
        # The views count exactly the simulator's choices, outcome by outcome.
        assert {o: whole[o] for o in ("fields", *OUTCOMES)} == {
            o: total[o] for o in ("fields", *OUTCOMES)
        }
        expected = sorted(
            (key, c["path"], c["outcome"], c["value"])
            for key, entry in ledger["documents"].items()
            for c in entry.get("below_resolution", {}).get("choices", [])
            if c["outcome"] != "abstained"
        )
        assert sorted(
            (g["doc"], g["path"], g["guess"], json.loads(g["value"])) for g in guesses
        ) == (expected)
        # Those fields are what the truth's rungs say the page hides at that resolution.
        truth_below = sum(
            len(below_resolution(_json(f)["fields"], of_run(info)))
            for f in (packets / PACKET).glob("field_truth_*.json")
        )
        assert whole["fields"] == truth_below
        counts[dpi] = whole["fields"]
    assert counts[96] > counts[150] > 0
    # The illegible fields are the file's: the same at every resolution.
    illegible = [
        _json(run / "sim_injections.json")["overall"]["illegible"] for run in runs.values()
    ]
    assert illegible[0]["fields"] == illegible[1]["fields"]


@pytest.mark.slow
def test_scoring_again_gives_the_same_bytes(runs: dict[int, Path], packets: Path) -> None:
    run = runs[96]
    before = {p.name: p.read_bytes() for p in sorted((run / "scores").iterdir())}
    result = _cli("score", str(run), "--packets", str(packets))
    assert result.returncode == 0, result.stderr
    assert {p.name: p.read_bytes() for p in sorted((run / "scores").iterdir())} == before


@pytest.mark.slow
def test_the_report_shows_the_slice_and_how_pages_were_delivered(
    runs: dict[int, Path], tmp_path: Path
) -> None:
    out = tmp_path / "report"
    result = _cli("report", str(runs[96]), str(runs[150]), "--out", str(out))
    assert result.returncode == 0, result.stderr
    text = (out / "report.md").read_text(encoding="utf-8")
    section = text[text.index("### Below the delivered resolution") : text.index("## 6. ")]
    assert "- `sim-96`: images at 96 dpi" in section
    assert "- `sim-150`: images at 150 dpi" in section
    for dpi, run in runs.items():
        total = _json(run / "sim_injections.json")["overall"]["below_resolution"]
        row = next(
            line
            for line in section.splitlines()
            if line.startswith("| Abstained |") and f"| sim-{dpi} |" in line
        )
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert (cells[3], cells[4]) == (f"{total['abstained']:,}", f"{total['fields']:,}")
    assert 'id="below-resolution"' in (out / "report.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_run_recorded_without_a_delivery_is_scored_at_the_files_resolution(
    runs: dict[int, Path], packets: Path, tmp_path: Path
) -> None:
    """run.json without `delivery` (a run made before it was recorded) scores, every value
    the file shows expected, and the report says how it was scored."""
    run = tmp_path / "old"
    shutil.copytree(runs[150], run)
    info = _json(run / "run.json")
    del info["delivery"]
    (run / "run.json").write_text(json.dumps(info), encoding="utf-8")
    result = _cli("score", str(run), "--packets", str(packets))
    assert result.returncode == 0, result.stderr
    assert _views(run) == (None, [])
    with open_runs([run]) as found:
        below = found.rows("SELECT COUNT(*) AS n FROM fields WHERE below_resolution")[0]["n"]
    assert below == 0
    out = tmp_path / "report"
    assert _cli("report", str(run), "--out", str(out)).returncode == 0
    # The run keeps the name run.json gives it.
    assert "- `sim-150`: not recorded: scored at the file's own resolution" in (
        out / "report.md"
    ).read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_dpi_off_the_ladder_or_for_another_input_is_refused(
    packets: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    base = ("extract", "--packets", str(packets), "--out", str(out))
    _error(_cli(*base, "--input", "images", "--dpi", "97"), "--dpi must be one of", "got 97")
    _error(_cli(*base, "--dpi", "96"), "--dpi", "--input native")
    _error(_cli(*base, "--input", "images", "--delivered-dpi", "96"), "--delivered-dpi")
    _error(_cli(*base, "--delivered-dpi", "100"), "--delivered-dpi must be one of")
    assert not out.exists()


def test_native_input_records_the_providers_documented_rasterisation() -> None:
    claude = decide("anthropic", "claude-sonnet-4-5", "native")
    assert (claude.dpi, claude.source, claude.text_layer) == (110, "assumed", True)
    assert claude.basis is not None and "1568" in claude.basis
    assert decide("openai", "gpt-5", "native").dpi == 90
    stated = decide("gemini", "gemini-2.5-pro", "native", delivered_dpi=150)
    assert (stated.dpi, stated.source) == (150, "override")
    assert decide("openai", "gpt-5", "text").dpi is None
    with pytest.raises(UsageError):
        decide("openai", "gpt-5", "text", delivered_dpi=90)


def test_a_text_layer_sent_as_text_keeps_its_values_legible(packets: Path) -> None:
    """Sent natively with its text layer, a value the text layer carries is read from it at
    any resolution: fewer values are below 90 dpi than for the same pages as images, and
    none of them has a location in the text layer."""
    images = decide("sim", None, "images", dpi=90)
    native = decide("openai", "gpt-5", "native")
    assert native.dpi == images.dpi == 90 and native.text_layer
    hidden = {"images": 0, "native": 0}
    carried = 0
    for path in (packets / PACKET).glob("field_truth_*.json"):
        entries = _json(path)["fields"]
        below = below_resolution(entries, native)
        hidden["native"] += len(below)
        hidden["images"] += len(below_resolution(entries, images))
        for entry in entries:
            places = [p for p in entry.get("locations") or [] if "page" in p]
            if entry["path"] in below:
                assert not any(p.get("text_layer") is True for p in places)
            elif any(p.get("text_layer") is True for p in places) and not any(
                legible_at(p, 90) for p in places
            ):
                carried += 1
    assert hidden["images"] > hidden["native"] and carried > 0


@pytest.mark.parametrize("profile", ["typical", "sloppy", "perfect"])
@pytest.mark.parametrize("dpi", [96, 150])
@pytest.mark.slow
def test_the_ledger_is_exact_on_n5_at_a_delivered_resolution(
    profile: str, dpi: int, tmp_path: Path
) -> None:
    """The canonical N5 packet (far phone photos: thousands of values below 96 dpi, and
    whole table rows) sent at `dpi`: the scorer recovers every count the simulator injected,
    and a perfect extractor is perfect on what the pages show and abstains on the rest."""
    from packetbench.benchmark.extract import extract
    from packetbench.benchmark.providers.sim import SimProvider
    from packetbench.benchmark.score.scorer import score_run

    packets = tmp_path / "packets"
    packets.mkdir()
    (packets / "N5-000001").symlink_to(PACKETS / "N5-000001")
    run = tmp_path / "run"
    extract(SimProvider(profile, 1, input_mode="images", dpi=dpi), packets, run, force=True)
    score_run(run, packets)
    assert ledger_mismatches(run) == []
    below = _json(run / "sim_injections.json")["overall"]["below_resolution"]
    assert below["fields"] > 0
    if profile == "perfect":
        overall = _json(run / "scores" / "field_breakdown.json")["overall"]
        assert overall["gt_fields"] == overall["correct"]
        assert below["abstained"] == below["fields"]


@pytest.mark.slow
def test_gate_thresholds_the_slice(runs: dict[int, Path], tmp_path: Path) -> None:
    """A threshold on a below-resolution rate holds or breaches on the run's own slice; a
    no_regression rule cannot list one (two resolutions test different fields)."""
    total = _json(runs[96] / "sim_injections.json")["overall"]["below_resolution"]
    share = total["abstained"] / total["fields"]
    assert 0 < share < 1  # the simulator both abstained and guessed
    rules = tmp_path / "rules.toml"
    rules.write_text(f'[[rule]]\nmetric = "below_abstained"\nmin = {share - 1e-6:.6f}\n')
    passed = _cli("gate", str(runs[96]), "--rules", str(rules))
    assert passed.returncode == 0, passed.stdout + passed.stderr
    rules.write_text(f'[[rule]]\nmetric = "below_abstained"\nmin = {share + 1e-3:.6f}\n')
    assert _cli("gate", str(runs[96]), "--rules", str(rules)).returncode == 1
    rules.write_text('[[rule]]\nno_regression = ["below_guess_wrong"]\n')
    refused = _cli("gate", str(runs[96]), "--rules", str(rules), "--baseline", str(runs[150]))
    _error(refused, "below_guess_wrong is a threshold rate only")


def test_an_api_run_renders_and_records_the_dpi_it_is_given(packets: Path) -> None:
    """`--input images --dpi 96` to a provider: its pages are rendered at 96 dpi (a letter
    page 816 pixels wide) and run.json records the delivery; native records the assumption."""
    import io

    from PIL import Image

    from packetbench.benchmark.harness.inputs import build_file
    from packetbench.benchmark.providers.api import ApiSettings
    from packetbench.benchmark.providers.openai import OpenAIProvider

    provider = OpenAIProvider(ApiSettings(model="gpt-5", input_mode="images", image_dpi=96))
    assert provider.image_dpi == 96
    described = provider.describe()
    assert described["delivery"]["dpi"] == 96 and described["parameters"]["dpi"] == 96
    pdf = next(p for p in sorted((packets / PACKET).glob("*.pdf")))
    sent = build_file(pdf, "images", True, provider.image_dpi)
    width = Image.open(io.BytesIO(sent.parts[0].data)).size[0]
    assert abs(width - 816) <= 1
    native = OpenAIProvider(ApiSettings(model="gpt-5")).describe()
    assert native["delivery"]["source"] == "assumed" and native["delivery"]["dpi"] == 90
    assert "dpi" not in native["parameters"]


@pytest.mark.slow
def test_the_viewer_marks_the_fields_below_the_resolution(
    runs: dict[int, Path], packets: Path, tmp_path: Path
) -> None:
    """`packetbench view`: a document's fields carry `below_resolution` exactly where the
    scores do (the document page tags each)."""
    import urllib.request

    from tests.support.viewer import serving

    run = runs[96]
    with open_runs([run]) as found:
        rows = found.rows(
            "SELECT doc_id, path FROM fields WHERE below_resolution ORDER BY doc_id, path"
        )
    doc = rows[0]["doc_id"]
    expected = sorted(r["path"] for r in rows if r["doc_id"] == doc)
    with serving(str(run), "--packets", str(packets), "--cache", str(tmp_path / "c")) as url:
        address = f"{url}api/runs/0/documents/{PACKET}/{doc}"
        with urllib.request.urlopen(address, timeout=120) as answer:
            summary = json.loads(answer.read())
        fields: list[dict[str, Any]] = []
        for part in range(-(-summary["fields_total"] // summary["chunk"])):
            with urllib.request.urlopen(f"{address}/fields-{part}", timeout=120) as answer:
                fields += json.loads(answer.read())
    assert sorted(f["path"] for f in fields if f["below_resolution"]) == expected
