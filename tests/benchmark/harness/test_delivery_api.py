"""An API run's delivered resolution (docs/resolution.md) through `packetbench extract`
against a stub: sent as page images at --dpi, recorded in run.json, and held by --resume."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.harness.stub import StubServer
from tests.support.paths import PACKETS
from tests.support.stubs import extract_args

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = PACKETS / "N1-000001"


@pytest.mark.slow
def test_an_images_run_records_its_dpi_and_resume_keeps_it(
    stub: Callable[..., StubServer], run_cli: Run, tmp_path: Path
) -> None:
    # The stub knows the pages rendered at 96 dpi only: it answers only if they were sent so.
    server = stub("openai", PACKET, modes=("images",), image_dpi=96)
    run = tmp_path / "run"
    args = extract_args(
        server, PACKET, run, "--input", "images", "--formats", "pdf", "--limit", "2", "--no-cache"
    )
    env = {"OPENAI_API_KEY": "k" * 20}
    result = run_cli(*args, "--dpi", "96", env=env)
    assert result.returncode == 0, result.stderr
    info = json.loads((run / "run.json").read_text(encoding="utf-8"))
    assert info["delivery"] == {
        "input": "images",
        "dpi": 96,
        "source": "images",
        "text_layer": False,
    }
    # Continuing it at another resolution would stitch two runs together.
    refused = run_cli(*args, "--dpi", "150", "--resume", env=env)
    assert refused.returncode == 2, refused.stderr
    assert "cannot continue a run made with different settings (delivery" in refused.stderr
    assert run_cli(*args, "--dpi", "96", "--resume", env=env).returncode == 0
    # A native run records the resolution the provider is documented to rasterise at.
    native = tmp_path / "native"
    args[args.index(str(run))] = str(native)
    args[args.index("images")] = "native"
    args[args.index(server.base_url)] = stub("openai", PACKET).base_url
    assert run_cli(*args, env=env).returncode == 0
    delivery = json.loads((native / "run.json").read_text(encoding="utf-8"))["delivery"]
    assert (delivery["dpi"], delivery["source"], delivery["text_layer"]) == (90, "assumed", True)


def test_a_dpi_off_the_ladder_is_refused_before_any_request(run_cli: Run, tmp_path: Path) -> None:
    """No API is reached (none runs here): a resolution legibility is not recorded at is one
    line, exit 2, and no run folder."""
    run = tmp_path / "run"
    refused = run_cli(
        "extract", "--provider", "openai", "--model", "stub-model", "--base-url",
        "http://127.0.0.1:9", "--packets", str(PACKET), "--out", str(run), "--input", "images",
        "--dpi", "120",
    )  # fmt: skip
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.splitlines() == [
        "packetbench: error: --dpi must be one of 72, 90, 96, 110, 150, 200, 300 dpi (the rungs "
        "legibility is recorded at; got 120)"
    ]
    assert not run.exists()
