"""Plug-in providers: a real installed distribution (a `.dist-info` with its entry points on
PYTHONPATH), found by `--provider NAME` and listed by `packetbench providers`."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.paths import PACKETS

Run = Callable[..., subprocess.CompletedProcess[str]]

PACKET = PACKETS / "N1-000001"  # the canonical suite's, read only
DOC_TYPES = "acord_125,sov,loss_run"  # six documents of an N1 packet

PLUGIN = r'''
import json, os
from pathlib import Path

from packetbench.benchmark.providers.own import Answer, SystemProvider

marker = os.environ.get("PLUGIN_IMPORTED")
if marker:
    Path(marker).write_text("imported")

NOT_A_CLASS = 42


class Truthful(SystemProvider):
    """Answers each document with its truth (the test judges the wiring, not the system)."""

    version = "myplug 0.1"

    def answer(self, document):
        if document.document_id == "acord_125":
            raise RuntimeError("cannot read page 1\nmore detail")
        truth = document.path.parent / f"document_truth_{document.document_id}.json"
        return Answer(json.loads(truth.read_text())["truth"], cost_usd=0.5)
'''

ENTRY_POINTS = """\
[packetbench.providers]
myplug = myplug:Truthful
broken = nosuch_module_66:Provider
notaclass = myplug:NOT_A_CLASS
sim = myplug:Truthful
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder holding the package `myplug` and its distribution's metadata."""
    root = tmp_path / "site"
    (root / "myplug").mkdir(parents=True)
    (root / "myplug" / "__init__.py").write_text(PLUGIN, encoding="utf-8")
    info = root / "myplug-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: myplug\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    return root


def _env(site: Path, **more: str) -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH", "")) if p)
    return {"PYTHONPATH": path, **more}


def test_the_listing_shows_plugins_and_names_the_broken_ones(run_cli: Run, site: Path) -> None:
    done = run_cli("providers", env=_env(site), timeout=60)
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines()}
    assert "plug-in: myplug 0.1 (myplug:Truthful)" in rows["myplug"]
    assert "your system" in rows["myplug"] and "built in" in rows["sim"]
    assert "broken" not in rows and "notaclass" not in rows
    errors = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr and len(errors) == 3, errors
    said = {line.split("'")[1]: line for line in errors}
    assert "cannot be loaded (ModuleNotFoundError" in said["broken"]
    assert "broken = nosuch_module_66:Provider, from myplug 0.1" in said["broken"]
    assert "is not a provider class" in said["notaclass"]
    assert "a built-in provider has that name" in said["sim"]


@pytest.mark.slow
def test_a_plugin_extracts_a_packet_and_a_broken_one_spoils_nothing_else(
    run_cli: Run, site: Path, tmp_path: Path
) -> None:
    out, marker = tmp_path / "run", tmp_path / "imported"
    done = run_cli(
        "extract", "--provider", "myplug", "--packets", str(PACKET), "--out", str(out),
        "--doc-types", DOC_TYPES, "--no-cache", env=_env(site), timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "6 of 6 documents written [1 error, 5 ok] by myplug (a plug-in provider)" in done.stdout
    assert "$2.5000 spent" in done.stdout
    record = json.loads((out / "extractions" / "N1-000001" / "acord_125.json").read_text())
    assert record["error"].endswith("RuntimeError: cannot read page 1")
    info = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert info["provider"] == "myplug" and info["model"] == "myplug 0.1"
    scored = run_cli("score", str(out), "--packets", str(PACKET), timeout=120)
    assert scored.returncode == 0, scored.stderr
    assert "5 documents scored" in scored.stdout
    # A broken plug-in asked for is one line; an unknown name lists the plug-ins too.
    for name, needle in (("broken", "nosuch_module_66"), ("nope", "known: anthropic")):
        bad = run_cli("extract", "--provider", name, "--packets", str(PACKET), "--out",
                      str(tmp_path / "bad"), env=_env(site), timeout=60)  # fmt: skip
        lines = bad.stderr.strip().splitlines()
        assert bad.returncode == 2 and len(lines) == 1 and needle in lines[0], bad.stderr
    assert "myplug" in lines[0]
    # Other commands never import a plug-in.
    made = run_cli("generate", "--tiers", "N1", "--count", "1", "--out", str(tmp_path / "pk"),
                   env=_env(site, PLUGIN_IMPORTED=str(marker)), timeout=120)  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert not marker.exists()
