"""`packetbench stub`: the three APIs on 127.0.0.1 around a command, or alone until Ctrl-C,
as a user runs it (real processes, the real SDKs over HTTP, real signals)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.paths import PACKETS, cli_path

Run = Callable[..., subprocess.CompletedProcess[str]]
PACKET = PACKETS / "N1-000001"
ENDPOINTS = ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GOOGLE_GEMINI_BASE_URL")
KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY")


@pytest.mark.slow
def test_a_command_runs_against_the_stubs_and_records_their_endpoint(
    run_cli: Run, tmp_path: Path
) -> None:
    """Around a command, the stubs' endpoints and key are in its environment: an OpenAI
    extraction reaches the stub with no key of the user's, run.json records the stub's
    endpoint as the run's base_url, and the command's exit code is stub's."""
    env = {k: v for k, v in os.environ.items() if k not in ENDPOINTS + KEYS}
    shown = run_cli(
        "stub", "--packets", str(PACKET), "--", sys.executable, "-c",
        "import json, os; print(json.dumps({k: v for k, v in os.environ.items() "
        "if k.endswith(('_BASE_URL', '_API_KEY'))}))",
        env=env,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stderr
    seen = json.loads(shown.stdout)
    assert {k: seen[k].startswith("http://127.0.0.1:") for k in ENDPOINTS} == dict.fromkeys(
        ENDPOINTS, True
    )
    assert {seen[k] for k in KEYS} == {"stub-key"}
    run = tmp_path / "run"
    done = subprocess.run(
        [
            *(cli_path(), "stub", "--packets", str(PACKET), "--apis", "openai", "--"),
            *(cli_path(), "extract", "--provider", "openai", "--model", "stub"),
            *("--packets", str(PACKET), "--out", str(run), "--no-cache"),
            *("--doc-types", "sov,loss_run"),
        ],
        env={**env, "PACKETBENCH_CACHE": str(tmp_path / "cache")},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    written = re.search(r": (\d+) of \1 documents written \[\1 ok\] by openai stub", done.stdout)
    assert written, done.stdout
    assert f"answered openai {written.group(1)} request(s)" in done.stderr
    info = json.loads((run / "run.json").read_text())
    assert info["base_url"].startswith("http://127.0.0.1:") and info["base_url"].endswith("/v1")
    assert "stub-key" not in (run / "run.json").read_text()
    failing = run_cli("stub", "--packets", str(PACKET), "--", "sh", "-c", "exit 7")
    assert failing.returncode == 7


def test_alone_it_prints_the_variables_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    """Without a command: one export line per variable on stdout, a real request answered,
    and Ctrl-C (SIGINT) ends it with exit 0."""
    from openai import OpenAI

    with subprocess.Popen(
        [cli_path(), "stub", "--packets", str(PACKET), "--apis", "openai"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            assert process.stdout is not None and process.stderr is not None
            lines = [process.stdout.readline().strip() for _ in range(2)]
            variables = dict(line.removeprefix("export ").split("=", 1) for line in lines)
            assert set(variables) == {"OPENAI_BASE_URL", "OPENAI_API_KEY"}
            with OpenAI(base_url=variables["OPENAI_BASE_URL"], api_key="wrong-key") as client:
                try:
                    client.models.list()
                except Exception as error:  # the stub answers: a route it does not serve
                    assert "404" in str(error) or "401" in str(error), error
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=60) == 0
            assert "stub: answered openai" in process.stderr.read()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


@pytest.mark.slow
def test_bad_options_are_one_line_and_exit_2(run_cli: Run, tmp_path: Path) -> None:
    cases = {
        ("--fault-rate", "2"): "--fault-rate must be between 0 and 1",
        ("--apis", "openai,cohere"): "--apis: unknown API 'cohere'",
        ("--faults", "meteor"): "--faults: unknown fault 'meteor'",
        ("--inputs", "braille"): "--inputs: unknown input 'braille'",
        ("--port", "-1"): "--port must be 0 or a free port number",
    }
    for options, message in cases.items():
        result = run_cli("stub", "--packets", str(PACKET), *options, "--", "true")
        assert result.returncode == 2, (options, result.stderr)
        assert result.stderr.splitlines() == [f"packetbench: error: {message}"] or (
            result.stderr.startswith(f"packetbench: error: {message}")
            and len(result.stderr.splitlines()) == 1
        ), result.stderr
    missing = run_cli("stub", "--packets", str(tmp_path / "nothing"), "--", "true")
    assert missing.returncode == 2 and "not a folder" in missing.stderr
    absent = run_cli("stub", "--packets", str(PACKET), "--", "no-such-command-here")
    assert absent.returncode == 2
    assert absent.stderr.splitlines()[-1] == (
        "packetbench: error: no-such-command-here: command not found"
    )


@pytest.mark.slow
def test_a_scan_sent_as_text_is_answered_and_an_unknown_document_told_why(
    run_cli: Run, tmp_path: Path
) -> None:
    """The issue's case: N3-000001's ACORD 125 is a scan with no text layer, so `--input
    text` sends page markers alone; the stub answers that with nothing read (every value
    null) instead of refusing it. A request it cannot answer is refused with a 400 that says
    what it expected and what it got: page images the stub was not started to know, and a
    PDF of another packet."""
    packet = PACKETS / "N3-000001"
    env = {"PACKETBENCH_CACHE": str(tmp_path / "cache")}

    def extract(stubbed: Path, source: Path, mode: str, out: str) -> dict[str, object]:
        done = run_cli(
            "stub", "--packets", str(stubbed), "--apis", "openai", "--",
            cli_path(), "extract", "--provider", "openai", "--model", "stub",
            "--input", mode, "--packets", str(source), "--doc-types", "acord_125",
            "--out", str(tmp_path / out), "--no-cache",
            env=env,
        )  # fmt: skip
        record = tmp_path / out / "extractions" / source.name / "acord_125.json"
        assert record.is_file(), done.stdout + done.stderr
        said: dict[str, object] = json.loads(record.read_text())
        said["stderr"] = done.stderr
        return said

    text = extract(packet, packet, "text", "text")
    assert text["status"] == "ok", text["error"]

    def leaves(node: object) -> list[object]:
        if isinstance(node, dict):
            return [leaf for child in node.values() for leaf in leaves(child)]
        if isinstance(node, list):
            return [leaf for child in node for leaf in leaves(child)]
        return [node]

    assert set(leaves(text["output"])) == {None}
    assert "answered openai 1 request(s) (0 faulted, 0 batch(es))" in str(text["stderr"])

    images = extract(packet, packet, "images", "images")
    assert images["status"] == "error"
    assert images["error"] == (
        "request rejected (400): no known document in the request: expected a document of "
        f"the packets in {packet}, known by a PDF's bytes, a page's or a sheet's text of 40 "
        "characters or more, or a CSV file's text; got 3 PNG page image(s) of none of them; "
        "this stub knows no page images: start it with --inputs native,text,images to answer "
        "--input images"
    )
    assert "1 refused)" in str(images["stderr"])

    other = extract(PACKET, packet, "native", "other")
    assert other["status"] == "error"
    assert str(other["error"]).endswith(
        f"expected a document of the packets in {PACKET}, known by a PDF's bytes, a page's "
        "or a sheet's text of 40 characters or more, or a CSV file's text; got 1 PDF(s) of "
        "none of them"
    ), other["error"]
