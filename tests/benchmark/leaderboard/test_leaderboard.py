"""`packetbench leaderboard` and `leaderboard --check` on a tiny release, with simulated runs
and with an imported corpus wrapped as a release, through the real command line."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.support.chromium import chromium, cut, open_page
from tests.support.corpus_fixture import write_corpus
from tests.support.files import file_digests as tree
from tests.support.releases import RunCli, build, write_spec


def _run(run_cli: RunCli, packets: Path, out: Path, profile: str) -> Path:
    done = run_cli(
        "extract", "--provider", "sim", "--profile", profile, "--sim-seed", "1",
        "--packets", str(packets), "--out", str(out),
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    scored = run_cli("score", str(out), "--packets", str(packets))
    assert scored.returncode == 0, scored.stderr
    return out


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory, run_cli: RunCli) -> Path:
    folder = tmp_path_factory.mktemp("leaderboard")
    write_spec(folder, test=False)
    release = build(run_cli, folder)
    for profile in ("perfect", "sloppy"):
        _run(run_cli, release / "dev", folder / "runs" / f"sim-{profile}", profile)
    done = run_cli(
        "leaderboard", str(folder / "runs" / "sim-sloppy"), str(folder / "runs" / "sim-perfect"),
        "--release", str(release), "--out", str(folder / "board"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return folder


def test_usage_errors_are_one_line_before_any_work(tmp_path: Path, run_cli: RunCli) -> None:
    run = str(tmp_path / "run")
    _one_line(run_cli("leaderboard", run, "--out", str(tmp_path / "b")), 2, "--release: missing")
    _one_line(
        run_cli("leaderboard", "--check", run, run, "--release", str(tmp_path)),
        2,
        "--check takes one submission",
    )
    _one_line(
        run_cli(
            "leaderboard", run, "--release", str(tmp_path / "none"), "--out", str(tmp_path / "b")
        ),
        2,
        "none: missing",
    )
    (tmp_path / "release.json").write_text('{"release_format": 1}')
    _one_line(
        run_cli("leaderboard", "--check", run, "--release", str(tmp_path)),
        2,
        "not a release manifest",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["release.json"]


def _rows(folder: Path) -> list[dict[str, str]]:
    board = folder / "board" if (folder / "board").is_dir() else folder / "b"
    text = (board / "leaderboard.csv").read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.slow
def test_the_leaderboard_ranks_runs_with_intervals_and_tests_against_the_leader(
    board: Path,
) -> None:
    rows = _rows(board)
    assert [r["system"] for r in rows] == ["sim-perfect", "sim-sloppy"]
    perfect, sloppy = rows
    assert perfect["rank"] == "1" and float(perfect["accuracy"]) == 1.0
    assert perfect["simulator"] == "true" and perfect["cost_usd"] == ""  # costs nothing
    low, high = float(sloppy["accuracy_low"]), float(sloppy["accuracy_high"])
    assert low < float(sloppy["accuracy"]) < high < 1.0
    assert float(sloppy["halluc_numbers"]) > 0 and sloppy["halluc_numbers_low"]
    assert sloppy["vs_leader_accuracy_verdict"] == "worse"
    assert float(sloppy["vs_leader_accuracy_p_holm"]) < 0.05
    assert sloppy["grounding_f1_page"] == "" and sloppy["confidence_auc"] == ""  # absent
    md = (board / "board" / "leaderboard.md").read_text(encoding="utf-8")
    assert "| 1 | sim-perfect [SIMULATED, not a model] | 100.00 % [100.0, 100.0]" in md
    assert "acc − · num − · str −" in md
    assert "Grounding F1 (page): no run cited its values" in md
    assert "Invented below resolution: no run sent its pages at a resolution" in md
    html = (board / "board" / "leaderboard.html").read_text(encoding="utf-8")
    assert "<script" not in html and "http://" not in html and "https://" not in html


@pytest.mark.slow
def test_value_accuracy_counts_the_documents_a_run_did_not_score(board: Path) -> None:
    """The sloppy simulator fails some documents: they count as not correct, over the
    truth fields the perfect run scored on them."""

    def table(run: str) -> dict[tuple[str, str], tuple[str, int, int]]:
        with duckdb.connect(str(board / "runs" / run / "results.duckdb"), read_only=True) as db:
            found = db.execute(
                "SELECT packet_id, doc_id, status, correct, gt_fields FROM documents"
            ).fetchall()
        return {(p, d): (s, c or 0, g or 0) for p, d, s, c, g in found}

    perfect, sloppy = table("sim-perfect"), table("sim-sloppy")
    assert any(status != "scored" for status, _, _ in sloppy.values())
    correct = sum(c for s, c, _ in sloppy.values() if s == "scored")
    fields = sum(g for _, _, g in perfect.values())
    expected = correct / fields
    shown = float(next(r for r in _rows(board) if r["system"] == "sim-sloppy")["accuracy"])
    assert shown == pytest.approx(expected, abs=1e-6)
    scored = sum(1 for s, _, _ in sloppy.values() if s == "scored")
    row = next(r for r in _rows(board) if r["system"] == "sim-sloppy")
    assert int(row["documents_scored"]) == scored < int(row["documents"])


@pytest.mark.slow
def test_the_same_runs_give_the_same_bytes(board: Path, run_cli: RunCli) -> None:
    done = run_cli(
        "leaderboard", str(board / "runs" / "sim-sloppy"), str(board / "runs" / "sim-perfect"),
        "--release", str(board / "rel"), "--out", str(board / "again"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert tree(board / "again") == tree(board / "board")
    refused = run_cli(
        "leaderboard", str(board / "runs" / "sim-perfect"), "--release", str(board / "rel"),
        "--out", str(board / "board"),
    )  # fmt: skip
    assert refused.returncode == 2 and "already exists (use --force" in refused.stderr


def _one_line(done: Any, code: int, *words: str) -> None:
    assert done.returncode == code, (done.stdout, done.stderr)
    line = done.stderr.strip()
    assert "\n" not in line and "Traceback" not in line, line
    for word in words:
        assert word in line, line


@pytest.mark.slow
def test_a_run_on_other_packets_is_refused_and_nothing_is_written(
    board: Path, run_cli: RunCli
) -> None:
    other = board / "other"
    made = run_cli("generate", "--tiers", "N1", "--seed", "2", "--out", str(other / "packets"))
    assert made.returncode == 0, made.stderr
    run = _run(run_cli, other / "packets", other / "run", "typical")
    done = run_cli(
        "leaderboard", str(board / "runs" / "sim-perfect"), str(run), "--release",
        str(board / "rel"), "--out", str(other / "board"),
    )  # fmt: skip
    _one_line(done, 2, f"{run}: packet N1-000002 is not a packet of release tiny 1.0")
    assert not (other / "board").exists()
    checked = run_cli("leaderboard", "--check", str(run), "--release", str(board / "rel"))
    _one_line(checked, 1, "the run was made on other packets")


@pytest.mark.slow
def test_check_accepts_a_submission_made_on_the_release(board: Path, run_cli: RunCli) -> None:
    run = board / "runs" / "sim-perfect"
    done = run_cli("leaderboard", "--check", str(run), "--release", str(board / "rel"))
    assert done.returncode == 0, done.stderr
    assert "made on release tiny 1.0" in done.stdout and "25 documents" in done.stdout
    # a run folder linked into a submission from elsewhere leaves it: refused, not followed
    submission = board / "submission"
    submission.mkdir(exist_ok=True)
    (submission / "submission.toml").write_text(
        f'release = "tiny"\nversion = "1.0"\nrun = "{run.name}"\n'
    )
    if not (submission / run.name).exists():
        (submission / run.name).symlink_to(run.resolve(), target_is_directory=True)
    done = run_cli("leaderboard", "--check", str(submission), "--release", str(board / "rel"))
    _one_line(done, 2, "leaves the submission folder")


@pytest.mark.slow
def test_check_refuses_submissions_it_cannot_accept(
    board: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    release = str(board / "rel")
    submission = tmp_path / "submission"
    submission.mkdir()
    (submission / "submission.toml").write_text('release = "tiny"\nversion = "2.0"\nrun = "run"\n')
    import shutil

    shutil.copytree(board / "runs" / "sim-perfect", submission / "run")
    _one_line(
        run_cli("leaderboard", "--check", str(submission), "--release", release),
        1,
        "names release tiny 2.0, not tiny 1.0",
    )
    (submission / "submission.toml").write_text('release = "tiny"\nversion = "1.0"\nrun = "run"\n')
    done = run_cli("leaderboard", "--check", str(submission), "--release", release)
    assert done.returncode == 0, done.stderr
    (submission / "submission.toml").write_text('release = "tiny"\nrun = "../../etc"\n')
    _one_line(
        run_cli("leaderboard", "--check", str(submission), "--release", release),
        2,
        "not a submission file",
    )
    (submission / "submission.toml").write_text(
        'release = "tiny"\nversion = "1.0"\nrun = "../../../etc"\n'
    )
    _one_line(
        run_cli("leaderboard", "--check", str(submission), "--release", release),
        2,
        "leaves the submission folder",
    )
    _one_line(
        run_cli("leaderboard", "--check", str(tmp_path / "nothing"), "--release", release),
        2,
        "missing",
    )
    log = tmp_path / "broken.eval"
    log.write_bytes(b"PK\x03\x04 not a zip")
    _one_line(
        run_cli("leaderboard", "--check", str(log), "--release", release),
        2,
        "not a readable inspect log",
    )


@pytest.mark.slow
def test_a_release_whose_commitment_changed_is_refused(
    board: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    import shutil

    copy = tmp_path / "rel"
    shutil.copytree(board / "rel", copy)
    (copy / "COMMITMENT").write_bytes((copy / "COMMITMENT").read_bytes() + b"\n")
    done = run_cli(
        "leaderboard", str(board / "runs" / "sim-perfect"), "--release", str(copy),
        "--out", str(tmp_path / "board"),
    )  # fmt: skip
    _one_line(done, 2, "the commitment was changed")
    assert not (tmp_path / "board").exists()


@pytest.mark.slow
@pytest.mark.skipif(chromium() is None, reason="chromium is not installed")
def test_the_html_leaderboard_renders_its_rows_in_chromium(board: Path) -> None:
    with open_page(board / "board" / "leaderboard.html") as page:
        rows = page.evaluate("document.querySelectorAll('tbody tr').length")
        badges = page.evaluate("document.querySelectorAll('span.badge.sim').length")
        worse = page.evaluate("document.querySelectorAll('span.worse').length")
    assert rows == 2 and badges == 2 and worse >= 1


@pytest.mark.slow
@pytest.mark.skipif(chromium() is None, reason="chromium is not installed")
def test_the_html_leaderboard_fits_1280_px_with_every_column(
    board: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    """With a run that cites its values, states confidences and was sent its pages at 72 dpi
    (where 7-point type is under 7 pixels), the board has every column it can have (grounding,
    citation precision, confidence AUC, invented below resolution): at 1280 px none is cut,
    and "vs leader" is read without scrolling sideways."""
    release = board / "rel"
    cited = tmp_path / "sim-cited"
    done = run_cli(
        "extract", "--provider", "sim", "--profile", "typical", "--sim-seed", "2",
        "--cite", "box", "--confidence", "--input", "images", "--dpi", "72",
        "--packets", str(release / "dev"), "--out", str(cited),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert run_cli("score", str(cited), "--packets", str(release / "dev")).returncode == 0
    runs = [board / "runs" / "sim-sloppy", board / "runs" / "sim-perfect", cited]
    done = run_cli(
        "leaderboard", *map(str, runs), "--release", str(release), "--out", str(tmp_path / "b")
    )
    assert done.returncode == 0, done.stderr
    with open_page(tmp_path / "b" / "leaderboard.html", 1280, 900) as page:
        heads = page.evaluate(
            "Array.from(document.querySelectorAll('thead th')).map(t => t.innerText)"
        )
        found = cut(page)
    assert any(h.startswith("Grounding F1") for h in heads)
    assert any(h.startswith("Confidence AUC") for h in heads)
    assert any(h.startswith("Invented below resolution") for h in heads)
    assert heads[-1].split() == ["vs", "leader"]
    assert found == []
    rows = {r["system"]: r for r in _rows(tmp_path)}
    assert rows["sim-cited"]["delivered_dpi"] == "72"
    assert 0 <= float(rows["sim-cited"]["below_guess_wrong"]) < 1
    assert rows["sim-perfect"]["delivered_dpi"] == rows["sim-perfect"]["below_guess_wrong"] == ""
    md = (tmp_path / "b" / "leaderboard.md").read_text(encoding="utf-8")
    assert "| sim-cited (sim-typical, pages at 72 dpi) [SIMULATED, not a model] |" in md


@pytest.mark.slow
def test_an_imported_corpus_wrapped_as_a_release_ranks_its_cohorts(
    tmp_path: Path, run_cli: RunCli
) -> None:
    """The cohorts the import made and the simulator's runs on the imported packets (in the
    corpus's own schemas) are rows of one board."""
    corpus = write_corpus(tmp_path / "corpus")
    imported = run_cli(
        "import", "nightmare", str(corpus), "--out", str(tmp_path / "imp"), "--score"
    )
    assert imported.returncode == 0, imported.stderr
    version = (corpus / "COMMIT").read_text().strip()
    (tmp_path / "spec.toml").write_text(
        f'name = "reference"\nversion = "{version[:8]}"\n'
        f'generator_version = "nightmare@{version}"\nlicence = "MIT"\n\n'
        '[split.dev]\nimport = "imp/packets"\n'
    )
    wrong = tmp_path / "wrong.toml"
    wrong.write_text((tmp_path / "spec.toml").read_text().replace(version, "feed"))
    refused = run_cli("release", "build", str(wrong), "--out", str(tmp_path / "rel"))
    _one_line(refused, 2, "not the spec's nightmare@feed")
    built = run_cli("release", "build", str(tmp_path / "spec.toml"), "--out", str(tmp_path / "rel"))
    assert built.returncode == 0, built.stderr
    cohorts = sorted(str(p) for p in (tmp_path / "imp" / "runs").iterdir())
    sims = [
        str(_run(run_cli, tmp_path / "imp" / "packets", tmp_path / "sim" / f"sim-{p}", p))
        for p in ("perfect", "sloppy")
    ]
    done = run_cli(
        "leaderboard", *cohorts, *sims, "--release", str(tmp_path / "rel"),
        "--out", str(tmp_path / "board"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = _rows(tmp_path)
    assert len(rows) == len(cohorts) + 2
    assert rows[0]["system"] == "sim-perfect" and float(rows[0]["accuracy"]) == 1.0
    kinds = {r["system"]: (r["imported"], r["simulator"]) for r in rows}
    assert kinds["sim-sloppy"] == kinds["sim-perfect"] == ("false", "true")
    assert all(kinds[Path(c).name] == ("true", "false") for c in cohorts), kinds
    md = (tmp_path / "board" / "leaderboard.md").read_text(encoding="utf-8")
    assert "| 1 | sim-perfect [SIMULATED, not a model] | 100.00 % [100.0, 100.0]" in md
    verified = run_cli("release", "verify", str(tmp_path / "rel"))
    assert verified.returncode == 0, verified.stderr
    regenerate = run_cli("release", "verify", str(tmp_path / "rel"), "--regenerate")
    _one_line(regenerate, 2, "wraps an imported corpus")


@pytest.mark.slow
def test_an_inspect_log_is_a_submission_and_its_import_a_row(
    tmp_path: Path, run_cli: RunCli
) -> None:
    """`inspect eval packetbench/extract` (against the OpenAI stub) on a release's dev split:
    its log passes --check, alone and named by submission.toml, and the run `import
    inspect` makes of it ranks as an imported row."""
    import os
    import shutil
    import subprocess
    import sys

    from packetbench.benchmark.harness.stub import StubServer

    write_spec(tmp_path, test=False)
    release = build(run_cli, tmp_path)
    key = "sk-release-test"
    stub = StubServer("openai", release / "dev", expect_key=key).start()
    try:
        env = {
            **os.environ,
            "OPENAI_BASE_URL": stub.base_url,
            "OPENAI_API_KEY": key,
            "INSPECT_LOG_DIR": str(tmp_path / "logs"),
        }
        evaluated = subprocess.run(
            [str(Path(sys.executable).with_name("inspect")), "eval", "packetbench/extract",
             "-T", f"packets={release / 'dev'}", "--model", "openai/stub-model",
             "-M", "responses_api=false", "--display", "none"],
            env=env, capture_output=True, text=True, timeout=900, check=False,
        )  # fmt: skip
        assert evaluated.returncode == 0, evaluated.stdout + evaluated.stderr
    finally:
        stub.stop()
    (log,) = (tmp_path / "logs").glob("*.eval")
    done = run_cli("leaderboard", "--check", str(log), "--release", str(release))
    assert done.returncode == 0, done.stderr
    assert "an inspect log made on release tiny 1.0" in done.stdout
    submission = tmp_path / "submission"
    submission.mkdir()
    shutil.copy(log, submission / "extract.eval")
    (submission / "submission.toml").write_text(
        'release = "tiny"\nversion = "1.0"\nlog = "extract.eval"\n'
    )
    done = run_cli("leaderboard", "--check", str(submission), "--release", str(release))
    assert done.returncode == 0, done.stderr
    run = tmp_path / "inspect-run"
    imported = run_cli(
        "import", "inspect", str(log), "--packets", str(release / "dev"), "--out", str(run)
    )
    assert imported.returncode == 0, imported.stderr
    assert run_cli("score", str(run), "--packets", str(release / "dev")).returncode == 0
    board = run_cli(
        "leaderboard", str(run), "--release", str(release), "--out", str(tmp_path / "b")
    )
    assert board.returncode == 0, board.stderr
    (row,) = csv.DictReader(io.StringIO((tmp_path / "b" / "leaderboard.csv").read_text()))
    assert row["imported"] == "true" and row["provider"] == "inspect"
