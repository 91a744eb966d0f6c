"""Every command against every kind of bad input: exit 2, exactly one line on stderr naming
the file (or the option) and the problem, no traceback, and not one byte of what was on disk
changed, created or removed.

The kinds: a missing path, an empty folder, truncated JSON, a truncated PDF / workbook /
database, a file of the wrong type, a file where a folder belongs and a folder where a file
belongs, bad option values, and outputs that already exist. A kind a command has no input for
is absent from its cases (`generate` reads no JSON: `--resume` rewrites a truncated packet,
by design; `audit` and `sql` write nothing, so nothing of theirs can already exist).

Each case works in its own copy of one small world, made once: an N1 packet, two scored sim
runs of it (one with an output-token cap in run.json, for `audit-tokens`), a rules file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from packetbench.benchmark.config import HarnessOptions, repeat_seed
from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.repeats import extract_repeats
from packetbench.benchmark.report.spread import write_spread
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from tests.support.corpus_fixture import write_corpus
from tests.support.disks import can_drop_privileges, unprivileged
from tests.support.files import tree_digests as _tree
from tests.support.paths import PACKETS, cli_path

PACKET = "packets/N1-000001"
BIG = str(2**70)
KINDS = (
    "missing path",
    "empty folder",
    "truncated JSON",
    "truncated file",
    "wrong file type",
    "file for folder",
    "folder for file",
    "bad option",
    "existing output",
    "hostile id",
    "not a regular file",
    "stale results",
    "held by another writer",
    "inside a release",
    "read-only output",
)


# --- damage ----------------------------------------------------------------------------------


def _truncate(relative: str) -> Callable[[Path], None]:
    def damage(world: Path) -> None:
        path = world / relative
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])

    return damage


def _replace(relative: str, source: str) -> Callable[[Path], None]:
    def damage(world: Path) -> None:
        (world / relative).write_bytes((world / source).read_bytes())

    return damage


def _to_folder(relative: str) -> Callable[[Path], None]:
    def damage(world: Path) -> None:
        (world / relative).unlink()
        (world / relative).mkdir()
        (world / relative / "inside.txt").write_text("a folder where a file belongs")

    return damage


def _to_file(relative: str) -> Callable[[Path], None]:
    def damage(world: Path) -> None:
        shutil.rmtree(world / relative)
        (world / relative).write_text("a file where a folder belongs")

    return damage


def _write(relative: str, text: str) -> Callable[[Path], None]:
    def damage(world: Path) -> None:
        (world / relative).parent.mkdir(parents=True, exist_ok=True)
        (world / relative).write_text(text)

    return damage


def _remove(relative: str) -> Callable[[Path], None]:
    def damage(world: Path) -> None:
        shutil.rmtree(world / relative)

    return damage


def _none(world: Path) -> None:
    pass


def _fifo(relative: str) -> Callable[[Path], None]:
    """A FIFO in place of a file: a reader that opens it waits for a writer forever."""

    def damage(world: Path) -> None:
        (world / relative).unlink()
        os.mkfifo(world / relative)

    return damage


def _endless(relative: str) -> Callable[[Path], None]:
    """A symlink to /dev/zero in place of a file: it never ends."""

    def damage(world: Path) -> None:
        (world / relative).unlink()
        (world / relative).symlink_to("/dev/zero")

    return damage


def _link(relative: str, target: str) -> Callable[[Path], None]:
    """A symlink to `target` in place of the file or folder `relative`."""

    def damage(world: Path) -> None:
        path = world / relative
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
        path.symlink_to(target)

    return damage


def _then(*damages: Callable[[Path], object]) -> Callable[[Path], None]:
    """Each of `damages`, in order."""

    def damage(world: Path) -> None:
        for each in damages:
            each(world)

    damage.parts = damages  # type: ignore[attr-defined]
    return damage


def _set_id(relative: str, where: tuple[str | int, ...], value: str) -> Callable[[Path], None]:
    """Put `value` (a path, not an id) at `where` in the JSON file `relative`."""

    def damage(world: Path) -> None:
        path = world / relative
        data = json.loads(path.read_text())
        inner = data
        for key in where[:-1]:
            inner = inner[key]
        inner[where[-1]] = value
        path.write_text(json.dumps(data))

    return damage


# --- cases -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    command: str
    kind: str
    label: str
    args: tuple[str, ...]  # "{w}" stands for the case's world folder
    names: str  # the message must contain this ("{w}" as in args)
    damage: Callable[[Path], object] = _none
    needs: tuple[str, ...] = ("packets",)  # what of the world the case copies
    env: dict[str, str] = field(default_factory=dict)
    fast: bool = False  # in the fast tier's sample whatever else is (a cheap case to keep)
    # run bound by permission bits (root's capabilities to ignore them dropped): a read-only
    # folder is read-only to it
    unprivileged: bool = False

    @property
    def id(self) -> str:
        return f"{self.command}: {self.kind}: {self.label}"


def _cases() -> list[Case]:
    flags: tuple[str, ...]  # the loops below bind tuples of every length
    cases: list[Case] = []

    def add(
        command: str,
        kind: str,
        label: str,
        args: tuple[str, ...],
        names: str,
        damage: Callable[[Path], object] = _none,
        needs: tuple[str, ...] = ("packets",),
        env: dict[str, str] | None = None,
        fast: bool = False,
        unprivileged: bool = False,
    ) -> None:
        assert kind in KINDS, kind
        cases.append(
            Case(command, kind, label, args, names, damage, needs, env or {}, fast, unprivileged)
        )

    # generate ---------------------------------------------------------------------------
    gen = ("generate", "--tiers", "N1")
    add(
        "generate",
        "file for folder",
        "--out is a file",
        (*gen, "--out", "{w}/notes.txt"),
        "{w}/notes.txt",
        _write("notes.txt", "mine"),
        (),
    )
    add(
        "generate",
        "file for folder",
        "a file where the packet belongs",
        (*gen, "--out", "{w}/packets", "--force"),
        f"{{w}}/{PACKET}",
        _to_file(PACKET),
    )
    add(
        "generate",
        "existing output",
        "the packet exists",
        (*gen, "--out", "{w}/packets"),
        f"{{w}}/{PACKET}",
    )
    add(
        "generate",
        "existing output",
        "made with other knobs, --resume",
        (*gen, "--out", "{w}/packets", "--resume", "--set", "sov.max_rows=2"),
        f"{{w}}/{PACKET}",
    )
    for label, flags, needle in (
        ("unknown tier", ("--tiers", "N9"), "N9"),
        ("count not a number", ("--tiers", "N1", "--count", "abc"), "--count"),
        ("count zero", ("--tiers", "N1", "--count", "0"), "--count"),
        ("negative seed", ("--tiers", "N1", "--seed", "-1"), "--seed"),
        ("seed beyond 64 bits", ("--tiers", "N1", "--seed", BIG), "--seed"),
        ("jobs zero", ("--tiers", "N1", "--jobs", "0"), "--jobs"),
        ("unknown knob", ("--tiers", "N1", "--set", "sov.rows=3"), "sov.rows"),
        ("knob not a number", ("--tiers", "N1", "--set", "sov.max_rows=many"), "sov.max_rows"),
        ("--resume with --force", ("--tiers", "N1", "--resume", "--force"), "--resume"),
        ("no --tier", (), "--tiers"),
        ("unknown option", ("--tiers", "N1", "--colour"), "--colour"),
    ):
        add("generate", "bad option", label, ("generate", *flags, "--out", "{w}/packets"), needle)

    # audit --------------------------------------------------------------------------------
    add(
        "audit",
        "missing path",
        "no such folder",
        ("audit", "--packets", "{w}/nowhere"),
        "{w}/nowhere",
    )
    add(
        "audit",
        "empty folder",
        "no packet in it",
        ("audit", "--packets", "{w}/empty"),
        "{w}/empty",
        _write("empty/.keep", ""),
    )
    for kind in (
        "packet_truth",
        "manifest_sov_pdf",
        "field_truth_sov_pdf",
        "document_truth_sov_excel",
        "rendered_universe_loss_run_csv",
    ):
        add(
            "audit",
            "truncated JSON",
            kind,
            ("audit", "--packets", f"{{w}}/{PACKET}"),
            f"{{w}}/{PACKET}/{kind}.json",
            _truncate(f"{PACKET}/{kind}.json"),
        )
    add(
        "audit",
        "truncated file",
        "PDF",
        ("audit", "--packets", f"{{w}}/{PACKET}"),
        f"{{w}}/{PACKET}/sov_pdf.pdf",
        _truncate(f"{PACKET}/sov_pdf.pdf"),
    )
    add(
        "audit",
        "truncated file",
        "workbook",
        ("audit", "--packets", f"{{w}}/{PACKET}"),
        f"{{w}}/{PACKET}/sov_excel.xlsx",
        _truncate(f"{PACKET}/sov_excel.xlsx"),
    )
    add(
        "audit",
        "wrong file type",
        "a workbook named .pdf",
        ("audit", "--packets", f"{{w}}/{PACKET}"),
        f"{{w}}/{PACKET}/sov_pdf.pdf",
        _replace(f"{PACKET}/sov_pdf.pdf", f"{PACKET}/sov_excel.xlsx"),
    )
    add(
        "audit",
        "wrong file type",
        "a PDF named .xlsx",
        ("audit", "--packets", f"{{w}}/{PACKET}"),
        f"{{w}}/{PACKET}/loss_run_excel.xlsx",
        _replace(f"{PACKET}/loss_run_excel.xlsx", f"{PACKET}/loss_run_pdf.pdf"),
    )
    add(
        "audit",
        "wrong file type",
        "a PDF named .csv",
        ("audit", "--packets", f"{{w}}/{PACKET}"),
        f"{{w}}/{PACKET}/loss_run_csv.csv",
        _replace(f"{PACKET}/loss_run_csv.csv", f"{PACKET}/loss_run_pdf.pdf"),
    )
    add(
        "audit",
        "wrong file type",
        "a PDF named .json",
        ("audit", "--packets", f"{{w}}/{PACKET}"),
        f"{{w}}/{PACKET}/field_truth_acord_125.json",
        _replace(f"{PACKET}/field_truth_acord_125.json", f"{PACKET}/acord_125.pdf"),
    )
    add(
        "audit",
        "file for folder",
        "a file as the packet",
        ("audit", "--packets", "{w}/notes.txt"),
        "{w}/notes.txt",
        _write("notes.txt", "mine"),
        (),
    )
    add(
        "audit",
        "folder for file",
        "the PDF is a folder",
        ("audit", "--packets", f"{{w}}/{PACKET}"),
        f"{{w}}/{PACKET}/sov_pdf.pdf",
        _to_folder(f"{PACKET}/sov_pdf.pdf"),
    )
    add(
        "audit",
        "folder for file",
        "a manifest is a folder",
        ("audit", "--packets", f"{{w}}/{PACKET}"),
        f"{{w}}/{PACKET}/manifest_acord_140.json",
        _to_folder(f"{PACKET}/manifest_acord_140.json"),
    )
    add(
        "audit",
        "bad option",
        "unknown option",
        ("audit", "--packets", f"{{w}}/{PACKET}", "--fast"),
        "--fast",
    )

    # stub ---------------------------------------------------------------------------------
    serve = ("stub", "--packets")
    add(
        "stub",
        "missing path",
        "no such folder",
        (*serve, "{w}/nowhere", "--", "true"),
        "{w}/nowhere",
    )
    add(
        "stub",
        "empty folder",
        "no packet in it",
        (*serve, "{w}/empty", "--", "true"),
        "{w}/empty",
        _write("empty/.keep", ""),
    )
    add(
        "stub",
        "truncated JSON",
        "packet_truth",
        (*serve, "{w}/packets", "--", "true"),
        f"{{w}}/{PACKET}/packet_truth.json",
        _truncate(f"{PACKET}/packet_truth.json"),
    )
    add(
        "stub",
        "bad option",
        "a fault rate above 1",
        (*serve, "{w}/packets", "--fault-rate", "2", "--", "true"),
        "--fault-rate",
    )

    # difficulty ---------------------------------------------------------------------------
    card = ("difficulty", "--ocr-sample", "0", "--packets")
    add("difficulty", "missing path", "no such folder", (*card, "{w}/nowhere"), "{w}/nowhere")
    add(
        "difficulty",
        "empty folder",
        "no packet in it",
        (*card, "{w}/empty"),
        "{w}/empty",
        _write("empty/.keep", ""),
    )
    add(
        "difficulty",
        "truncated JSON",
        "packet_truth",
        (*card, "{w}/packets"),
        f"{{w}}/{PACKET}/packet_truth.json",
        _truncate(f"{PACKET}/packet_truth.json"),
    )
    add(
        "difficulty",
        "wrong file type",
        "a workbook named .pdf",
        (*card, "{w}/packets"),
        f"{{w}}/{PACKET}/sov_pdf.pdf",
        _replace(f"{PACKET}/sov_pdf.pdf", f"{PACKET}/sov_excel.xlsx"),
    )
    add(
        "difficulty",
        "truncated file",
        "a PDF cut short (its sha256 no longer the manifest's)",
        (*card, "{w}/packets"),
        f"{{w}}/{PACKET}/sov_pdf.pdf",
        _truncate(f"{PACKET}/sov_pdf.pdf"),
    )
    add(
        "difficulty",
        "bad option",
        "--ocr-sample -1",
        ("difficulty", "--packets", "{w}/packets", "--ocr-sample", "-1"),
        "--ocr-sample must be 0 or more",
    )

    # extract ------------------------------------------------------------------------------
    ext = ("extract", "--packets", "{w}/packets", "--out", "{w}/new-run")
    add(
        "extract",
        "missing path",
        "no packets folder",
        ("extract", "--packets", "{w}/nowhere", "--out", "{w}/new-run"),
        "{w}/nowhere",
    )
    add(
        "extract",
        "empty folder",
        "no packet in it",
        ("extract", "--packets", "{w}/empty", "--out", "{w}/new-run"),
        "{w}/empty",
        _write("empty/.keep", ""),
    )
    for kind in (
        "packet_truth",
        "manifest_sov_pdf",
        "document_truth_acord_140",
        "field_truth_loss_run_pdf",
        "rendered_universe_sov_excel",
    ):
        add(
            "extract",
            "truncated JSON",
            kind,
            ext,
            f"{{w}}/{PACKET}/{kind}.json",
            _truncate(f"{PACKET}/{kind}.json"),
        )
    add(
        "extract",
        "truncated file",
        "PDF",
        ext,
        f"{{w}}/{PACKET}/acord_125.pdf",
        _truncate(f"{PACKET}/acord_125.pdf"),
    )
    add(
        "extract",
        "truncated file",
        "workbook",
        ext,
        f"{{w}}/{PACKET}/sov_excel.xlsx",
        _truncate(f"{PACKET}/sov_excel.xlsx"),
    )
    add(
        "extract",
        "wrong file type",
        "a workbook named .pdf",
        ext,
        f"{{w}}/{PACKET}/sov_pdf.pdf",
        _replace(f"{PACKET}/sov_pdf.pdf", f"{PACKET}/sov_excel.xlsx"),
    )
    add(
        "extract",
        "wrong file type",
        "a PDF named packet_truth.json",
        ext,
        f"{{w}}/{PACKET}/packet_truth.json",
        _replace(f"{PACKET}/packet_truth.json", f"{PACKET}/acord_125.pdf"),
    )
    add(
        "extract",
        "file for folder",
        "--packets is a file",
        ("extract", "--packets", "{w}/notes.txt", "--out", "{w}/new-run"),
        "{w}/notes.txt",
        _write("notes.txt", "mine"),
        (),
    )
    add(
        "extract",
        "file for folder",
        "--out is a file",
        ("extract", "--packets", "{w}/packets", "--out", "{w}/notes.txt"),
        "{w}/notes.txt",
        _write("notes.txt", "mine"),
    )
    add(
        "extract",
        "file for folder",
        "extractions is a file",
        ("extract", "--packets", "{w}/packets", "--out", "{w}/new-run"),
        "{w}/new-run",
        _write("new-run/extractions", "mine"),
    )
    add(
        "extract",
        "folder for file",
        "the PDF is a folder",
        ext,
        f"{{w}}/{PACKET}/sov_pdf.pdf",
        _to_folder(f"{PACKET}/sov_pdf.pdf"),
    )
    add(
        "extract",
        "folder for file",
        "a truth file is a folder",
        ext,
        f"{{w}}/{PACKET}/field_truth_sov_pdf.json",
        _to_folder(f"{PACKET}/field_truth_sov_pdf.json"),
    )
    api = ("--provider", "openai", "--model", "gpt-5-mini")
    for label, flags, needle in (
        ("unknown provider", ("--provider", "gpt-9"), "gpt-9"),
        ("unknown profile", ("--profile", "careless"), "careless"),
        ("negative sim seed", ("--sim-seed", "-1"), "seed"),
        ("sim seed beyond 64 bits", ("--sim-seed", BIG), "seed"),
        ("negative sim seed, dry run", ("--sim-seed", "-1", "--dry-run"), "seed"),
        ("seed not a number", ("--sim-seed", "x"), "--sim-seed"),
        ("concurrency zero, dry run", (*api, "--concurrency", "0", "--dry-run"), "--concurrency"),
        ("negative max cost, dry run", (*api, "--max-cost", "-1", "--dry-run"), "--max-cost"),
        ("concurrency not a number", (*api, "--concurrency", "many"), "--concurrency"),
        ("unknown reasoning", (*api, "--reasoning", "extreme"), "extreme"),
        ("unknown input", (*api, "--input", "ocr"), "ocr"),
        ("zero timeout", (*api, "--timeout", "0"), "--timeout"),
        ("negative retries", (*api, "--retries", "-1"), "--retries"),
        ("no API key", api, "OPENAI_API_KEY"),
        ("--retry-failed for sim", ("--retry-failed",), "--retry-failed"),
        ("--batch for sim", ("--batch",), "--batch"),
        ("zero poll interval", (*api, "--batch", "--poll-interval", "0"), "--poll-interval"),
        ("zero batch size", (*api, "--batch", "--batch-size", "0"), "--batch-size"),
        ("--resume without a run", ("--resume",), "{w}/new-run"),
        ("no --out", ("--packets", "{w}/packets"), "--out"),
        ("repeats zero", ("--repeats", "0"), "--repeats must be at least 1"),
        ("repeats negative, dry run", ("--repeats", "-1", "--dry-run"), "--repeats"),
        ("repeats not a number", ("--repeats", "two"), "--repeats"),
        (
            "--retry-failed for sim, repeated",
            ("--retry-failed", "--repeats", "2"),
            "--retry-failed",
        ),
    ):
        args = ("extract", *flags) if label == "no --out" else (*ext, *flags)
        add("extract", "bad option", label, args, needle, env={"OPENAI_API_KEY": ""})
    add(
        "extract",
        "existing output",
        "a run is there",
        ("extract", "--packets", "{w}/packets", "--out", "{w}/run"),
        "{w}/run",
        needs=("packets", "run"),
    )
    add(
        "extract",
        "existing output",
        "--out is a packets folder",
        ("extract", "--packets", "{w}/packets", "--out", "{w}/packets", "--force"),
        "{w}/packets",
    )
    # a run keeps its number of repeats (--repeats): continued with another, it is refused
    for label, out, given in (
        ("--resume a run with --repeats 2", "run", "2"),
        ("--resume a repeated run without --repeats", "reps", "1"),
        ("--resume a repeated run with other --repeats", "reps", "3"),
    ):
        add(
            "extract",
            "existing output",
            label,
            (*ext[:-1], f"{{w}}/{out}", "--resume", "--repeats", given),
            f"{{w}}/{out}: cannot continue a run of ",
            needs=("packets", out),
        )
    add(
        "extract",
        "bad option",
        "--repeats with --documents",
        (
            "extract",
            "--documents",
            f"{{w}}/{PACKET}",
            "--schema",
            "sov",
            "--out",
            "{w}/new-run",
            "--repeats",
            "2",
        ),
        "--repeats goes with --packets",
    )
    add(
        "extract",
        "existing output",
        "a repeated run is there",
        (*ext[:-1], "{w}/reps", "--repeats", "2"),
        "{w}/reps: a run already exists here",
        needs=("packets", "reps"),
    )

    # score --------------------------------------------------------------------------------
    scored = ("packets", "run")
    sc = ("score", "{w}/run", "--packets", "{w}/packets")
    reps = ("score", "{w}/reps", "--packets", "{w}/packets")
    add(
        "score",
        "missing path",
        "a repeat of a repeated run is missing",
        reps,
        "{w}/reps/repeats/r2/run.json: missing",
        _remove("reps/repeats/r2"),
        ("packets", "reps"),
    )
    add(
        "score",
        "truncated JSON",
        "a repeat's run.json",
        reps,
        "{w}/reps/repeats/r2/run.json",
        _truncate("reps/repeats/r2/run.json"),
        ("packets", "reps"),
    )
    add(
        "score",
        "wrong file type",
        "a repeated run's count is no count",
        reps,
        "{w}/reps/run.json: not a run's record (repeats.count",
        _set_id("reps/run.json", ("repeats", "count"), "two"),
        ("packets", "reps"),
    )
    add(
        "score",
        "missing path",
        "no run",
        ("score", "{w}/nowhere", "--packets", "{w}/packets"),
        "{w}/nowhere/run.json",
    )
    add(
        "score",
        "missing path",
        "no packets",
        ("score", "{w}/run", "--packets", "{w}/nowhere"),
        "{w}/nowhere",
        needs=scored,
    )
    add(
        "score",
        "empty folder",
        "the run",
        ("score", "{w}/empty", "--packets", "{w}/packets"),
        "{w}/empty/run.json",
        _write("empty/.keep", ""),
    )
    add(
        "score",
        "empty folder",
        "the packets",
        ("score", "{w}/run", "--packets", "{w}/empty"),
        "{w}/empty",
        _write("empty/.keep", ""),
        scored,
    )
    for relative in (
        "run/run.json",
        "run/extractions/N1-000001/acord_140.json",
        f"{PACKET}/packet_truth.json",
        f"{PACKET}/document_truth_sov_pdf.json",
        f"{PACKET}/field_truth_acord_125.json",
    ):
        add(
            "score",
            "truncated JSON",
            relative,
            sc,
            f"{{w}}/{relative}",
            _truncate(relative),
            scored,
        )
    add(
        "score",
        "truncated file",
        "PDF",
        sc,
        f"{{w}}/{PACKET}/loss_run_pdf.pdf",
        _truncate(f"{PACKET}/loss_run_pdf.pdf"),
        scored,
    )
    add(
        "score",
        "truncated file",
        "workbook",
        sc,
        f"{{w}}/{PACKET}/loss_run_excel.xlsx",
        _truncate(f"{PACKET}/loss_run_excel.xlsx"),
        scored,
    )
    add(
        "score",
        "wrong file type",
        "a PDF as run.json",
        sc,
        "{w}/run/run.json",
        _replace("run/run.json", f"{PACKET}/acord_125.pdf"),
        scored,
    )
    add(
        "score",
        "wrong file type",
        "a manifest as a record",
        sc,
        "{w}/run/extractions/N1-000001/sov_pdf.json",
        _replace("run/extractions/N1-000001/sov_pdf.json", f"{PACKET}/manifest_sov_pdf.json"),
        scored,
    )
    add(
        "score",
        "wrong file type",
        "a record of another document",
        sc,
        "{w}/run/extractions/N1-000001/sov_pdf.json",
        _replace(
            "run/extractions/N1-000001/sov_pdf.json", "run/extractions/N1-000001/acord_125.json"
        ),
        scored,
    )
    add(
        "score",
        "file for folder",
        "the run is a file",
        ("score", "{w}/notes.txt", "--packets", "{w}/packets"),
        "{w}/notes.txt",
        _write("notes.txt", "mine"),
    )
    add(
        "score",
        "file for folder",
        "scores is a file",
        sc,
        "{w}/run/scores",
        _to_file("run/scores"),
        scored,
    )
    add(
        "score",
        "file for folder",
        "extractions is a file",
        sc,
        "{w}/run/extractions",
        _to_file("run/extractions"),
        scored,
    )
    add(
        "score",
        "file for folder",
        "--packets is a file",
        ("score", "{w}/run", "--packets", "{w}/notes.txt"),
        "{w}/notes.txt",
        _write("notes.txt", "mine"),
        scored,
    )
    add(
        "score",
        "folder for file",
        "run.json is a folder",
        sc,
        "{w}/run/run.json",
        _to_folder("run/run.json"),
        scored,
    )
    add(
        "score",
        "folder for file",
        "a record is a folder",
        sc,
        "{w}/run/extractions/N1-000001/loss_run_csv.json",
        _to_folder("run/extractions/N1-000001/loss_run_csv.json"),
        scored,
    )
    add(
        "score",
        "folder for file",
        "results.duckdb is a folder",
        sc,
        "{w}/run/results.duckdb",
        _to_folder("run/results.duckdb"),
        scored,
    )
    add(
        "score",
        "folder for file",
        "claims.parquet is a folder",
        sc,
        "{w}/run/scores/claims.parquet",
        _to_folder("run/scores/claims.parquet"),
        scored,
    )
    add("score", "bad option", "no --packets", ("score", "{w}/run"), "--packets", needs=scored)
    add("score", "bad option", "unknown option", (*sc, "--fast"), "--fast", needs=scored)
    add(
        "score",
        "wrong file type",
        "packets made with other knobs (the same ids)",
        sc,
        f"{{w}}/{PACKET}/acord_125.pdf",  # its loss history lists the claims
        lambda w: subprocess.run(
            [
                cli_path(),
                "generate",
                "--tiers",
                "N1",
                "--out",
                str(w / "packets"),
                "--force",
                "--set",
                "loss_run.max_claims=2",
            ],
            check=True,
            capture_output=True,
        ),
        scored,
    )

    # audit-tokens -------------------------------------------------------------------------
    capped = ("capped",)
    tok = ("audit-tokens", "{w}/capped")
    add(
        "audit-tokens",
        "missing path",
        "no run",
        ("audit-tokens", "{w}/nowhere"),
        "{w}/nowhere/run.json",
        needs=(),
    )
    add(
        "audit-tokens",
        "empty folder",
        "the run",
        ("audit-tokens", "{w}/empty"),
        "{w}/empty/run.json",
        _write("empty/.keep", ""),
        (),
    )
    add(
        "audit-tokens",
        "truncated JSON",
        "run.json",
        tok,
        "{w}/capped/run.json",
        _truncate("capped/run.json"),
        capped,
    )
    add(
        "audit-tokens",
        "truncated JSON",
        "a record",
        tok,
        "{w}/capped/extractions/N1-000001/sov_pdf.json",
        _truncate("capped/extractions/N1-000001/sov_pdf.json"),
        capped,
    )
    add(
        "audit-tokens",
        "wrong file type",
        "a PDF as a record",
        tok,
        "{w}/capped/extractions/N1-000001/sov_pdf.json",
        _replace("capped/extractions/N1-000001/sov_pdf.json", "capped/report.pdf"),
        capped,
    )
    add(
        "audit-tokens",
        "wrong file type",
        "a sim run (no cap)",
        ("audit-tokens", "{w}/run"),
        "{w}/run/run.json",
        needs=("run",),
    )
    add(
        "audit-tokens",
        "file for folder",
        "the run is a file",
        ("audit-tokens", "{w}/notes.txt"),
        "{w}/notes.txt/run.json",
        _write("notes.txt", "mine"),
        (),
    )
    add(
        "audit-tokens",
        "folder for file",
        "run.json is a folder",
        tok,
        "{w}/capped/run.json",
        _to_folder("capped/run.json"),
        capped,
    )
    add(
        "audit-tokens",
        "folder for file",
        "a record is a folder",
        tok,
        "{w}/capped/extractions/N1-000001/acord_125.json",
        _to_folder("capped/extractions/N1-000001/acord_125.json"),
        capped,
    )
    add("audit-tokens", "bad option", "unknown option", (*tok, "--all"), "--all", needs=capped)

    # view: checks a run as `score` does; --out so that a case that got through would end -----
    def viewing(run: str, *more: str) -> tuple[str, ...]:
        return ("view", run, "--packets", "{w}/packets", "--out", "{w}/site", *more)

    seen = ("packets", "run")
    add(
        "view",
        "stale results",
        "a record changed since the run was scored",
        viewing("{w}/run"),
        "{w}/run/results.duckdb: the run's extraction records changed since it was scored",
        _edit_record("run"),
        seen,
    )
    # a second writer of a folder another process holds (packetbench.core.locking) -------------
    held = "is being written by pid "
    add(
        "view",
        "held by another writer",
        "--out being written by another view --out",
        viewing("{w}/run"),
        f"{{w}}/site: {held}",
        _held(".", ".site.packetbench.lock"),
        seen,
        fast=True,
    )
    add(
        "generate",
        "held by another writer",
        "the packets folder",
        ("generate", "--tiers", "N1", "--out", "{w}/packets", "--force"),
        f"{{w}}/packets: {held}",
        _held("packets"),
    )
    add(
        "extract",
        "held by another writer",
        "the run folder",
        ("extract", "--packets", "{w}/packets", "--out", "{w}/run", "--force"),
        f"{{w}}/run: {held}",
        _held("run"),
        ("packets", "run"),
    )
    add(
        "score",
        "held by another writer",
        "the run folder",
        ("score", "{w}/run", "--packets", "{w}/packets"),
        f"{{w}}/run: {held}",
        _held("run"),
        ("packets", "run"),
    )
    add(
        "run",
        "held by another writer",
        "the run's folder",
        ("run", "--tiers", "N1", "--out", "{w}/bench"),
        f"{{w}}/bench: {held}",
        _held("bench"),
        (),
    )
    add("view", "missing path", "no run", viewing("{w}/nowhere"), "{w}/nowhere", needs=seen)
    add(
        "view",
        "empty folder",
        "not a run",
        viewing("{w}/empty"),
        "{w}/empty/run.json",
        _write("empty/.keep", ""),
        seen,
    )
    add(
        "view",
        "truncated JSON",
        "run.json",
        viewing("{w}/run"),
        "{w}/run/run.json",
        _truncate("run/run.json"),
        seen,
    )
    add(
        "view",
        "truncated file",
        "a document of the packets",
        viewing("{w}/run"),
        f"{{w}}/{PACKET}/acord_125.pdf",
        _truncate(f"{PACKET}/acord_125.pdf"),
        seen,
    )
    add(
        "view",
        "truncated file",
        "results.duckdb",
        viewing("{w}/run"),
        "{w}/run/results.duckdb",
        _truncate("run/results.duckdb"),
        seen,
    )
    add(
        "view",
        "wrong file type",
        "a PDF as results.duckdb",
        viewing("{w}/run"),
        "{w}/run/results.duckdb",
        _replace("run/results.duckdb", "run/report.pdf"),
        seen,
    )
    add(
        "view",
        "wrong file type",
        "another packet's truth",
        viewing("{w}/run"),
        f"{{w}}/{PACKET}/field_truth_sov_pdf.json",
        _replace(f"{PACKET}/field_truth_sov_pdf.json", f"{PACKET}/field_truth_acord_125.json"),
        seen,
    )
    add(
        "view",
        "file for folder",
        "the run is a file",
        viewing("{w}/notes.txt"),
        "{w}/notes.txt",
        _write("notes.txt", "mine"),
        seen,
    )
    add(
        "view",
        "folder for file",
        "results.duckdb is a folder",
        viewing("{w}/run"),
        "{w}/run/results.duckdb",
        _to_folder("run/results.duckdb"),
        seen,
    )
    add(
        "view",
        "existing output",
        "--out holds other files",
        viewing("{w}/run"),
        "{w}/site",
        _write("site/notes.txt", "mine"),
        seen,
    )
    add(
        "view",
        "existing output",
        "an earlier export",
        viewing("{w}/run"),
        "{w}/site",
        lambda w: (_write("site/index.html", "<html>")(w), _write("site/data/runs.js", "")(w)),
        seen,
    )
    for label, flags, needle in (
        ("port beyond 65535", ("--port", "70000"), "--port"),
        ("port not a number", ("--port", "http"), "--port"),
        ("unknown option", ("--open",), "--open"),
    ):
        add("view", "bad option", label, viewing("{w}/run", *flags), needle, needs=seen)

    # sql, report, compare, gate, plan: the readers of results.duckdb ----------------------
    readers: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
        # command -> (arguments before the run, arguments after it)
        "sql": (("sql",), ("SELECT count(*) FROM documents",)),
        "report": (("report",), ("--out", "{w}/report")),
        "compare": (("compare", "{w}/run2"), ("--out", "{w}/comparison")),
        "gate": (("gate",), ("--rules", "{w}/rules.toml")),
        "plan": (("plan", "--effect", "0.02"), ()),
    }
    for command, (before, after) in readers.items():
        needs = ("run", "run2", "rules.toml")

        def on(
            run: str, before: tuple[str, ...] = before, after: tuple[str, ...] = after
        ) -> tuple[str, ...]:
            return (*before, run, *after)

        add(command, "missing path", "no run", on("{w}/nowhere"), "{w}/nowhere", needs=needs)
        add(
            command,
            "empty folder",
            "the run",
            on("{w}/empty"),
            "{w}/empty",
            _write("empty/.keep", ""),
            needs,
        )
        add(
            command,
            "truncated JSON",
            "run.json",
            on("{w}/run"),
            "{w}/run/run.json",
            _truncate("run/run.json"),
            needs,
        )
        add(
            command,
            "truncated file",
            "results.duckdb",
            on("{w}/run"),
            "{w}/run/results.duckdb",
            _truncate("run/results.duckdb"),
            needs,
        )
        add(
            command,
            "stale results",
            "a record changed since the run was scored",
            on("{w}/run"),
            "{w}/run/results.duckdb: the run's extraction records changed since it was scored",
            _edit_record("run"),
            needs,
        )
        add(
            command,
            "wrong file type",
            "a PDF as results.duckdb",
            on("{w}/run"),
            "{w}/run/results.duckdb",
            _replace("run/results.duckdb", "run/report.pdf"),
            needs,
        )
        add(
            command,
            "file for folder",
            "the run is a file",
            on("{w}/notes.txt"),
            "{w}/notes.txt",
            _write("notes.txt", "mine"),
            needs,
        )
        add(
            command,
            "folder for file",
            "results.duckdb is a folder",
            on("{w}/run"),
            "{w}/run/results.duckdb",
            _to_folder("run/results.duckdb"),
            needs,
        )
        if command in ("report", "compare"):  # the others open runs the same way
            add(
                command,
                "wrong file type",
                "a run without hashes (older packetbench)",
                on("{w}/run"),
                "{w}/run/run.json",
                _old_run_json,
                needs,
            )
            add(
                command,
                "folder for file",
                "run.json is a folder",
                on("{w}/run"),
                "{w}/run/run.json",
                _to_folder("run/run.json"),
                needs,
            )
        add(
            command,
            "bad option",
            "unknown option",
            (*on("{w}/run"), "--fast"),
            "--fast",
            needs=needs,
        )
    add(
        "sql",
        "bad option",
        "unknown format",
        ("sql", "{w}/run", "SELECT 1", "--format", "xml"),
        "--format",
        needs=("run",),
    )
    add(
        "sql",
        "bad option",
        "SQL that does not parse",
        ("sql", "{w}/run", "SELEC 1"),
        "SQL",
        needs=("run",),
    )
    add(
        "report",
        "file for folder",
        "--out is a file",
        ("report", "{w}/run", "--out", "{w}/notes.txt"),
        "{w}/notes.txt",
        _write("notes.txt", "mine"),
        ("run",),
    )
    add(
        "report",
        "folder for file",
        "report.html is a folder",
        ("report", "{w}/run", "--out", "{w}/report", "--force"),
        "{w}/report/report.html",
        _write("report/report.html/inside.txt", "mine"),
        ("run",),
    )
    add(
        "report",
        "existing output",
        "report.md exists",
        ("report", "{w}/run", "--out", "{w}/report"),
        "{w}/report/report.md",
        _write("report/report.md", "mine"),
        ("run",),
    )
    add("report", "bad option", "no --out", ("report", "{w}/run"), "--out", needs=("run",))
    add(
        "report",
        "stale results",
        "a repeat's record changed since it was scored",
        ("report", "{w}/reps", "--out", "{w}/report"),
        "{w}/reps/repeats/r2/results.duckdb: the run's extraction records changed",
        _edit_record("reps/repeats/r2"),
        ("reps",),
    )
    for command, args in (
        ("gate", ("gate", "{w}/reps", "--rules", "{w}/rules.toml")),
        ("compare", ("compare", "{w}/reps", "{w}/run")),
        ("plan", ("plan", "{w}/reps", "--effect", "0.05")),
        ("audit-tokens", ("audit-tokens", "{w}/reps")),
        ("verify", ("verify", "{w}/reps")),
    ):
        add(
            command,
            "bad option",
            "a repeated run where one run belongs",
            args,
            "{w}/reps: a run of 2 repeats, each a run of its own",
            needs=("reps", "run", "rules.toml"),
        )
    add(
        "compare",
        "existing output",
        "paired_stats.json exists",
        ("compare", "{w}/run", "{w}/run2", "--out", "{w}/comparison"),
        "{w}/comparison/paired_stats.json",
        _write("comparison/paired_stats.json", "{}"),
        ("run", "run2"),
    )
    add(
        "compare",
        "file for folder",
        "--out is a file",
        ("compare", "{w}/run", "{w}/run2", "--out", "{w}/notes.txt"),
        "{w}/notes.txt",
        _write("notes.txt", "mine"),
        ("run", "run2"),
    )
    add(
        "compare",
        "folder for file",
        "paired_stats.json is a folder",
        ("compare", "{w}/run", "{w}/run2", "--out", "{w}/comparison", "--force"),
        "{w}/comparison/paired_stats.json",
        _write("comparison/paired_stats.json/inside.txt", "mine"),
        ("run", "run2"),
    )
    add("compare", "bad option", "one run", ("compare", "{w}/run"), "two runs", needs=("run",))
    add(
        "compare",
        "bad option",
        "the same run twice",
        ("compare", "{w}/run", "{w}/run"),
        "{w}/run",
        needs=("run",),
    )
    add(
        "compare",
        "bad option",
        "alpha out of range",
        ("compare", "{w}/run", "{w}/run2", "--alpha", "2"),
        "--alpha",
        needs=("run", "run2"),
    )
    add(
        "compare",
        "bad option",
        "alpha not a number",
        ("compare", "{w}/run", "{w}/run2", "--alpha", "a"),
        "--alpha",
        needs=("run", "run2"),
    )
    rules = ("gate", "{w}/run", "--rules")
    add(
        "gate",
        "missing path",
        "no rules file",
        (*rules, "{w}/none.toml"),
        "{w}/none.toml",
        needs=("run",),
    )
    add(
        "gate",
        "missing path",
        "no baseline",
        (*rules, "{w}/rules.toml", "--baseline", "{w}/nowhere"),
        "{w}/nowhere",
        needs=("run", "rules.toml"),
    )
    add(
        "gate",
        "truncated file",
        "the rules",
        (*rules, "{w}/rules.toml"),
        "{w}/rules.toml",
        _truncate("rules.toml"),
        ("run", "rules.toml"),
    )
    add(
        "gate",
        "wrong file type",
        "a PDF as the rules",
        (*rules, "{w}/rules.toml"),
        "{w}/rules.toml",
        _replace("rules.toml", "run/report.pdf"),
        ("run", "rules.toml"),
    )
    add(
        "gate",
        "folder for file",
        "the rules are a folder",
        (*rules, "{w}/rules.toml"),
        "{w}/rules.toml",
        _to_folder("rules.toml"),
        ("run", "rules.toml"),
    )
    add(
        "gate",
        "bad option",
        "a rule with an unknown rate",
        (*rules, "{w}/rules.toml"),
        "{w}/rules.toml",
        _write("rules.toml", '[[rule]]\nmetric = "speed"\nmax = 1\n'),
        ("run",),
    )
    for label, flags, needle in (
        ("effect zero", ("--effect", "0"), "--effect"),
        ("effect not a number", ("--effect", "big"), "--effect"),
        ("power above 1", ("--effect", "0.02", "--power", "2"), "--power"),
        ("alpha zero", ("--effect", "0.02", "--alpha", "0"), "--alpha"),
        ("unknown metric", ("--effect", "0.02", "--metric", "speed"), "speed"),
    ):
        add(
            "plan",
            "bad option",
            label,
            ("plan", "{w}/run", *flags),
            needle,
            needs=("run",),
        )

    # leaderboard --------------------------------------------------------------------------
    board = ("leaderboard", "{w}/run", "--release", "{w}/release", "--out", "{w}/board")
    ranked = ("run", "release")
    add("leaderboard", "bad option", "alpha out of range", (*board, "--alpha", "2"), "--alpha",
        needs=ranked)  # fmt: skip
    add("leaderboard", "bad option", "no --release", board[:2] + board[4:], "--release",
        needs=("run",))  # fmt: skip
    add("leaderboard", "bad option", "an unknown rate to rank by", (*board, "--rank-by", "speed"),
        "--rank-by", needs=ranked)  # fmt: skip
    add("leaderboard", "missing path", "no release", (*board[:3], "{w}/nowhere", *board[4:]),
        "{w}/nowhere", needs=("run",))  # fmt: skip
    add("leaderboard", "truncated JSON", "release.json", board, "{w}/release/release.json",
        _truncate("release/release.json"), ranked)  # fmt: skip
    add("leaderboard", "existing output", "leaderboard.md exists", board,
        "{w}/board/leaderboard.md", _write("board/leaderboard.md", "mine"), ranked)  # fmt: skip
    add("leaderboard", "file for folder", "--out is a file", (*board[:5], "{w}/notes.txt"),
        "{w}/notes.txt", _write("notes.txt", "mine"), ranked)  # fmt: skip
    add("leaderboard", "bad option", "a run of other packets", board, "{w}/run: packet N1-000001",
        _set_id("run/run.json", ("packets", 0, "packet_truth_sha256"), "0" * 64),
        ranked)  # fmt: skip

    # patterns -----------------------------------------------------------------------------
    for label, flags, needle in (
        ("unknown tier", ("--tiers", "N9"), "N9"),
        ("unknown option", ("--colour",), "--colour"),
    ):
        add("patterns", "bad option", label, ("patterns", *flags), needle, needs=())

    # providers ----------------------------------------------------------------------------
    for label, flags, needle in (
        ("unknown option", ("--colour",), "--colour"),
        ("an argument it takes none of", ("openai",), "openai"),
    ):
        add("providers", "bad option", label, ("providers", *flags), needle, needs=())

    # run ----------------------------------------------------------------------------------
    run = ("run", "--tiers", "N1", "--jobs", "1")
    add(
        "run",
        "file for folder",
        "--out is a file",
        (*run, "--out", "{w}/notes.txt"),
        "{w}/notes.txt",
        _write("notes.txt", "mine"),
        (),
    )
    add(
        "run",
        "existing output",
        "a run is there",
        (*run, "--out", "{w}/bench"),
        "{w}/bench",
        _write("bench/audit.json", "{}"),
        (),
    )
    add(
        "run",
        "existing output",
        "--out is a packets folder",
        (*run, "--out", "{w}/packets"),
        "{w}/packets",
    )
    for label, flags, needle in (
        ("unknown tier", ("--tiers", "N1,N7"), "N7"),
        ("count zero", ("--count", "0"), "--count"),
        ("count not a number", ("--count", "two"), "--count"),
        ("negative seed", ("--seed", "-1"), "--seed"),
        ("seed beyond 64 bits", ("--seed", BIG), "--seed"),
        ("negative sim seed", ("--sim-seed", "-1"), "seed"),
        ("jobs zero", ("--jobs", "0"), "--jobs"),
        ("unknown provider", ("--provider", "gpt-9"), "gpt-9"),
        ("unknown profile", ("--profile", "careless"), "careless"),
        ("no API key", ("--provider", "openai", "--model", "m"), "OPENAI_API_KEY"),
        ("repeats zero", ("--repeats", "0"), "--repeats must be at least 1"),
    ):
        add(
            "run",
            "bad option",
            label,
            ("run", "--out", "{w}/bench", *flags),
            needle,
            needs=(),
            env={"OPENAI_API_KEY": ""},
        )
    _untrusted(add)
    _non_finite(add)
    _verify(add)
    _reliability_iii(add)
    _reliability_iv(add)
    return cases


# Arguments each command with a float option needs around it (test_every_float_option_...).
FLOAT_COMMANDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # command -> (arguments, what of the world it needs)
    "compare": (("compare", "{w}/run", "{w}/run2"), ("run", "run2")),
    "stub": (("stub", "--packets", "{w}/packets"), ("packets",)),
    "leaderboard": (
        ("leaderboard", "{w}/run", "--release", "{w}/release", "--out", "{w}/board"),
        ("run", "release"),
    ),
    "extract": (("extract", "--packets", "{w}/packets", "--out", "{w}/new-run"), ("packets",)),
    "plan": (("plan", "{w}/run", "--effect", "0.02"), ("run",)),
    "run": (("run", "--out", "{w}/bench", "--tiers", "N1", "--jobs", "1"), ()),
    "verify": (("verify", "{w}/run", "--packets", "{w}/packets"), ("run", "packets")),
}


def float_options() -> dict[str, list[str]]:
    """command -> its options parsed as floats, read from the commands' signatures."""
    import typing

    from packetbench.cli import app

    found: dict[str, list[str]] = {}
    for command in app.registered_commands:
        assert command.callback is not None
        hints = typing.get_type_hints(command.callback, include_extras=True)
        for name, hint in hints.items():
            args = typing.get_args(hint)
            if not args or float not in (args[0], *typing.get_args(args[0])):
                continue
            info = args[1]
            flag = (info.param_decls or (f"--{name.replace('_', '-')}",))[0]
            found.setdefault(str(command.name), []).append(flag)
    return found


def _non_finite(add: Callable[..., None]) -> None:
    """nan and inf for every float option and gate bound: a NaN cost cap never binds, and a
    rule with a NaN bound passes every rate."""
    for bound, value in (("max", "nan"), ("min", "nan"), ("max", "inf"), ("min", "-inf")):
        add(
            "gate",
            "bad option",
            f"a rule with {bound} = {value}",
            ("gate", "{w}/run", "--rules", "{w}/rules.toml"),
            "{w}/rules.toml: rule 1: " + bound,
            _write("rules.toml", f'[[rule]]\nmetric = "halluc_numbers"\n{bound} = {value}\n'),
            ("run",),
        )
    for command, flags in float_options().items():
        args, needs = FLOAT_COMMANDS[command]
        for flag in flags:
            for value in ("nan", "inf", "-inf"):
                add(
                    command,
                    "bad option",
                    f"{flag} {value}",
                    (*args, flag, value),
                    flag,
                    needs=needs,
                )


def _invalid_truth_extracted(world: Path) -> None:
    """A document_truth that violates its schema (an amount as words), extracted that way:
    the run was made from this very file, so only validating the truth can catch it."""
    path = world / PACKET / "document_truth_sov_pdf.json"
    data = json.loads(path.read_text())
    data["truth"]["buildings"][0]["tiv"] = "seventy-eight million"
    path.write_text(json.dumps(data))
    extract(SimProvider("typical", 1), world / "packets", world / "run", force=True)


def _untrusted(add: Callable[..., None]) -> None:
    """A corpus, a run and a cache are untrusted input: ids that are paths, files that are
    not files. Each is refused with one line before anything is read from or
    written outside the folders given; "{w}/ESCAPED" is where a traversal would land."""
    truth = f"{PACKET}/packet_truth.json"
    escaped = "../../ESCAPED"
    ext = ("extract", "--packets", "{w}/packets", "--out", "{w}/new-run")
    sc = ("score", "{w}/run", "--packets", "{w}/packets")
    for where, value, label in (
        (("packet_id",), escaped, "packet_id ../../ESCAPED"),
        (("packet_id",), "/tmp/ESCAPED", "packet_id an absolute path"),
        (("documents", 0, "doc_id"), escaped, "doc_id ../../ESCAPED"),
        (("documents", 0, "file"), "../../../etc/passwd", "file ../../../etc/passwd"),
        (("documents", 1, "schema"), "../nightmare/acord_125", "schema ../nightmare/acord_125"),
    ):
        add("extract", "hostile id", label, ext, f"{{w}}/{truth}", _set_id(truth, where, value))
    for where, label in ((("packet_id",), "packet_id"), (("documents", 0, "doc_id"), "doc_id")):
        add(
            "audit",
            "hostile id",
            f"{label} ../../ESCAPED",
            ("audit", "--packets", f"{{w}}/{PACKET}"),
            f"{{w}}/{truth}",
            _set_id(truth, where, escaped),
        )
        add(
            "score",
            "hostile id",
            f"{label} ../../ESCAPED",
            sc,
            f"{{w}}/{truth}",
            _set_id(truth, where, escaped),
            ("packets", "run"),
        )
    add(
        "audit",
        "hostile id",
        "a manifest's file ../notes.txt",
        ("audit", "--packets", f"{{w}}/{PACKET}"),
        f"{{w}}/{PACKET}/manifest_sov_pdf.json",
        _set_id(f"{PACKET}/manifest_sov_pdf.json", ("file",), "../notes.txt"),
    )
    add(
        "generate",
        "hostile id",
        "--resume, doc_id ../../ESCAPED",
        ("generate", "--tiers", "N1", "--out", "{w}/packets", "--resume"),
        f"{{w}}/{truth}",
        _set_id(truth, ("documents", 0, "doc_id"), escaped),
    )
    for damage, label in ((_fifo, "a FIFO"), (_endless, "a symlink to /dev/zero")):
        for relative in (f"{PACKET}/field_truth_sov_pdf.json", f"{PACKET}/sov_pdf.pdf"):
            name = relative.rpartition("/")[2]
            add(
                "audit",
                "not a regular file",
                f"{name} is {label}",
                ("audit", "--packets", f"{{w}}/{PACKET}"),
                f"{{w}}/{relative}",
                damage(relative),
            )
            add(
                "extract",
                "not a regular file",
                f"{name} is {label}",
                ext,
                f"{{w}}/{relative}",
                damage(relative),
            )
        add(
            "generate",
            "not a regular file",
            f"--resume, a manifest is {label}",
            ("generate", "--tiers", "N1", "--out", "{w}/packets", "--resume"),
            f"{{w}}/{PACKET}/manifest_sov_pdf.json",
            damage(f"{PACKET}/manifest_sov_pdf.json"),
        )
        add(
            "score",
            "not a regular file",
            f"run.json is {label}",
            sc,
            "{w}/run/run.json",
            damage("run/run.json"),
            ("packets", "run"),
        )
        add(
            "score",
            "not a regular file",
            f"a record is {label}",
            sc,
            "{w}/run/extractions/N1-000001/sov_pdf.json",
            damage("run/extractions/N1-000001/sov_pdf.json"),
            ("packets", "run"),
        )
        add(
            "gate",
            "not a regular file",
            f"the rules are {label}",
            ("gate", "{w}/run", "--rules", "{w}/rules.toml"),
            "{w}/rules.toml",
            damage("rules.toml"),
            ("run", "rules.toml"),
        )

    add(
        "score",
        "wrong file type",
        "a truth that violates its schema",
        ("score", "{w}/run", "--packets", "{w}/packets"),
        f"{{w}}/{PACKET}/document_truth_sov_pdf.json: its truth is not a valid instance",
        _invalid_truth_extracted,
        ("packets", "run"),
    )
    resumed = ("run", "--out", "{w}/bench", "--tiers", "N1", "--jobs", "1", "--resume")
    add("run", "bad option", "--resume with --force", (*resumed, "--force"), "--resume", needs=())
    add("run", "missing path", "--resume, no run to continue", resumed, "{w}/bench", needs=())
    batched = ("run", "--out", "{w}/bench", "--tiers", "N1", "--jobs", "1", "--batch")
    add("run", "bad option", "--batch for sim", batched, "--batch", needs=())
    add(
        "run",
        "existing output",
        "--resume a run of other tiers",
        resumed,
        "{w}/bench: cannot continue a run that asked for other tiers",
        _write(
            "bench/pipeline.json",
            json.dumps({"tiers": ["N2"], "count": 1, "seed": 1, "provider": "sim"}),
        ),
        (),
    )
    # sql: the results are read-only, one SELECT per call, and no file but the run's own
    # Parquet files is reachable; each query below changed the run or reached the machine.
    refused = "QUERY"  # refused before it runs
    denied = "Permission Error"  # a SELECT that reaches for a file outside the run
    for label, query, needle in (
        ("empty query", "", refused),
        ("two statements", "SELECT 1; SELECT 2", refused),
        ("DETACH", "DETACH r0", refused),
        ("ATTACH read-write", "ATTACH '{w}/run/results.duckdb' AS mine", refused),
        ("UPDATE", "UPDATE documents SET numbers_hallucinated = 0", refused),
        ("a SELECT, then an UPDATE", "SELECT 1; UPDATE r0.documents SET correct = 0", refused),
        ("EXPLAIN ANALYZE", "EXPLAIN ANALYZE UPDATE r0.documents SET correct = 0", refused),
        ("COPY to a file", "COPY (SELECT * FROM documents) TO '{w}/stolen.csv'", refused),
        ("INSTALL", "INSTALL httpfs", refused),
        ("LOAD", "LOAD httpfs", refused),
        ("SET external access", "SET enable_external_access = true", refused),
        ("PRAGMA", "PRAGMA database_list", refused),
        ("read /etc/passwd", "SELECT * FROM read_csv('/etc/passwd')", denied),
        (
            "read a packet",
            "SELECT * FROM read_text('{w}/packets/N1-000001/packet_truth.json')",
            denied,
        ),
        ("a file beside scores/", "SELECT * FROM '{w}/run/scores/../run.json'", denied),
    ):
        add(
            "sql",
            "bad option",
            f"read-only: {label}",
            ("sql", "{w}/run", query),
            needle,
            needs=("run", "packets"),
        )
    # ... and a run folder is someone else's input: a link in it leads nowhere outside it.
    for label, linked, query in (
        (
            "scores/ is a link to /",
            _link("run/scores", "/"),
            "SELECT * FROM read_text('/etc/passwd')",
        ),
        (
            "scores/ is a link to /, read through it",
            _link("run/scores", "/"),
            "SELECT * FROM read_text('{w}/run/scores/etc/passwd')",
        ),
        (
            "a Parquet file is a link to /etc/passwd",
            _link("run/scores/claims.parquet", "/etc/passwd"),
            "SELECT * FROM read_text('{w}/run/scores/claims.parquet')",
        ),
    ):
        add(
            "sql",
            "hostile id",
            f"read-only: {label}",
            ("sql", "{w}/run", query),
            denied,
            linked,
            ("run", "packets"),
            fast=label == "scores/ is a link to /",
        )


def _verified(run: str, *flags: str) -> Callable[[Path], None]:
    """`packetbench verify` of the run `run` with the sim judge (and `flags`), done before."""

    def damage(world: Path) -> None:
        done = subprocess.run(
            [cli_path(), "verify", str(world / run), "--packets", str(world / "packets"), *flags],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr

    return damage


def _verify(add: Callable[..., None]) -> None:
    """verify: an unknown judge, rates outside [0, 1], a missing or unscored run, labels that
    exist, and calibrations it must refuse (kappa below --min-kappa, another judge's)."""
    ver = ("verify", "{w}/run", "--packets", "{w}/packets")
    add(
        "verify",
        "bad option",
        "unknown judge",
        (*ver, "--judge", "oracle"),
        "'oracle'",
        needs=("run", "packets"),
    )
    for flag, value in (("--sensitivity", "1.5"), ("--specificity", "-0.1")):
        add(
            "verify",
            "bad option",
            f"{flag} {value}",
            (*ver, flag, value),
            flag,
            needs=("run", "packets"),
        )
    add(
        "verify",
        "bad option",
        "--claims-per-request 0",
        (*ver, "--claims-per-request", "0"),
        "--claims-per-request",
        needs=("run", "packets"),
    )
    add("verify", "missing path", "no run", ("verify", "{w}/nowhere"), "{w}/nowhere/run.json")
    add(
        "verify",
        "missing path",
        "a sim judge on an unscored run",
        ver,
        "{w}/run/scores/claims.parquet: missing",
        lambda w: (w / "run" / "scores" / "claims.parquet").unlink(),
        ("run", "packets"),
    )
    add(
        "verify",
        "missing path",
        "--resume, nothing to resume",
        (*ver, "--resume"),
        "{w}/run/judge/sim-sim/judge.json: missing",
        needs=("run", "packets"),
    )
    add(
        "verify",
        "existing output",
        "the judge labelled the run",
        ver,
        "{w}/run/judge/sim-sim: this judge already labelled the run",
        _verified("run"),
        ("run", "packets"),
    )
    calibrated = ("verify", "{w}/run2", "--packets", "{w}/packets", "--calibration", "{w}/run")
    add(
        "verify",
        "bad option",
        "a calibration's kappa below --min-kappa",
        (*calibrated, "--min-kappa", "0.99"),
        "{w}/run/judge/sim-sim/calibration.json: kappa",
        _verified("run"),
        ("run", "run2", "packets"),
    )
    add(
        "verify",
        "bad option",
        "a calibration of another judge's settings",
        (*calibrated, "--specificity", "0.5"),
        "{w}/run/judge/sim-sim/calibration.json: calibrated with another parameters",
        _verified("run"),
        ("run", "run2", "packets"),
    )
    add(
        "verify",
        "bad option",
        "a calibration run without one",
        calibrated,
        "{w}/run/judge/sim-sim/calibration.json: missing",
        needs=("run", "run2", "packets"),
    )


def _reliability_iii(add: Callable[..., None]) -> None:
    """Hostile input: links where files belong, files that never end, options no run can meet."""
    _hostile_corpus(add)
    ver = ("verify", "{w}/run", "--packets", "{w}/packets")
    for flag, value in (("--min-kappa", "3"), ("--min-kappa", "-1.5"), ("--concurrency", "0")):
        add(
            "verify",
            "bad option",
            f"{flag} {value}",
            (*ver, "--judge", "openai", "--model", "m", flag, value),
            flag,
            needs=("run", "packets"),
            env={"OPENAI_API_KEY": "k"},
            fast=value == "3",
        )
    calibrated = ("verify", "{w}/run2", "--packets", "{w}/packets", "--calibration")
    add(
        "verify",
        "bad option",
        "a calibration of one document",
        (*calibrated, "{w}/small"),
        "{w}/small/judge/sim-sim/calibration.json: too small to correct a rate (1 documents",
        _small_calibration,
        ("run2", "packets"),
    )
    add(
        "verify",
        "bad option",
        "a calibration whose kappa is undefined",
        (*calibrated, "{w}/run"),
        "{w}/run/judge/sim-sim/calibration.json: kappa is undefined",
        _then(_verified("run"), _undefined_kappa),
        ("run", "run2", "packets"),
    )
    for bound, value, why in (
        ("max", "-1", "no run can meet"),
        ("min", "2", "no run can meet"),
        ("max", "1", "no run can break"),
        ("min", "0", "no run can break"),
    ):
        add(
            "gate",
            "bad option",
            f"a rule {bound} = {value}",
            ("gate", "{w}/run", "--rules", "{w}/rules.toml"),
            f"{{w}}/rules.toml: rule 1: {bound} = {value} makes a rule {why}",
            _write("rules.toml", f'[[rule]]\nmetric = "halluc_numbers"\n{bound} = {value}\n'),
            ("run", "rules.toml"),
            fast=value == "-1",
        )
    for command, args, folder in (
        ("score", ("score", "{w}/run", "--packets", "{w}/packets"), "run"),
        ("generate", ("generate", "--tiers", "N1", "--out", "{w}/packets", "--resume"), "packets"),
    ):
        add(
            command,
            "not a regular file",
            ".packetbench.lock is a link to a file of the user's",
            args,
            f"{{w}}/{folder}/.packetbench.lock: a symbolic link",
            _then(
                _write("victim.txt", "mine"), _link(f"{folder}/.packetbench.lock", "../victim.txt")
            ),
            ("run", "packets") if folder == "run" else ("packets",),
            fast=command == "score",
        )


DEEP_TOML = "x = " + "[" * 10_000 + "]" * 10_000
DEEP_JSON = "[" * 10_000 + "]" * 10_000
TOO_DEEP = "not TOML (nested deeper than 100 levels)"


def _spec(test: bool = False) -> str:
    from packetbench import __version__

    text = (
        f'name = "w"\nversion = "1"\ngenerator_version = "{__version__}"\n'
        '[split.dev]\ntiers = ["N1"]\npackets_per_tier = 1\nseed = 1\n'
    )
    if test:
        text += '[split.test]\ntiers = ["N1"]\npackets_per_tier = 1\nseed_file = "seeds.toml"\n'
    return text


def _mkfifo(relative: str) -> Callable[[Path], None]:
    """A FIFO at `relative`, where nothing was."""

    def damage(world: Path) -> None:
        (world / relative).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(world / relative)

    return damage


def _read_only(relative: str) -> Callable[[Path], None]:
    """An empty folder nobody may write into."""

    def damage(world: Path) -> None:
        (world / relative).mkdir(parents=True)
        (world / relative).chmod(0o555)

    return damage


def _reliability_iv(add: Callable[..., None]) -> None:
    """Releases and leaderboards: settings nested 10,000 deep, FIFOs, outputs inside a
    release, a user's file under --force, read-only outputs, second writers."""
    args: tuple[str, ...]  # the loops below bind tuples of every length
    ranked = ("run", "release")
    board = ("leaderboard", "{w}/run", "--release", "{w}/release")
    check = ("leaderboard", "--check")
    # nested past what a reader can walk: one line, never a RecursionError
    add("release", "wrong file type", "build: a spec nested 10,000 deep",
        ("release", "build", "{w}/spec.toml", "--out", "{w}/rel"), f"{{w}}/spec.toml: {TOO_DEEP}",
        _write("spec.toml", DEEP_TOML), (), fast=True)  # fmt: skip
    deep_seeds = _then(_write("spec.toml", _spec(test=True)), _write("seeds.toml", DEEP_TOML))
    add("release", "wrong file type", "build: a seed file nested 10,000 deep",
        ("release", "build", "{w}/spec.toml", "--out", "{w}/rel"), f"{{w}}/seeds.toml: {TOO_DEEP}",
        deep_seeds, ())  # fmt: skip
    add("release", "wrong file type", "seeds: a spec nested 10,000 deep",
        ("release", "seeds", "{w}/spec.toml"), f"{{w}}/spec.toml: {TOO_DEEP}",
        _write("spec.toml", DEEP_TOML), ())  # fmt: skip
    add("leaderboard", "wrong file type", "--check: submission.toml nested 10,000 deep",
        (*check, "{w}/sub", "--release", "{w}/release"), f"{{w}}/sub/submission.toml: {TOO_DEEP}",
        _write("sub/submission.toml", DEEP_TOML), ("release",))  # fmt: skip
    add("gate", "wrong file type", "rules nested 10,000 deep",
        ("gate", "{w}/run", "--rules", "{w}/rules.toml"), f"{{w}}/rules.toml: {TOO_DEEP}",
        _write("rules.toml", DEEP_TOML), ("run",))  # fmt: skip
    add("release", "wrong file type", "verify: release.json nested 10,000 deep",
        ("release", "verify", "{w}/release"), "{w}/release/release.json: not JSON",
        _write("release/release.json", DEEP_JSON), ("release",))  # fmt: skip
    add("leaderboard", "wrong file type", "run.json nested 10,000 deep",
        (*board, "--out", "{w}/board"), "{w}/run/run.json: unreadable (nested deeper than 100",
        _write("run/run.json", DEEP_JSON), ranked)  # fmt: skip
    # a FIFO is named for what it is, never "missing", and never opened
    fifo = "a FIFO, not a regular file"
    add("leaderboard", "not a regular file", "--check: the submission is a FIFO",
        (*check, "{w}/log.eval", "--release", "{w}/release"), f"{{w}}/log.eval: {fifo}",
        _mkfifo("log.eval"), ("release",), fast=True)  # fmt: skip
    add("leaderboard", "not a regular file", "--check: submission.toml's log is a FIFO",
        (*check, "{w}/sub", "--release", "{w}/release"), f"{{w}}/sub/log.eval: {fifo}",
        _then(_write("sub/submission.toml", 'release = "w"\nversion = "1"\nlog = "log.eval"\n'),
              _mkfifo("sub/log.eval")), ("release",))  # fmt: skip
    packet_file = "release/dev/N1-000001/acord_125.pdf"
    for command, more in (("verify", ()), ("publish", ("--out", "{w}/public"))):
        add("release", "not a regular file", f"{command}: a FIFO in place of a packet's file",
            ("release", command, "{w}/release", *more), f"{{w}}/{packet_file}: {fifo}",
            _fifo(packet_file), ("release",))  # fmt: skip
    # inside a release: whatever is written there breaks its commitment
    inside = "is inside the release"
    add("release", "inside a release", "export --out a folder of the release",
        ("release", "export", "{w}/release", "--out", "{w}/release/dev/data"),
        f"{{w}}/release/dev/data: {inside}", needs=("release",))  # fmt: skip
    add("leaderboard", "inside a release", "--out a folder of the release",
        (*board, "--out", "{w}/release/board"), f"{{w}}/release/board: {inside}",
        needs=ranked)  # fmt: skip
    add("extract", "inside a release", "--out a folder of the release",
        ("extract", "--packets", "{w}/packets", "--out", "{w}/release/dev/run"),
        f"{{w}}/release/dev/run: {inside}", needs=("packets", "release"))  # fmt: skip
    add("release", "inside a release", "publish --out the release itself",
        ("release", "publish", "{w}/release", "--out", "{w}/release", "--force"),
        "{w}/release: inside the release folder", needs=("release",))  # fmt: skip
    # --force replaces only what the command wrote
    add("release", "existing output", "export --force over a folder with the user's README.md",
        ("release", "export", "{w}/release", "--out", "{w}/proj", "--force"),
        "{w}/proj: holds README.md, which release export did not write",
        _write("proj/README.md", "my project"), ("release",))  # fmt: skip
    add("leaderboard", "existing output", "--force over a folder with the user's notes",
        (*board, "--out", "{w}/board", "--force"),
        "{w}/board: holds notes.md, which leaderboard did not write",
        _then(_write("board/leaderboard.md", "old"), _write("board/notes.md", "mine")),
        ranked)  # fmt: skip
    # read-only outputs: one line naming the output, nothing written
    cannot = "cannot write (Permission denied)"
    for label, args, names, needs in (
        ("build", ("release", "build", "{w}/spec.toml", "--out", "{w}/ro/rel"), "{w}/ro/rel", ()),
        ("seeds", ("release", "seeds", "{w}/spec.toml", "--out", "{w}/ro/seeds.toml"),
         "{w}/ro/seeds.toml", ()),
        ("publish", ("release", "publish", "{w}/release", "--out", "{w}/ro/public"),
         "{w}/ro/public", ("release",)),
        ("export", ("release", "export", "{w}/release", "--out", "{w}/ro/data"), "{w}/ro/data",
         ("release",)),
    ):  # fmt: skip
        add("release", "read-only output", f"{label} into a read-only folder", args,
            f"{names}: {cannot}",
            _then(_write("spec.toml", _spec(test=label == "seeds")), _read_only("ro")),
            needs, fast=label == "build", unprivileged=True)  # fmt: skip
    add("leaderboard", "read-only output", "--out into a read-only folder",
        (*board, "--out", "{w}/ro/board"), f"{{w}}/ro/board: {cannot}", _read_only("ro"),
        ranked, unprivileged=True)  # fmt: skip
    add("view", "read-only output", "--cache a read-only folder",
        ("view", "{w}/run", "--packets", "{w}/packets", "--out", "{w}/site", "--cache",
         "{w}/ro/cache"), "{w}/ro/cache: cannot write the page cache (Permission denied)",
        _read_only("ro"), ("packets", "run"), unprivileged=True)  # fmt: skip
    # a second writer
    held = "is being written by pid "
    for label, args, lock, names, damage, needs in (
        ("build", ("release", "build", "{w}/spec.toml", "--out", "{w}/rel"), ".rel", "{w}/rel",
         _write("spec.toml", _spec()), ()),
        ("seeds", ("release", "seeds", "{w}/spec.toml"), ".seeds.toml", "{w}/seeds.toml",
         _write("spec.toml", _spec(test=True)), ()),
        ("publish", ("release", "publish", "{w}/release", "--out", "{w}/public"), ".public",
         "{w}/public", _none, ("release",)),
        ("export", ("release", "export", "{w}/release", "--out", "{w}/data"), ".data",
         "{w}/data", _none, ("release",)),
    ):  # fmt: skip
        add("release", "held by another writer", f"{label}: its output being written", args,
            f"{names}: {held}", _then(damage, _held(".", f"{lock}.packetbench.lock")),
            needs)  # fmt: skip
    add("leaderboard", "held by another writer", "--out being written by another leaderboard",
        (*board, "--out", "{w}/board"), f"{{w}}/board: {held}",
        _held(".", ".board.packetbench.lock"), ranked)  # fmt: skip


def _small_calibration(world: Path) -> None:
    """{w}/small: the run of one document (23 claims), scored and verified by the sim judge:
    a golden set too small to correct a rate with."""
    for args in (
        ("extract", "--packets", "packets", "--out", "small", "--limit", "1"),
        ("score", "small", "--packets", "packets"),
        ("verify", "small", "--packets", "packets"),
    ):
        done = subprocess.run(
            [cli_path(), *args], cwd=world, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, (args, done.stderr)


def _undefined_kappa(world: Path) -> None:
    path = world / "run" / "judge" / "sim-sim" / "calibration.json"
    data = json.loads(path.read_text())
    data["kappa"]["estimate"] = None
    path.write_text(json.dumps(data))


OUTPUT = "corpus/results/gpt55/extraction_N1_easy_70001_acord_25.json"
SCHEMA = "corpus/schemas/acord_25.schema.json"
TRUTH = "corpus/packets/N1_easy/doc_70001/ground_truth/field_truth_acord_25.json"


def _nested(relative: str, depth: int) -> Callable[[Path], None]:
    """The JSON file `relative` replaced by arrays nested `depth` deep."""

    def damage(world: Path) -> None:
        (world / relative).write_text("[" * depth + "]" * depth)

    return damage


def _hostile_corpus(add: Callable[..., None]) -> None:
    """import nightmare: a published corpus is untrusted input. Every file of it
    is checked before anything is read or written: a FIFO or /dev/zero where an output, a
    schema or a document belongs, JSON nested past what a reader can walk."""
    imp = ("import", "nightmare", "{w}/corpus", "--out", "{w}/out")
    document = "corpus/packets/N1_easy/doc_70001/documents/acord_25_70001.pdf"
    for relative, what in ((OUTPUT, "an output"), (SCHEMA, "a schema"), (document, "a document")):
        for label, damage in (("a FIFO", _fifo), ("a link to /dev/zero", _endless)):
            add(
                "import",
                "not a regular file",
                f"{what} is {label}",
                imp,
                f"{{w}}/{relative}",
                damage(relative),
                ("corpus",),
                fast=relative == OUTPUT and label == "a FIFO",
            )
    add(
        "import",
        "wrong file type",
        "an output nested 10,000 deep",
        imp,
        f"{{w}}/{OUTPUT}: not JSON",
        _nested(OUTPUT, 10_000),
        ("corpus",),
    )
    for relative, what in ((TRUTH, "a field truth"), (SCHEMA, "a schema")):
        add(
            "import",
            "wrong file type",
            f"{what} nested 500 deep",
            imp,
            f"{{w}}/{relative}",
            _nested(relative, 500),
            ("corpus",),
        )
    add(
        "import",
        "existing output",
        "--force where a run of the user's has a cohort's name",
        (*imp, "--force"),
        "{w}/out/runs/gpt55: exists and was not written by an import",
        _then(
            _write("out/import.json", '{"packets": [], "cohorts": {}}'),
            _write("out/runs/gpt55/mine.txt", "paid"),
        ),
        ("corpus",),
    )


def _edit_record(run: str) -> Callable[[Path], None]:
    """A record of the scored run `run` changed after scoring (an extract --force, an edit)."""

    def damage(world: Path) -> None:
        path = world / run / "extractions" / "N1-000001" / "sov_pdf.json"
        record = json.loads(path.read_text())
        record["output"] = None
        path.write_text(json.dumps(record))

    return damage


_HOLDERS: list[subprocess.Popen[str]] = []  # processes holding a folder, ended by the test


def _held(folder: str, name: str = ".packetbench.lock") -> Callable[[Path], None]:
    """Another live process holds `folder` for writing (its lock stays for 60 s), or with
    `name` the one thing of the folder that lock file stands for."""

    def damage(world: Path) -> None:
        target = world / folder
        code = (
            "import sys, time; from pathlib import Path\n"
            "from packetbench.core.locking import hold\n"
            "with hold(Path(sys.argv[1]), name=sys.argv[2]):\n"
            "    print('held', flush=True); time.sleep(60)"
        )
        holder = subprocess.Popen(
            [sys.executable, "-c", code, str(target), name], stdout=subprocess.PIPE, text=True
        )
        _HOLDERS.append(holder)
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"

    return damage


def _old_run_json(world: Path) -> None:
    path = world / "run" / "run.json"
    info = json.loads(path.read_text())
    for entry in info["packets"]:
        for key in ("sha256", "packet_truth_sha256", "generator_version"):
            entry.pop(key)
    path.write_text(json.dumps(info))


CASES = _cases()


# --- the world and the check ------------------------------------------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pristine world every case copies from."""
    root = tmp_path_factory.mktemp("world")
    packets = root / "packets"
    shutil.copytree(PACKETS / "N1-000001", packets / "N1-000001")
    for name, profile, seed in (("run", "typical", 1), ("run2", "sloppy", 2)):
        extract(SimProvider(profile, seed), packets, root / name)
        score_run(root / name, packets)
        load_run(root / name, packets)
    repeated = root / "reps"  # a repeated run (--repeats 2), scored
    extract_repeats(
        lambda i: SimProvider("typical", repeat_seed(1, i)),
        packets,
        repeated,
        2,
        False,
        HarnessOptions(),
    )
    for folder in (repeated / "repeats" / "r1", repeated / "repeats" / "r2"):
        score_run(folder, packets)
        load_run(folder, packets)
    write_spread(repeated, [repeated / "repeats" / "r1", repeated / "repeats" / "r2"])
    capped = Path(shutil.copytree(root / "run", root / "capped"))
    info = json.loads((capped / "run.json").read_text())
    info["max_output_tokens"] = 4000  # as an API run records it
    (capped / "run.json").write_text(json.dumps(info))
    # a PDF to put where other files belong
    for folder in (root / "run", capped):
        shutil.copy(packets / "N1-000001" / "acord_125.pdf", folder / "report.pdf")
    (root / "rules.toml").write_text('[[rule]]\nmetric = "halluc_numbers"\nmax = 0.5\n')
    write_corpus(root / "corpus")  # a published corpus, for `import nightmare`
    # a release wrapping the packets as they are (`leaderboard --release`)
    from packetbench import __version__
    from packetbench.benchmark.release.build import build as build_release

    spec = root / "release.toml"
    spec.write_text(
        f'name = "world"\nversion = "1"\ngenerator_version = "{__version__}"\n'
        '[split.dev]\nimport = "packets"\n'
    )
    build_release(spec, root / "release")
    spec.unlink()
    return root


# Damage that costs seconds of its own (a verify, another process): no case with it is drawn
# into the fast tier's sample unless it is marked `fast`.
COSTLY = ("_verified", "_small_calibration", "_held")


def _costly(damage: Callable[[Path], object]) -> bool:
    parts = getattr(damage, "parts", ())
    return damage.__qualname__.startswith(COSTLY) or any(_costly(part) for part in parts)


def sample(cases: list[Case]) -> list[Case]:
    """The fast tier's cases: those marked `fast`, then, in the suite's order, a case of a
    command and a kind neither has yet, then one of each command left, then one of each
    kind left (a deterministic selection: every command and every kind, a few dozen cases)."""
    chosen = [c for c in cases if c.fast]
    commands = {c.command for c in chosen}
    kinds = {c.kind for c in chosen}
    for wanted in ("both", "command", "kind"):
        for case in cases:
            if case in chosen or _costly(case.damage):
                continue
            new_command, new_kind = case.command not in commands, case.kind not in kinds
            if {"both": new_command and new_kind, "command": new_command, "kind": new_kind}[wanted]:
                chosen.append(case)
                commands.add(case.command)
                kinds.add(case.kind)
    return chosen


def _params() -> list[Any]:
    """Every case; in the fast tier (`make test`) only the `sample`, the others are marked
    `sweep` (the whole suite runs them)."""
    fast = {case.id for case in sample(CASES)}
    return [
        pytest.param(case, id=case.id, marks=() if case.id in fast else pytest.mark.sweep)
        for case in CASES
    ]


@pytest.mark.parametrize("case", _params())
def test_bad_input(case: Case, world: Path, tmp_path: Path) -> None:
    if case.unprivileged and not can_drop_privileges():
        pytest.skip("cannot run a command bound by permission bits here")
    w = tmp_path / "w"
    w.mkdir()
    for name in case.needs:
        source = world / name
        if source.is_dir():
            shutil.copytree(source, w / name)
        else:
            shutil.copy(source, w / name)
    try:
        _check(case, w)
    finally:
        while _HOLDERS:
            holder = _HOLDERS.pop()
            holder.kill()
            holder.communicate()


def _check(case: Case, w: Path) -> None:
    case.damage(w)
    before = _tree(w)
    args = [arg.replace("{w}", str(w)) for arg in case.args]
    prefix = unprivileged() if case.unprivileged else []
    result = subprocess.run(
        [*prefix, cli_path(), *args],
        cwd=w,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **case.env},
    )
    lines = result.stderr.splitlines()
    assert result.returncode == 2, (result.returncode, result.stdout[-2000:], result.stderr)
    assert "Traceback" not in result.stderr
    assert len(lines) == 1 and lines[0].startswith("packetbench: error: "), result.stderr
    assert case.names.replace("{w}", str(w)) in lines[0], lines[0]
    assert _tree(w) == before  # not one byte changed, created or removed


# They print a catalogue (patterns, providers): options are all they can get wrong.
READS_NO_FILES = {"patterns", "providers"}


def test_the_suite_covers_every_command_and_kind() -> None:
    from packetbench.cli import app

    commands = {c.name for c in app.registered_commands}
    groups = {g.name for g in app.registered_groups}  # their commands are cased apart
    assert commands <= {c.command for c in CASES} <= commands | groups
    assert {c.kind for c in CASES} == set(KINDS)
    for command in commands:  # every command gets at least bad options and two other kinds
        kinds = {c.kind for c in CASES if c.command == command}
        least = 1 if command in READS_NO_FILES else 3
        assert "bad option" in kinds and len(kinds) >= least, (command, kinds)


def test_sql_reads_its_runs_and_their_parquet_files(world: Path) -> None:
    """The sandbox of `packetbench sql` leaves every view and the runs' own scores/*.parquet
    readable, by absolute and by relative path."""
    run = world / "run"
    for query in (
        "SELECT count(*) FROM headline",
        f"SELECT count(*) FROM '{run / 'scores' / 'claims.parquet'}'",
        "SELECT count(*) FROM 'run/scores/documents.parquet'",
    ):
        result = subprocess.run(
            [cli_path(), "sql", str(run), "--format", "csv", query],
            cwd=world,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert int(result.stdout.splitlines()[1]) > 0


def test_every_float_option_is_in_the_suite() -> None:
    """A new float option needs its command in FLOAT_COMMANDS, and so gets nan/inf cases."""
    found = float_options()
    assert set(found) == set(FLOAT_COMMANDS)
    assert sum(len(flags) for flags in found.values()) >= 9
    for command, flags in found.items():
        for flag in flags:
            assert any(c.command == command and c.label == f"{flag} nan" for c in CASES)
