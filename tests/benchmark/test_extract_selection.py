"""Which documents `extract` and `run` read (`--tiers`, `--doc-types`, `--formats`,
`--limit`), and the sampling parameters they send (`--temperature`, `--top-p`,
`--sampling-seed`), recorded in run.json."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.stubs import KEYS, records

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One N1 and one N2 packet in one folder."""
    from packetbench.generator.generation import generate

    folder = tmp_path_factory.mktemp("selection") / "packets"
    generate("N1", 1, 1, folder)
    generate("N2", 1, 1, folder)
    return folder


def _kinds(packets: Path) -> dict[str, tuple[str, str, str]]:
    """'packet_id/doc_id' -> (tier, doc_type, format) of every document."""
    found = {}
    for folder in sorted(p for p in packets.iterdir() if p.is_dir()):
        truth = json.loads((folder / "packet_truth.json").read_text())
        for doc in truth["documents"]:
            found[f"{folder.name}/{doc['doc_id']}"] = (
                folder.name[:2],
                doc["doc_type"],
                doc["format"],
            )
    return found


@pytest.mark.slow
def test_filters_and_limit_choose_the_documents(
    run_cli: Run, tmp_path: Path, packets: Path
) -> None:
    kinds = _kinds(packets)
    run = tmp_path / "run"
    args = ["extract", "--packets", str(packets), "--out", str(run)]
    made = run_cli(*args, "--tiers", "n2", "--formats", "pdf,csv", "--limit", "5")
    assert made.returncode == 0, made.stderr
    expected = [k for k, (t, _, f) in kinds.items() if t == "N2" and f in ("pdf", "csv")][:5]
    assert sorted(records(run)) == sorted(expected)
    info = json.loads((run / "run.json").read_text())
    assert info["selection"] == {"tiers": ["N2"], "formats": ["pdf", "csv"], "limit": 5}
    assert [e["packet_id"] for e in info["packets"]] == ["N2-000001"]
    # scoring covers the selected documents alone: none is counted missing
    scored = run_cli("score", str(run), "--packets", str(packets))
    assert scored.returncode == 0, scored.stderr
    assert "5 documents scored" in scored.stdout and "excluded: none" in scored.stdout
    # a run continued with another selection is refused, naming it; the same one goes on
    other = run_cli(*args, "--resume", "--limit", "4")
    assert other.returncode == 2 and "selection" in other.stderr, other.stderr
    same = run_cli(*args, "--resume", "--tiers", "N2", "--formats", "pdf,csv", "--limit", "5")
    assert same.returncode == 0, same.stderr
    # by doc type
    typed = run_cli(
        "extract", "--packets", str(packets), "--out", str(tmp_path / "sov"), "--doc-types", "sov"
    )
    assert typed.returncode == 0, typed.stderr
    assert sorted(records(tmp_path / "sov")) == sorted(
        k for k, (_, d, _) in kinds.items() if d == "sov"
    )


@pytest.mark.parametrize(
    ("flags", "needle"),
    [
        (("--doc-types", "sov,nope"), "no document is a 'nope'"),
        (("--formats", "docx"), "no document is a 'docx'"),
        (("--tiers", "N7"), "unknown tier 'N7'"),
        (("--limit", "0"), "--limit must be at least 1"),
        (("--temperature", "0.2"), "--temperature: provider sim takes no such parameter"),
    ],
)
def test_bad_selections_are_one_line_exit_2(
    run_cli: Run, tmp_path: Path, packets: Path, flags: tuple[str, ...], needle: str
) -> None:
    out = tmp_path / "run"
    result = run_cli("extract", "--packets", str(packets), "--out", str(out), *flags)
    assert result.returncode == 2 and needle in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not out.exists()


@pytest.mark.slow
def test_sim_says_it_ignores_model(run_cli: Run, tmp_path: Path, packets: Path) -> None:
    args = ["extract", "--packets", str(packets), "--out", str(tmp_path / "r"), "--limit", "1"]
    said = run_cli(*args, "--model", "gpt-5")
    assert said.returncode == 0, said.stderr
    assert said.stderr.strip() == "packetbench: note: sim is the simulator; it ignores --model"
    quiet = run_cli(*args[:-4], "--out", str(tmp_path / "q"), "--limit", "1")
    assert quiet.returncode == 0 and quiet.stderr == ""


@pytest.mark.parametrize("api", ["openai", "gemini"])
def test_sampling_parameters_reach_the_request(
    run_cli: Run, tmp_path: Path, packets: Path, api: str
) -> None:
    from packetbench.benchmark.harness.stub import StubServer

    run = tmp_path / "run"
    with StubServer(api, packets, keep_bodies=True) as stub:
        result = run_cli(
            "extract",
            "--packets",
            str(packets),
            "--out",
            str(run),
            "--provider",
            api,
            "--model",
            "stub-model",
            "--base-url",
            stub.base_url,
            "--doc-types",
            "acord_125",
            "--temperature",
            "0.25",
            "--top-p",
            "0.5",
            "--sampling-seed",
            "7",
            env={KEYS[api]: "test-key-0123456789"},
        )
    assert result.returncode == 0, result.stdout + result.stderr
    assert stub.rejected == []
    bodies = [b for sent in stub.bodies.values() for b in sent]
    assert len(bodies) == 2  # acord_125 of each packet
    for body in bodies:
        if api == "openai":
            sent = {k: body[k] for k in ("temperature", "top_p", "seed")}
        else:
            config = body["generationConfig"]
            sent = {"temperature": config["temperature"], "top_p": config["topP"]}
            sent["seed"] = config["seed"]
        assert sent == {"temperature": 0.25, "top_p": 0.5, "seed": 7}
    info = json.loads((run / "run.json").read_text())
    assert info["parameters"]["sampling"] == {"temperature": 0.25, "top_p": 0.5, "seed": 7}


def test_anthropic_refuses_sampling_in_one_line(
    run_cli: Run, tmp_path: Path, packets: Path
) -> None:
    result = run_cli(
        "extract",
        "--packets",
        str(packets),
        "--out",
        str(tmp_path / "run"),
        "--provider",
        "anthropic",
        "--model",
        "m",
        "--sampling-seed",
        "7",
        env={"ANTHROPIC_API_KEY": "test-key-0123456789"},
    )
    assert result.returncode == 2
    assert result.stderr == (
        "packetbench: error: --sampling-seed: provider anthropic takes no such parameter "
        "(it takes: none)\n"
    )


@pytest.mark.slow
def test_run_passes_selection_and_sampling(run_cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "bench"
    sampled = run_cli("run", "--out", str(out), "--tiers", "N1", "--top-p", "0.5")
    assert sampled.returncode == 2 and "--top-p: provider sim takes no such" in sampled.stderr
    assert not out.exists()
    result = run_cli(
        "run", "--out", str(out), "--tiers", "N1", "--doc-types", "sov,loss_run", "--limit", "3"
    )
    assert result.returncode == 0, result.stderr
    run = out / "runs" / "sim-typical"
    kinds = _kinds(out / "packets")
    assert len(records(run)) == 3
    assert all(kinds[k][1] in ("sov", "loss_run") for k in records(run))
    assert json.loads((out / "pipeline.json").read_text())["selection"] == {
        "doc_types": ["sov", "loss_run"],
        "limit": 3,
    }
    assert "3 of 3 documents [3 ok]" in result.stdout
