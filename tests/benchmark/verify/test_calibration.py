"""Calibration on packets recovers the sim judge's configured rates, and the corrected rate
of a held-back run covers its true rate; a calibration that does not fit is refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import numpy as np
import pytest

from packetbench.benchmark.score.verdicts import VERDICTS
from packetbench.benchmark.verify.calibration import kappa
from tests.support.audit import Run

SE, SP = 0.8, 0.9


def _expected_kappa(run: Path) -> float:
    """Kappa of the confusion matrix the sim's rates give this run's verdict mix."""
    with duckdb.connect(str(run / "results.duckdb"), read_only=True) as con:
        mix = dict(con.execute("SELECT verdict, COUNT(*) FROM claims GROUP BY 1").fetchall())
    size = len(VERDICTS)
    confusion = np.zeros((size, size))
    for t, verdict in enumerate(VERDICTS):
        n = mix.get(verdict, 0)
        if verdict == "supported":
            confusion[t, :] = n * (1 - SP) / (size - 1)
            confusion[t, t] = n * SP
        else:
            confusion[t, 0], confusion[t, t] = n * (1 - SE), n * SE
    return float(kappa(confusion))


def test_calibration_recovers_the_configured_rates(
    run_cli: Run, n3_pair: Path, tmp_path: Path
) -> None:
    shutil.copytree(n3_pair, tmp_path / "w", symlinks=True)
    run = tmp_path / "w" / "cal"
    done = run_cli("verify", str(run), "--sensitivity", str(SE), "--specificity", str(SP))
    assert done.returncode == 0, done.stderr
    found = json.loads((run / "judge" / "sim-sim" / "calibration.json").read_text())
    for name, configured in (("sensitivity", SE), ("specificity", SP)):
        assert found[name]["low"] <= configured <= found[name]["high"], (name, found[name])
    assert found["kappa"]["low"] <= _expected_kappa(run) <= found["kappa"]["high"]
    # Unanswerable fields are in it: every claim of a null truth is hallucinated.
    null = [s for s in found["slices"] if s["slice"] == "truth" and s["value"] == "null"]
    assert null and null[0]["claims"] == null[0]["hallucinated"] > 0
    assert {s["slice"] for s in found["slices"]} >= {"tier", "doc_type", "kind", "pattern_family"}
    assert "kappa" in done.stdout
    # The same numbers through SQL.
    shown = run_cli(
        "sql",
        str(run),
        "SELECT sensitivity FROM judge_accuracy WHERE slice = 'overall'",
        "--format",
        "json",
    )
    assert shown.returncode == 0, shown.stderr
    assert abs(json.loads(shown.stdout)["sensitivity"] - found["sensitivity"]["estimate"]) < 1e-6


@pytest.mark.slow
def test_corrected_rate_covers_the_true_rate_and_bad_calibrations_are_refused(
    run_cli: Run, n3_pair: Path, tmp_path: Path
) -> None:
    shutil.copytree(n3_pair, tmp_path / "w", symlinks=True)
    cal, held = tmp_path / "w" / "cal", tmp_path / "w" / "held"
    rates = ("--sensitivity", str(SE), "--specificity", str(SP))
    assert run_cli("verify", str(cal), *rates).returncode == 0
    done = run_cli("verify", str(held), *rates, "--calibration", str(cal), "--min-kappa", "0.3")
    assert done.returncode == 0, done.stderr
    estimate = json.loads((held / "judge" / "sim-sim" / "estimate.json").read_text())
    with duckdb.connect(str(held / "results.duckdb"), read_only=True) as con:
        (true,) = con.execute(
            "SELECT AVG((verdict <> 'supported')::INT) FROM claims"
        ).fetchone() or (None,)
    corrected = estimate["corrected"]
    assert corrected["low"] <= true <= corrected["high"], (true, corrected)
    # The raw rate is biased by the false alarms, and its interval misses the truth.
    assert not estimate["raw"]["low"] <= true <= estimate["raw"]["high"]
    assert estimate["calibration"]["run"] == str(cal)
    assert "corrected" in done.stdout
    # The report's judge section shows the calibration and the corrected rate.
    report = run_cli("report", str(held), "--out", str(tmp_path / "report"))
    assert report.returncode == 0, report.stderr
    text = (tmp_path / "report" / "report.md").read_text()
    section = text[text.index("## 11. Judge calibration") :]
    kappa = json.loads((held / "judge" / "sim-sim" / "calibration.json").read_text())["kappa"]
    assert f"kappa {kappa['estimate']:.3f} [{kappa['low']:.3f}–{kappa['high']:.3f}]" in section
    assert f"corrected {corrected['estimate'] * 100:.2f} %" in section
    assert "Judge calibration" in (tmp_path / "report" / "report.html").read_text()
    before = sorted(p.name for p in (held / "judge").iterdir())
    strict = run_cli(
        "verify", str(held), *rates, "--calibration", str(cal), "--min-kappa", "0.99", "--force"
    )
    assert strict.returncode == 2
    assert strict.stderr.count("\n") == 1 and "below --min-kappa 0.99" in strict.stderr
    other = run_cli(
        "verify",
        str(held),
        "--sensitivity",
        "0.7",
        "--calibration",
        str(cal),
        "--min-kappa",
        "0",
        "--force",
    )
    assert other.returncode == 2 and "another parameters" in other.stderr
    # Refused before anything was touched: the labels of the first verify are still there.
    assert sorted(p.name for p in (held / "judge").iterdir()) == before
    assert (held / "judge" / "sim-sim" / "estimate.json").is_file()


def test_guesses_at_illegible_fields_are_a_truth_slice_of_their_own() -> None:
    """Claims that guess at an illegible field (claims.guess) are unanswerable items: the
    calibration counts them in the truth slice `illegible`, apart from other null truths."""
    from packetbench.benchmark.verify.calibration import calibrate

    def row(doc: str, truth: str, judged: str, null: bool, illegible: bool) -> dict[str, object]:
        return {
            "packet_id": "N5-000001",
            "doc_id": doc,
            "path": f"p{doc}{truth}{judged}",
            "tier": "N5",
            "doc_type": "acord_27",
            "kind": "string",
            "truth_verdict": truth,
            "judge_verdict": judged,
            "truth_null": null,
            "illegible": illegible,
            "patterns": ["overlay.blot"] if illegible else [],
        }

    rows = [
        row("a", "supported", "supported", False, False),
        row("a", "unlinked", "unlinked", True, True),
        row("b", "contradicted", "supported", True, True),
        row("b", "unlinked", "unlinked", True, False),
    ]
    found = calibrate(rows, {"run_id": "run"})
    truth = {s["value"]: s for s in found["slices"] if s["slice"] == "truth"}
    assert {v: (s["claims"], s["hallucinated"]) for v, s in truth.items()} == {
        "illegible": (2, 2),
        "null": (1, 1),
        "populated": (1, 0),
    }
    assert truth["illegible"]["sensitivity"]["estimate"] == 0.5
