"""`extract --provider command`: a real program run once per document, as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.benchmark.providers.command import fill, read_usage, split_template
from packetbench.core.errors import UsageError
from tests.support.files import extraction_records as _records

Run = Callable[..., subprocess.CompletedProcess[str]]

# A program of one's own: answers each document with its truth (the tests judge the
# harness, not the program), or misbehaves as the document's id says.
PROGRAM = r"""
import json, os, subprocess, sys, time
if sys.argv[1:] == ["--version"]:
    print("truthful 1.0")
    sys.exit(0)
log = os.environ.get("ARGV_LOG")
if log:
    with open(log, "a") as f:
        f.write(json.dumps(sys.argv[1:]) + "\n")
doc = os.environ["PACKETBENCH_DOCUMENT_ID"]
path, schema = sys.argv[1], sys.argv[2]
json.load(open(schema))  # the schema file is there and is JSON
assert os.environ["PACKETBENCH_SCHEMA"] == schema and os.environ["PACKETBENCH_FILE"] == path
bad = json.loads(os.environ.get("MISBEHAVE", "{}")).get(doc)
if bad == "not-json":
    print("Sure! Here is the answer: {")
elif bad == "schema-invalid":
    print(json.dumps({"no_such_field": 1}))
elif bad == "exit":
    print("model server unreachable", file=sys.stderr)
    sys.exit(3)
elif bad == "flood":
    chunk = "x" * (1 << 20)
    for _ in range(64):
        sys.stdout.write(chunk)
elif bad == "signal":
    import signal
    os.kill(os.getpid(), signal.SIGKILL)
elif bad == "hang":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    with open(os.environ["CHILD_PID"], "w") as f:
        f.write(str(child.pid))
    time.sleep(120)
else:
    truth = os.path.join(os.path.dirname(path), f"document_truth_{doc}.json")
    print(json.dumps(json.load(open(truth))["truth"]))
    usage = {"cost_usd": 0.25, "input_tokens": 1000, "output_tokens": 20}
    print("packetbench-usage: " + json.dumps(usage), file=sys.stderr)
"""

DOC_TYPES = "acord_125,sov,loss_run"  # six documents of an N1 packet
MORE_TYPES = f"{DOC_TYPES},acord_140,acord_160"  # eight


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One N1 packet under a folder whose name a shell would act on."""
    root = tmp_path_factory.mktemp("cmd") / "pk $(touch PWNED) ; echo {schema} `id` 'q"
    subprocess.run(
        [sys.executable, "-m", "packetbench", "generate", "--tiers", "N1", "--out", str(root)],
        check=True,
        capture_output=True,
    )
    return root


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "truthful.py"
    path.write_text(PROGRAM, encoding="utf-8")
    return path


def _extract(  # type: ignore[no-untyped-def]
    run_cli: Run,
    packets: Path,
    out: Path,
    command: str,
    *more: str,
    types: str = DOC_TYPES,
    **env: str,
):
    return run_cli(
        "extract",
        "--provider",
        "command",
        "--command",
        command,
        "--packets",
        str(packets),
        "--out",
        str(out),
        "--doc-types",
        types,
        "--no-cache",
        *more,
        env=env,
        timeout=120,
    )


def test_good_answers_are_recorded_with_the_reported_cost_and_score(
    run_cli: Run, packets: Path, program: Path, tmp_path: Path
) -> None:
    out, argv_log = tmp_path / "run", tmp_path / "argv.jsonl"
    command = f"{sys.executable} {program} {{file}} {{schema}} --tag 'a;b $(x)'"
    done = _extract(run_cli, packets, out, command, ARGV_LOG=str(argv_log))
    assert done.returncode == 0, done.stderr
    assert "6 of 6 documents written [6 ok]" in done.stdout
    assert "$1.5000 spent" in done.stdout  # six usage lines of $0.25
    records = _records(out)
    assert len(records) == 6 and {r["status"] for r in records.values()} == {"ok"}
    usage = records["sov_pdf"]["usage"]
    assert usage == {"input_tokens": 1000, "output_tokens": 20, "reasoning_tokens": 0,
                     "cost_usd": 0.25}  # fmt: skip
    info = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert info["provider"] == "command" and info["model"] == "truthful 1.0"
    assert info["versions"]["command"] == "truthful 1.0"
    # Each placeholder became one word, the path as it is: no shell read it.
    argvs = [json.loads(line) for line in argv_log.read_text(encoding="utf-8").splitlines()]
    files = sorted(a[0] for a in argvs)
    assert files[0].startswith(str(packets.resolve()) + "/") and len(files) == 6
    assert all(a[2:] == ["--tag", "a;b $(x)"] and a[1].endswith(".schema.json") for a in argvs)
    assert not list(Path.cwd().glob("PWNED")) and not list(packets.parent.rglob("PWNED"))
    # Answers of a truthful program score perfectly.
    scored = run_cli("score", str(out), "--packets", str(packets))
    assert scored.returncode == 0, scored.stderr
    assert "6 documents scored" in scored.stdout


@pytest.mark.slow
def test_every_bad_answer_is_that_documents_record_and_a_hang_is_killed(
    run_cli: Run, packets: Path, program: Path, tmp_path: Path
) -> None:
    out, child = tmp_path / "run", tmp_path / "child.pid"
    misbehave = {
        "acord_125": "not-json",
        "sov_pdf": "schema-invalid",
        "sov_excel": "exit",
        "loss_run_pdf": "hang",
        "acord_140": "flood",
        "acord_160": "signal",
    }
    command = f"{sys.executable} {program} {{file}} {{schema}}"
    started = time.monotonic()
    done = _extract(
        run_cli,
        packets,
        out,
        command,
        "--timeout",
        "3",
        "--retries",
        "0",
        "--system-version",
        "misbehaving 2",
        types=MORE_TYPES,
        MISBEHAVE=json.dumps(misbehave),
        CHILD_PID=str(child),
    )
    assert time.monotonic() - started < 60
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert "6 of 8 documents failed" in done.stdout
    records = _records(out)
    assert records["acord_125"]["status"] == "invalid"
    assert str(records["acord_125"]["error"]).startswith("not JSON")
    assert records["sov_pdf"]["status"] == "invalid"
    assert "schema-invalid" in str(records["sov_pdf"]["error"])
    assert records["sov_excel"]["status"] == "error"
    assert str(records["sov_excel"]["error"]).endswith("exit status 3: model server unreachable")
    assert records["loss_run_pdf"]["status"] == "timeout"
    assert "process group killed" in str(records["loss_run_pdf"]["error"])
    assert records["acord_140"]["status"] == "error"
    assert "printed more than 16,777,216 bytes on stdout" in str(records["acord_140"]["error"])
    assert records["acord_160"]["status"] == "error"
    assert str(records["acord_160"]["error"]).endswith("killed by signal SIGKILL")
    assert {records[d]["status"] for d in ("loss_run_excel", "loss_run_csv")} == {"ok"}
    # The hung program's own child died with it.
    pid = int(child.read_text())
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the hung program's child {pid} outlived the timeout")
    # The failures are requested again, now answered well.
    again = _extract(run_cli, packets, out, command, "--system-version", "misbehaving 2",
                     "--resume", "--retry-failed", types=MORE_TYPES)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "8 of 8 documents written [8 ok]" in again.stdout


def test_misuse_is_one_line(run_cli: Run, packets: Path, tmp_path: Path) -> None:
    cases = [
        (["--provider", "command"], "needs --command"),
        (["--provider", "sim", "--command", "x {file}"], "--command goes with --provider command"),
        (["--provider", "command", "--command", "'unclosed"], "cannot be split"),
        (["--provider", "command", "--command", "no-such-program-66 {file}"], "not found"),
    ]
    for args, needle in cases:
        done = run_cli(
            "extract", *args, "--packets", str(packets), "--out", str(tmp_path / "r"), timeout=60
        )
        assert done.returncode == 2, (args, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0], (args, done.stderr)
    assert not (tmp_path / "r").exists()


def test_placeholders_fill_each_word_once() -> None:
    words = split_template("run --in={file} {schema} '{doc_type} x' {other}")
    values = {"file": "/a b/{schema};$(rm)", "schema": "/s.json", "doc_type": "sov"}
    assert fill(words, values) == ["run", "--in=/a b/{schema};$(rm)", "/s.json", "sov x", "{other}"]
    with pytest.raises(UsageError):
        split_template("   ")


def test_the_usage_line_is_read_or_noted() -> None:
    text = 'noise\npacketbench-usage: {"cost_usd": 1}\npacketbench-usage: {"cost_usd": 0.5}\n'
    assert read_usage(text) == ({"cost_usd": 0.5}, None)
    assert read_usage("nothing")[0] == {}
    assert read_usage("packetbench-usage: {nope")[1] is not None
    assert read_usage('packetbench-usage: {"cost_usd": -1}')[1] is not None


def test_a_dry_run_runs_nothing(run_cli: Run, packets: Path, program: Path, tmp_path: Path) -> None:
    out, argv_log = tmp_path / "run", tmp_path / "argv.jsonl"
    command = f"{sys.executable} {program} {{file}} {{schema}}"
    done = _extract(run_cli, packets, out, command, "--dry-run", ARGV_LOG=str(argv_log))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dry run: 6 of 6 documents would be run through truthful 1.0;")
    assert not out.exists() and not argv_log.exists()
