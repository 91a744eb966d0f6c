"""Every offline API path the docs show (docs/offline.md: ordinary requests to each API, the
batch APIs, retried faults, the inspect_ai task), tried with each `--input` mode against one
`packetbench stub` serving alone, as a user runs them: real processes, the real SDKs over
HTTP, then `score` on what they wrote.

The packet holds a scanned ACORD 125 whose pages carry no text layer (what `--input text`
sends of it is page markers alone), a PDF with a text layer, a workbook and a CSV file."""

from __future__ import annotations

import json
import re
import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import cli_path

Cli = Callable[..., subprocess.CompletedProcess[str]]
MODES = ("native", "text", "images")
# (provider, through its batch API): the paths docs/offline.md runs
PATHS = (
    ("openai", False),
    ("anthropic", False),
    ("gemini", False),
    ("openai", True),
    ("anthropic", True),
)
# Seed 1 of this selection scans the ACORD 125 and the loss run PDF, and leaves the SOV PDF's
# text layer whole (the fixture checks it).
PACKET = (
    "generate", "--tiers", "N1", "--seed", "1",
    "--set", "documents=acord_125,sov_pdf,sov_excel,loss_run_pdf,loss_run_csv",
    "--set", "patterns.scan.clean=0.5",
)  # fmt: skip


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory, run_cli: Cli) -> Path:
    from packetbench.benchmark.harness import inputs
    from packetbench.truth.packets import find_packets

    folder = tmp_path_factory.mktemp("offline") / "bench"
    made = run_cli(*PACKET, "--out", str(folder))
    assert made.returncode == 0, made.stderr
    (packet,) = find_packets(folder)
    sent = {doc.doc_id: inputs.build(packet, doc, "text") for doc in packet.documents}
    blank = {
        d for d, given in sent.items() if given.pages and len(given.image_only_pages) == given.pages
    }
    assert blank == {"acord_125", "loss_run_pdf"}, blank
    return folder


@pytest.fixture(scope="module")
def stub(bench: Path) -> Iterator[dict[str, str]]:
    """The environment that points every SDK at one stub serving all three APIs alone, every
    input mode known, two in ten requests answered with a fault the harness retries."""
    with subprocess.Popen(
        [
            *(cli_path(), "stub", "--packets", str(bench), "--inputs", "native,text,images"),
            *("--fault-rate", "0.2", "--faults", "rate_limit,server_500", "--fault-seed", "1"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            assert process.stdout is not None and process.stderr is not None
            lines = [process.stdout.readline().strip() for _ in range(6)]
            assert all(line.startswith("export ") for line in lines), lines
            yield dict(line.removeprefix("export ").split("=", 1) for line in lines)
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=60) == 0
            said = process.stderr.read()
            # every request reached a document; the faults were retried
            assert "refused" not in said and " faulted" in said, said
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def _leaves(node: Any) -> Iterator[Any]:
    if isinstance(node, dict):
        for child in node.values():
            yield from _leaves(child)
    elif isinstance(node, list):
        for child in node:
            yield from _leaves(child)
    else:
        yield node


def _check_run(
    run_cli: Cli, run: Path, bench: Path, mode: str, said: str, score: bool = False
) -> None:
    """Every document written ok (and, with `score`, scored); the scanned ACORD 125 answered
    with its truth, or, sent as text (nothing but page markers), with nothing."""
    documents = len(list((bench / "N1-000001").glob("document_truth_*.json")))
    assert documents == 5
    assert re.search(rf"\b{documents} of {documents} documents\b.*\[{documents} ok\]", said) or (
        f"{documents} documents of openai/stub ({documents} ok)" in said
    ), said
    assert json.loads((run / "run.json").read_text())["input"] == mode
    if score:
        scored = run_cli("score", str(run), "--packets", str(bench))
        assert scored.returncode == 0, scored.stderr
        assert f": {documents} documents scored" in scored.stdout, scored.stdout
    record = json.loads((run / "extractions" / "N1-000001" / "acord_125.json").read_text())
    assert record["status"] == "ok", record.get("error")
    truth = json.loads((bench / "N1-000001" / "document_truth_acord_125.json").read_text())
    if mode == "text":
        assert set(_leaves(record["output"])) <= {None}
        assert record["output"].keys() == truth["truth"].keys()
    else:
        assert record["output"] == truth["truth"]


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_every_api_path_in_each_input_mode(
    run_cli: Cli, bench: Path, stub: dict[str, str], tmp_path: Path, mode: str
) -> None:
    for provider, batch in PATHS:
        run = tmp_path / f"{provider}-{'batch' if batch else 'requests'}"
        result = run_cli(
            "extract", "--provider", provider, "--model", "stub", "--input", mode,
            "--packets", str(bench), "--out", str(run), "--no-cache", "--backoff", "0.01",
            *(("--batch", "--poll-interval", "0.1") if batch else ()),
            env=stub,
        )  # fmt: skip
        assert result.returncode == 0, (provider, batch, result.stdout + result.stderr)
        # one run of each mode scored: what a blank page's answer scores as is the same
        _check_run(run_cli, run, bench, mode, result.stdout, score=(provider, batch) == PATHS[0])


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_the_inspect_task_in_each_input_mode(
    run_cli: Cli, bench: Path, stub: dict[str, str], tmp_path: Path, mode: str
) -> None:
    import os
    import sys

    inspect = Path(sys.executable).with_name("inspect")
    logs, run = tmp_path / "logs", tmp_path / "inspect"
    evaluated = subprocess.run(
        [
            *(str(inspect), "eval", "packetbench/extract", "-T", f"packets={bench}"),
            *("-T", f"input={mode}", "--model", "openai/stub", "-M", "responses_api=false"),
            *("--log-dir", str(logs), "--display", "none"),
        ],
        env={**os.environ, **stub},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert evaluated.returncode == 0, evaluated.stderr[-2000:]
    (log,) = logs.glob("*.eval")
    imported = run_cli("import", "inspect", str(log), "--packets", str(bench), "--out", str(run))
    assert imported.returncode == 0, imported.stderr
    _check_run(run_cli, run, bench, mode, imported.stdout)


def test_the_answer_to_a_page_without_text_fits_every_schema() -> None:
    """What the stub answers a document sent as empty pages (every value null, every list
    empty) is a valid answer under each document type's strict schema, and under the cited
    and confident wrappers the harness asks for: it is scored, not refused."""
    import jsonschema

    from packetbench.benchmark.harness.stub.strict import nothing_read
    from packetbench.core.resources import resource_dir

    schemas = sorted(resource_dir("schemas").rglob("*.json"))
    assert len(schemas) >= 30
    for path in schemas:
        schema = json.loads(path.read_text(encoding="utf-8"))
        if schema.get("type") != "object":
            continue
        answer = nothing_read(schema)
        jsonschema.validate(answer, schema)
        assert set(_leaves(answer)) <= {None}, path.name
    wrapped = {
        "type": "object",
        "additionalProperties": False,
        "required": ["values", "evidence"],
        "properties": {
            "values": {"type": ["object", "null"], "additionalProperties": False,
                       "required": ["a"], "properties": {"a": {"type": ["string", "null"]}}},
            "evidence": {"type": "array", "items": {"type": "object"}},
        },
    }  # fmt: skip
    assert nothing_read(wrapped) == {"values": {"a": None}, "evidence": []}
