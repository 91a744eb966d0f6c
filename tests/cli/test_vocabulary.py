"""One vocabulary across the commands: each option name means one thing
everywhere, arguments are upper-case metavars, flags show no value placeholder, and every old
spelling still works (a hidden alias for one release) and does what the current one does."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import typer

from packetbench.cli import app
from packetbench.cli._aliases import ALIASES
from tests.support.paths import ROOT

Cli = Callable[..., subprocess.CompletedProcess[str]]
WIDE = {"COLUMNS": "200", "TERM": "dumb"}


def _commands() -> list[list[str]]:
    """Every command and sub-command, as the words that name it."""
    found: list[list[str]] = []

    def walk(command: object, words: list[str]) -> None:
        children = getattr(command, "commands", None)
        if children is None:
            found.append(words)
            return
        for name, child in children.items():
            walk(child, [*words, name])

    walk(typer.main.get_command(app), [])
    return found


def _options(words: list[str]) -> dict[str, object]:
    """The visible options of one command: name -> default."""
    command: object = typer.main.get_command(app)
    for word in words:
        command = command.commands[word]  # type: ignore[attr-defined]
    return {
        name: param.default
        for param in command.params  # type: ignore[attr-defined]
        if param.param_type_name == "option" and not param.hidden
        for name in param.opts
    }


@pytest.mark.parametrize("words", _commands(), ids=" ".join)
def test_help_spells_arguments_and_flags_one_way(run_cli: Cli, words: list[str]) -> None:
    result = run_cli(*words, "--help", env=WIDE)
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "<bool>" not in text  # a flag takes no value
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    # arguments are upper-case metavars, bare when required: RUN, PACKETS..., FOLDER
    assert "{" not in usage and "}" not in usage
    after = usage.split("[OPTIONS]", 1)[1].split()
    assert all(re.fullmatch(r"\[?[A-Z_]+\]?(\.\.\.)?", word) for word in after), usage


def test_gate_help_shows_its_toml_tables(run_cli: Cli) -> None:
    text = run_cli("gate", "--help", env=WIDE).stdout
    assert "A TOML file of [[rule]] tables." in text
    assert text.count("[[rule]]") == 3 and "[]" not in text


def test_one_name_per_meaning() -> None:
    options = {" ".join(words): _options(words) for words in _commands()}
    # --seed is the first packet's seed, and only that
    assert sorted(c for c, o in options.items() if "--seed" in o) == ["generate", "run"]
    assert "--sim-seed" in options["extract"] and "--sim-seed" in options["run"]
    assert "--judge-seed" in options["verify"]
    # one or more tiers are --tiers; nobody says --tier
    assert not [c for c, o in options.items() if "--tier" in o]
    assert all("--tiers" in options[c] for c in ("generate", "patterns", "run"))
    # --jobs means worker processes, one unless asked
    assert {c: o["--jobs"] for c, o in options.items() if "--jobs" in o} == {
        c: 1
        for c in (
            "audit",
            "difficulty",
            "generate",
            "release build",
            "release refresh",
            "release verify",
            "run",
            "score",
        )
    }
    # a run is an argument: no command takes it as --pilot
    assert "--pilot" not in options["plan"]
    # --batch is the batch API, a switch, wherever it is; verify's claims per request say so
    batch = {c: _params([*c.split()])["--batch"] for c, o in options.items() if "--batch" in o}
    assert sorted(batch) == ["extract", "run"] and all(p.is_flag for p in batch.values())
    assert "--claims-per-request" in options["verify"]
    # packets are --packets in every command that reads them, never an argument
    reading = ("audit", "difficulty", "extract", "score", "verify", "view")
    assert all("--packets" in options[c] for c in reading)
    arguments = {
        " ".join(words): [p.name for p in _all_params(words) if p.param_type_name == "argument"]
        for words in _commands()
    }
    assert not [c for c, names in arguments.items() if any("packet" in n for n in names)]


def _all_params(words: list[str]) -> list[typer.core.TyperOption]:
    command: object = typer.main.get_command(app)
    for word in words:
        command = command.commands[word]  # type: ignore[attr-defined]
    return list(command.params)  # type: ignore[attr-defined]


def _params(words: list[str]) -> dict[str, typer.core.TyperOption]:
    return {name: p for p in _all_params(words) if not p.hidden for name in p.opts}


SHARED = ("extract", "run", "verify")


def test_extract_run_and_verify_declare_each_shared_option_once() -> None:
    """An option extract, run and verify share has one type, one default and one help text
    (they are declared once, in cli/_options.py); run takes every extraction option extract
    takes but those that name extract's own folders and modes."""
    params = {c: _params([c]) for c in SHARED}
    # each command's own: --out (a run folder, run's whole folder), --tiers (the packets run
    # generates, those extract reads) and --packets (those extract reads, those verify's run
    # was extracted from), so each says it in its own words
    own = {"--out", "--tiers", "--packets"}
    shared = sorted(
        name
        for name in set().union(*params.values())
        if sum(name in p for p in params.values()) > 1 and name not in own
    )
    assert len(shared) >= 25, shared
    for name in shared:
        found = [params[c][name] for c in SHARED if name in params[c]]
        assert len({p.help for p in found}) == 1, (name, [p.help for p in found])
        assert len({repr(p.default) for p in found}) == 1, (name, [p.default for p in found])
        assert len({p.is_flag for p in found}) == 1, name
    assert set(params["extract"]) - set(params["run"]) == {
        "--packets",
        "--retry-failed",
        "--documents",
        "--schema",
        "--schema-map",
        "--sim-truth",
    }


def test_the_extraction_options_build_the_config_the_library_takes() -> None:
    """The defaults of the shared options are the library's (`ExtractionConfig`)."""
    from packetbench.benchmark.config import ExtractionConfig, ModelOptions

    params = _params(["extract"])
    config, api = ExtractionConfig(), ModelOptions()
    for option, value in (
        ("--provider", config.provider),
        ("--profile", config.profile),
        ("--sim-seed", config.sim_seed),
        ("--sim-calibration", config.sim_calibration),
        ("--poll-interval", config.poll_interval_s),
        ("--repeats", config.repeats),
        ("--reasoning", api.reasoning),
        ("--input", api.input_mode),
        ("--timeout", api.timeout_s),
        ("--backoff", api.backoff_s),
        ("--concurrency", api.concurrency),
    ):
        assert params[option].default == value, option


@pytest.mark.parametrize(
    ("command", "old"), [(c, old) for c, table in ALIASES.items() for old in table], ids="-".join
)
def test_an_old_spelling_is_not_in_help_and_the_changelog_lists_it(
    run_cli: Cli, command: str, old: str
) -> None:
    text = run_cli(command, "--help", env=WIDE).stdout
    assert "Usage:" in text
    assert not re.search(rf"(?<![\w-]){re.escape(old)}(?![\w-])", text), text
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    unreleased = changelog.split("\n## [Unreleased]", 1)[1].split("\n## [", 1)[0]
    deprecated = unreleased.split("**Deprecated, removed in the next release**", 1)[1]
    deprecated = deprecated.split("\n- ", 1)[0].split("\n\n", 1)[0]
    assert f"`{command} {old}" in deprecated, deprecated


def test_every_alias_is_hidden_and_rewritten_to_an_existing_option() -> None:
    for command, table in ALIASES.items():
        options = _options([command])
        for old, new in table.items():
            assert old not in options, (command, old)
            assert new == "" or new in options, (command, new)


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One N1 packet written with the old --tier, extracted by sim and scored."""
    root = tmp_path_factory.mktemp("vocabulary")
    packets, run = root / "packets", root / "run"
    cli = _plain_cli
    made = cli("generate", "--tier", "N1", "--out", str(packets))
    assert made.returncode == 0, made.stderr
    assert [p.name for p in packets.iterdir() if p.is_dir()] == ["N1-000001"]
    assert cli("extract", "--packets", str(packets), "--out", str(run)).returncode == 0
    assert cli("score", str(run), "--packets", str(packets)).returncode == 0
    return packets, run


def _plain_cli(*args: str) -> subprocess.CompletedProcess[str]:
    from tests.support.paths import cli_path

    return subprocess.run([cli_path(), *args], capture_output=True, text=True, check=False)


def _records(run: Path) -> dict[str, object]:
    return {
        str(p.relative_to(run)): json.loads(p.read_text())["output"]
        for p in sorted((run / "extractions").rglob("*.json"))
    }


@pytest.mark.slow
def test_generate_tiers_takes_several_and_tier_still_works(run_cli: Cli, tmp_path: Path) -> None:
    both = run_cli("generate", "--tiers", "N1,N2", "--out", str(tmp_path / "both"))
    assert both.returncode == 0, both.stderr
    corpus = json.loads((tmp_path / "both" / "corpus.json").read_text())
    assert sorted(e["packet_id"] for e in corpus["entries"]) == ["N1-000001", "N2-000001"]
    old = run_cli("generate", "--tier=N2", "--out", str(tmp_path / "old"))
    assert old.returncode == 0, old.stderr
    assert (tmp_path / "old" / "N2-000001" / "packet_truth.json").read_bytes() == (
        tmp_path / "both" / "N2-000001" / "packet_truth.json"
    ).read_bytes()


def test_patterns_tier_alias(run_cli: Cli) -> None:
    new = run_cli("patterns", "--tiers", "N2", "--json")
    old = run_cli("patterns", "--tier", "N2", "--json")
    assert new.returncode == old.returncode == 0, new.stderr + old.stderr
    assert new.stdout == old.stdout
    assert run_cli("patterns", "--tiers", "N2,N3").stdout.splitlines()[0].split()[-2:] == [
        "N2",
        "N3",
    ]


@pytest.mark.slow
def test_extract_seed_alias_is_the_sim_seed(
    run_cli: Cli, tmp_path: Path, scored: tuple[Path, Path]
) -> None:
    packets, _ = scored
    runs = {}
    for name, spelling in (("new", "--sim-seed"), ("old", "--seed"), ("other", "--sim-seed=9")):
        args = ["extract", "--packets", str(packets), "--out", str(tmp_path / name)]
        args += [spelling] if "=" in spelling else [spelling, "5"]
        result = run_cli(*args)
        assert result.returncode == 0, result.stderr
        runs[name] = _records(tmp_path / name)
    assert runs["new"] == runs["old"] != runs["other"]


@pytest.mark.slow
def test_verify_seed_alias_is_the_judge_seed(
    run_cli: Cli, tmp_path: Path, scored: tuple[Path, Path]
) -> None:
    _, run = scored
    labels = {}
    for spelling, seed in (("--judge-seed", "3"), ("--seed", "3"), ("--judge-seed", "4")):
        result = run_cli("verify", str(run), spelling, seed, "--force")
        assert result.returncode == 0, result.stderr
        labels[(spelling, seed)] = result.stdout.splitlines()[0]
    assert labels[("--judge-seed", "3")] == labels[("--seed", "3")]
    assert labels[("--judge-seed", "3")] != labels[("--judge-seed", "4")]


@pytest.mark.slow
def test_verify_batch_alias_is_the_claims_per_request(
    run_cli: Cli, tmp_path: Path, scored: tuple[Path, Path]
) -> None:
    _, run = scored
    said = {}
    for spelling in ("--claims-per-request", "--batch"):
        result = run_cli("verify", str(run), spelling, "7", "--force")
        assert result.returncode == 0, result.stderr
        said[spelling] = result.stdout.splitlines()[0]
    assert said["--batch"] == said["--claims-per-request"]
    assert ", 2 requests, " not in said["--batch"]  # 7 claims a request, not the default 20
    bad = run_cli("verify", str(run), "--batch", "0")
    assert bad.returncode == 2 and "--claims-per-request must be at least 1" in bad.stderr


def test_packets_as_arguments_still_work_with_a_note(
    run_cli: Cli, scored: tuple[Path, Path]
) -> None:
    packets, _ = scored
    new = run_cli("difficulty", "--packets", str(packets), "--ocr-sample", "0")
    old = run_cli("difficulty", "--ocr-sample", "0", str(packets))
    assert new.returncode == old.returncode == 0, new.stderr + old.stderr
    assert new.stdout == old.stdout and new.stderr == ""
    assert old.stderr.splitlines() == [
        "packetbench: note: `difficulty PACKETS` is now `difficulty --packets PACKETS` (the "
        "folders as arguments work until the next release)"
    ]
    none = run_cli("audit", "--json")
    assert none.returncode == 2
    assert none.stderr == "packetbench: error: audit: give the packet folders with --packets\n"


def test_difficulty_seed_alias_is_the_ocr_sample_seed(
    run_cli: Cli, scored: tuple[Path, Path]
) -> None:
    packets, _ = scored
    new = run_cli(
        "difficulty", "--packets", str(packets), "--ocr-sample", "0", "--ocr-sample-seed", "2"
    )
    old = run_cli("difficulty", "--packets", str(packets), "--ocr-sample", "0", "--seed", "2")
    assert new.returncode == old.returncode == 0, new.stderr + old.stderr
    assert new.stdout == old.stdout
    bad = run_cli("difficulty", "--packets", str(packets), "--seed", "two")
    assert bad.returncode == 2 and "--ocr-sample-seed" in bad.stderr


@pytest.mark.slow
def test_plan_takes_the_run_as_an_argument(run_cli: Cli, scored: tuple[Path, Path]) -> None:
    _, run = scored
    new = run_cli("plan", str(run), "--effect", "0.05")
    old = run_cli("plan", "--pilot", str(run), "--effect", "0.05")
    glued = run_cli("plan", f"--pilot={run}", "--effect", "0.05")
    assert new.returncode == old.returncode == glued.returncode == 0, new.stderr + old.stderr
    assert new.stdout == old.stdout == glued.stdout
    assert "needed per tier" in new.stdout
