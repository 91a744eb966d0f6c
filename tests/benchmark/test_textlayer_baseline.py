"""examples/textlayer_baseline.py, the offline baseline: through `extract --provider command`
and through `import predictions`, the same answers score the same."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.paths import ROOT

Run = Callable[..., subprocess.CompletedProcess[str]]
BASELINE = ROOT / "examples" / "textlayer_baseline.py"
CHOSEN = ("--doc-types", "acord_125,sov,loss_run", "--formats", "pdf")


@pytest.mark.slow
def test_both_doors_score_the_baseline_identically(run_cli: Run, tmp_path: Path) -> None:
    packets = tmp_path / "packets"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "packetbench",
            "generate",
            "--tiers",
            "N1,N2",
            "--out",
            str(packets),
        ],
        check=True,
        capture_output=True,
    )
    command = f"{sys.executable} {BASELINE} {{file}} {{schema}}"
    ran = run_cli("extract", "--provider", "command", "--command", command, "--packets",
                  str(packets), "--out", str(tmp_path / "cmd"), "--no-cache", *CHOSEN)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert "6 of 6 documents written [6 ok]" in ran.stdout
    made = subprocess.run(
        [sys.executable, str(BASELINE), "--predictions", str(packets), str(tmp_path / "pred")],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    assert made.stdout.startswith("6 answers written")
    imported = run_cli("import", "predictions", str(tmp_path / "pred"), "--packets",
                       str(packets), "--out", str(tmp_path / "imp"), *CHOSEN)  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    assert "0 missing, 0 extra, 0 invalid" in imported.stdout
    for run in ("cmd", "imp"):
        scored = run_cli("score", str(tmp_path / run), "--packets", str(packets))
        assert scored.returncode == 0, scored.stderr
    scores = sorted(p.name for p in (tmp_path / "cmd" / "scores").iterdir())
    assert "claims.parquet" in scores
    for name in scores:
        a = (tmp_path / "cmd" / "scores" / name).read_bytes()
        assert a == (tmp_path / "imp" / "scores" / name).read_bytes(), name
