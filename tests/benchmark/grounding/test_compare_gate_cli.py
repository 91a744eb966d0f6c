"""`compare` prints the grounding rates of runs that cited side by side with their paired
intervals and sign tests, and `gate` holds a run to `no_regression` on grounding rates: a
sloppier citer breaches against a careful baseline, the careful one holds against the
sloppy, and a run without citations cannot show it holds."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.selection import Selection
from tests.support.paths import PACKETS
from tests.support.small_runs import small_run

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = PACKETS / "N2-000001"
RULES = """
[[rule]]
no_regression = ["citation_precision_page", "grounding_f1_box"]
"""


def _run(run_cli: Run, run: Path, *extra: str) -> Path:
    made = run_cli("extract", "--packets", str(PACKET), "--out", str(run), "--seed", "1", *extra)
    assert made.returncode == 0, made.stderr
    scored = run_cli("score", str(run), "--packets", str(PACKET))
    assert scored.returncode == 0, scored.stderr
    return run


@pytest.mark.slow
def test_compare_and_gate_on_grounding_rates(run_cli: Run, tmp_path: Path) -> None:
    careful = _run(run_cli, tmp_path / "careful", "--cite", "box", "--profile", "typical")
    sloppy = _run(run_cli, tmp_path / "sloppy", "--cite", "box", "--profile", "sloppy")
    plain = _run(run_cli, tmp_path / "plain", "--profile", "typical")
    shown = run_cli("compare", str(careful), str(sloppy), str(plain))
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    title = next(i for i, x in enumerate(lines) if x.startswith("Grounding: careful vs sloppy"))
    table = lines[title:]
    for label in ("Citation recall", "Citation precision, box", "Grounding F1, page"):
        row = next(x for x in table if label in x)
        assert row.count("%") >= 2 and "[" in row, row  # both runs' rates and an interval
    assert any(x.startswith("sign test, Citation precision, page: sloppy higher") for x in table)
    assert any(x.startswith("sign test, Grounding F1, page: sloppy higher") for x in table)
    assert any(x.startswith("sign test, Citation precision, page") and x.endswith(": sloppy worse")
               for x in table)  # fmt: skip
    assert "Grounding: no citations (not compared, not zero): plain" in shown.stdout
    assert "grounding sign tests: Holm over the 2 grounding sign tests" in shown.stdout

    rules = tmp_path / "rules.toml"
    rules.write_text(RULES)
    breached = run_cli("gate", str(sloppy), "--rules", str(rules), "--baseline", str(careful))
    assert breached.returncode == 1, breached.stdout + breached.stderr
    assert "citation_precision_page: REGRESSED" in breached.stdout
    assert "grounding_f1_box: REGRESSED" in breached.stdout
    held = run_cli("gate", str(careful), "--rules", str(rules), "--baseline", str(sloppy))
    assert held.returncode == 0, held.stdout + held.stderr
    assert "citation_precision_page: ok" in held.stdout
    absent = run_cli("gate", str(plain), "--rules", str(rules), "--baseline", str(careful))
    assert absent.returncode == 1, absent.stdout + absent.stderr
    assert "citation_precision_page: no grounding rates for plain" in absent.stdout
    rules.write_text('[[rule]]\nno_regression = ["citation_precision_cell"]\n')
    bad = run_cli("gate", str(careful), "--rules", str(rules), "--baseline", str(sloppy))
    assert bad.returncode == 2
    (line,) = bad.stderr.strip().splitlines()
    assert (
        line.startswith("packetbench: error: ") and "unknown rate 'citation_precision_cell'" in line
    )


def test_compare_and_gate_commands_on_eight_documents(run_cli: Run, tmp_path: Path) -> None:
    """The fast tier's check of both commands, on runs of eight N1 PDFs made in process (two
    command calls): `compare` shows the cited pair's rates with an interval and names the
    uncited run as not compared; `gate` breaches a sloppier citer against a careful baseline
    (eight documents: enough for the sign test to tell)."""
    eight = Selection(formats=("pdf",), limit=8)
    careful = small_run(tmp_path / "careful", selection=eight)
    sloppy = small_run(tmp_path / "sloppy", "sloppy", selection=eight)
    plain = small_run(tmp_path / "plain", cite=None, selection=eight)
    shown = run_cli("compare", str(careful), str(sloppy), str(plain))
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    title = next(i for i, x in enumerate(lines) if x.startswith("Grounding: careful vs sloppy"))
    row = next(x for x in lines[title:] if "Citation precision, box" in x)
    assert row.count("%") >= 2 and "[" in row, row
    assert any(x.startswith("sign test, Citation precision, page") and x.endswith(": sloppy worse")
               for x in lines[title:])  # fmt: skip
    assert "Grounding: no citations (not compared, not zero): plain" in shown.stdout
    rules = tmp_path / "rules.toml"
    rules.write_text('[[rule]]\nno_regression = ["citation_precision_box"]\n')
    breached = run_cli("gate", str(sloppy), "--rules", str(rules), "--baseline", str(careful))
    assert breached.returncode == 1, breached.stdout + breached.stderr
    assert "citation_precision_box: REGRESSED" in breached.stdout
