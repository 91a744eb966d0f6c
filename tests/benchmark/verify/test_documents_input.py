"""Bad input to `extract --documents` and to a model judge: exit 2, one line naming the file
or the option and the problem, and nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.audit import Run
from tests.support.paths import PACKETS

PACKET = PACKETS / "N1-000001"


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    for name in ("sov_pdf.pdf", "acord_125.pdf", "loss_run_csv.csv"):
        shutil.copy(PACKET / name, folder / name)
    return folder


def _case(tmp_path: Path, mine: Path) -> dict[str, tuple[tuple[str, ...], str]]:
    out = ("--out", str(tmp_path / "run"))
    bare = ("extract", "--documents", str(mine), *out)
    own = (*bare, "--sim-truth", str(PACKET))  # the simulator is ready: the folder is not
    maps = tmp_path / "maps"
    maps.mkdir()
    (maps / "truncated.json").write_text('{"sov_pdf.pdf": "so')
    (maps / "unknown.json").write_text('{"sov_pdf.pdf": "bogus"}')
    (maps / "absent.json").write_text('{"nothere.pdf": "sov"}')
    (maps / "list.json").write_text('["sov"]')
    (tmp_path / "empty").mkdir()
    (tmp_path / "twins").mkdir()
    shutil.copy(PACKET / "sov_pdf.pdf", tmp_path / "twins" / "a.pdf")
    shutil.copy(PACKET / "loss_run_csv.csv", tmp_path / "twins" / "a.csv")
    return {
        "no folder": (
            ("extract", "--documents", str(tmp_path / "nowhere"), *out, "--sim-truth", str(PACKET)),
            "nowhere: not a folder",
        ),
        "no document": (
            ("extract", "--documents", str(tmp_path / "empty"), *out, "--sim-truth", str(PACKET)),
            "holds no document",
        ),
        "truncated map": (
            (*own, "--schema-map", str(maps / "truncated.json")),
            "truncated.json: unreadable",
        ),
        "unknown type": (
            (*own, "--schema-map", str(maps / "unknown.json")),
            "unknown document type 'bogus'",
        ),
        "a file not in the folder": (
            (*own, "--schema-map", str(maps / "absent.json")),
            "'nothere.pdf', which is no document",
        ),
        "not a map": ((*own, "--schema-map", str(maps / "list.json")), "not a schema map"),
        "unknown --schema": ((*own, "--schema", "sovv"), "--schema: unknown document"),
        "both --packets and --documents": ((*own, "--packets", str(PACKET)), "--packets"),
        "--schema without --documents": (
            ("extract", "--packets", str(PACKET), *out, "--schema", "sov"),
            "go with --documents",
        ),
        "the simulator without --sim-truth": (bare, "--sim-truth"),
        "--sim-truth for a model": (
            (*own, "--provider", "openai", "--model", "m"),
            "--sim-truth is for the simulator",
        ),
        "documents the --sim-truth packets lack": (
            (*bare, "--sim-truth", str(PACKETS / "N2-000001")),
            "not a copy of any document",
        ),
        "two documents, one id": (
            (
                "extract",
                "--documents",
                str(tmp_path / "twins"),
                *out,
                "--schema",
                "sov",
                "--sim-truth",
                str(PACKET),
            ),
            "'a' is also",
        ),
        "--dry-run": ((*own, "--dry-run"), "--dry-run is for --packets"),
        "--judge-truth for a model judge": (
            (
                "verify",
                str(tmp_path / "run"),
                "--judge",
                "openai",
                "--model",
                "m",
                "--judge-truth",
                str(PACKET),
            ),
            "--judge-truth is for the sim judge",
        ),
        "an unknown --input": (
            (
                "verify",
                str(tmp_path / "run"),
                "--judge",
                "anthropic",
                "--model",
                "m",
                "--input",
                "pdf",
            ),
            "unknown input 'pdf'",
        ),
    }


CASES = (
    "no folder",
    "no document",
    "truncated map",
    "unknown type",
    "a file not in the folder",
    "not a map",
    "unknown --schema",
    "both --packets and --documents",
    "--schema without --documents",
    "the simulator without --sim-truth",
    "--sim-truth for a model",
    "documents the --sim-truth packets lack",
    "two documents, one id",
    "--dry-run",
    "--judge-truth for a model judge",
    "an unknown --input",
)


@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_one_line_and_exit_2(
    case: str, mine: Path, run_cli: Run, tmp_path: Path
) -> None:
    args, needle = _case(tmp_path, mine)[case]
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    done = run_cli(*args, env={"OPENAI_API_KEY": "k-0000000000"})
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("packetbench: error: "), done.stderr
    assert needle in lines[0], lines[0]
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
