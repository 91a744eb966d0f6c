"""Provider SDKs load only when a request is sent: `generate`, sim runs and dry runs load
none of them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support.paths import PACKETS

PROBE = textwrap.dedent("""
    import sys
    from packetbench.cli import app
    try:
        app(sys.argv[1:], standalone_mode=False)
    except SystemExit:
        pass
    import packetbench.benchmark.providers.anthropic
    import packetbench.benchmark.providers.gemini
    import packetbench.benchmark.providers.openai
    loaded = sorted(m for m in ("openai", "anthropic", "google.genai", "httpx2")
                    if m in sys.modules)
    print("LOADED", ",".join(loaded))
""")


def _loaded(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "x" * 20},
    )
    line = [x for x in result.stdout.splitlines() if x.startswith("LOADED")][-1]
    return line.removeprefix("LOADED").strip()


@pytest.mark.slow
def test_generate_loads_no_provider_sdk(tmp_path: Path) -> None:
    assert _loaded("generate", "--tiers", "N1", "--seed", "3", "--out", str(tmp_path)) == ""
    assert (tmp_path / "N1-000003" / "packet_truth.json").is_file()


@pytest.mark.slow
def test_sim_and_dry_runs_load_no_provider_sdk(tmp_path: Path) -> None:
    packet = str(PACKETS / "N1-000001")
    assert _loaded("extract", "--packets", packet, "--out", str(tmp_path / "sim")) == ""
    assert (tmp_path / "sim" / "run.json").is_file()
    assert (
        _loaded(
            "extract",
            "--provider",
            "openai",
            "--model",
            "gpt-5",
            "--packets",
            packet,
            "--out",
            str(tmp_path / "dry"),
            "--dry-run",
        )
        == ""
    )


def test_a_one_document_sim_run_loads_no_provider_sdk(tmp_path: Path) -> None:
    """The fast tier's check: a sim extraction of one document (the whole command in a
    fresh interpreter, every provider module imported after it) loads no SDK."""
    packet = str(PACKETS / "N1-000001")
    out = tmp_path / "sim"
    loaded = _loaded("extract", "--packets", packet, "--out", str(out), "--doc-types", "acord_125")
    assert loaded == ""
    assert [p.name for p in (out / "extractions").rglob("*.json")] == ["acord_125.json"]
