"""`packetbench release seeds|build|verify|refresh|publish` on tiny releases (one N1 packet a
split), through the real command line."""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from packetbench.benchmark.release.spec import load_spec
from packetbench.core.errors import InputError
from tests.support.files import file_digests as tree
from tests.support.releases import RunCli, build, write_spec


@pytest.fixture
def made(tiny_release: Path) -> Path:
    return tiny_release


def _seeds(folder: Path, name: str = "seeds.toml") -> list[int]:
    data = tomllib.loads((folder / "private" / name).read_text(encoding="utf-8"))
    return list(data["seeds"].values())


@pytest.mark.slow
def test_a_release_built_twice_is_byte_identical(made: Path, run_cli: RunCli) -> None:
    again = build(run_cli, made, "again")
    assert tree(made / "rel") == tree(again)


def test_a_release_verifies_against_its_commitment(made: Path, run_cli: RunCli) -> None:
    first = tree(made / "rel")
    assert {"release.json", "COMMITMENT"} <= set(first)
    assert any(p.startswith("dev/N1-000001/") for p in first)
    assert any(p.startswith("test/N1-t001/") for p in first)
    done = run_cli("release", "verify", str(made / "rel"))
    assert done.returncode == 0, done.stderr
    assert "rel/test: " in done.stdout and "files match COMMITMENT" in done.stdout
    # COMMITMENT is what sha256sum reads, from the release folder
    checked = subprocess.run(
        ["sha256sum", "--quiet", "-c", "COMMITMENT"], cwd=made / "rel", capture_output=True
    )
    assert checked.returncode == 0, checked.stderr


def test_the_manifest_records_what_regenerates_the_release(made: Path) -> None:
    manifest = json.loads((made / "rel" / "release.json").read_text(encoding="utf-8"))
    dev, test = manifest["splits"]["dev"], manifest["splits"]["test"]
    assert manifest["library_versions"]["pypdfium2"] and manifest["generator_version"]
    assert dev["tiers"]["N1"]["first_seed"] == 1 and dev["tiers"]["N1"]["knobs"]["lines"]
    assert test["tiers"]["N1"]["first_seed"] is None  # the test seeds are not published
    assert len(test["seed_commitment"]) == 64 and test["draw"] == 1
    assert test["packets"] == ["N1-t001"] and dev["packets"] == ["N1-000001"]


def test_no_test_seed_leaves_the_public_copy(made: Path, run_cli: RunCli) -> None:
    done = run_cli("release", "publish", str(made / "rel"), "--out", str(made / "public"))
    assert done.returncode == 0, done.stderr
    public = made / "public"
    assert not (public / "test").exists()
    seeds = [str(s) for s in _seeds(made)]
    for path in public.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert not any(s.encode() in data for s in seeds), path
    verified = run_cli("release", "verify", str(public))
    assert verified.returncode == 0, verified.stderr
    assert "not in this folder (a public copy)" in verified.stdout
    # while the maintainer's copy carries the seed in its test packet
    truth = made / "rel" / "test" / "N1-t001" / "packet_truth.json"
    assert json.loads(truth.read_text())["seed"] == int(seeds[0])


def test_verify_names_the_first_changed_file(made: Path, run_cli: RunCli) -> None:
    copy = made / "tampered"
    shutil.copytree(made / "rel", copy)
    target = copy / "dev" / "N1-000001" / "acord_125.pdf"
    target.write_bytes(target.read_bytes() + b"\n")
    done = run_cli("release", "verify", str(copy))
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0
    assert f"{target}: sha256 differs from COMMITMENT" in done.stderr
    # a changed COMMITMENT is caught by release.json, which holds its sha256
    commitment = made / "rel" / "COMMITMENT"
    (copy / "COMMITMENT").write_text(commitment.read_text().replace("a", "b", 1))
    done = run_cli("release", "verify", str(copy))
    assert done.returncode == 1 and "the commitment was changed" in done.stderr
    # an extra file is named too
    shutil.rmtree(copy)
    shutil.copytree(made / "rel", copy)
    (copy / "test" / "N1-t001" / "extra.txt").write_text("x")
    done = run_cli("release", "verify", str(copy))
    assert done.returncode == 1 and "extra.txt: not in COMMITMENT" in done.stderr


@pytest.mark.slow
def test_the_seed_file_and_regeneration_prove_the_test_split(made: Path, run_cli: RunCli) -> None:
    done = run_cli(
        "release",
        "verify",
        str(made / "rel"),
        "--seeds",
        str(made / "private" / "seeds.toml"),
        "--regenerate",
    )
    assert done.returncode == 0, done.stderr
    assert "rel/test: regenerated" in done.stdout and "rel/dev: regenerated" in done.stdout
    # another seed file of the same release is refused: its salted sha256 is not committed
    other = made / "other"
    other.mkdir(exist_ok=True)
    shutil.copy(made / "spec.toml", other / "spec.toml")
    drawn = run_cli("release", "seeds", str(other / "spec.toml"))
    assert drawn.returncode == 0, drawn.stderr
    done = run_cli(
        "release", "verify", str(made / "rel"), "--seeds", str(other / "private" / "seeds.toml")
    )
    assert done.returncode == 1 and "not the seeds release tiny 1.0 commits to" in done.stderr


@pytest.mark.slow
def test_a_refreshed_test_split_differs_verifies_and_rebuilds(
    tmp_path: Path, run_cli: RunCli
) -> None:
    write_spec(tmp_path)
    release = build(run_cli, tmp_path)
    before = tree(release)
    new_seeds = tmp_path / "private" / "seeds-2.toml"
    done = run_cli("release", "refresh", str(release), "--seeds", str(new_seeds))
    assert done.returncode == 0, done.stderr
    after = tree(release)
    assert {p: s for p, s in after.items() if p.startswith("dev/")} == {
        p: s for p, s in before.items() if p.startswith("dev/")
    }
    changed = [p for p in after if p.startswith("test/") and before.get(p) != after[p]]
    assert "test/N1-t001/packet_truth.json" in changed
    assert _seeds(tmp_path, "seeds-2.toml") != _seeds(tmp_path)
    manifest = json.loads((release / "release.json").read_text())
    assert manifest["splits"]["test"]["draw"] == 2
    ok = run_cli("release", "verify", str(release), "--seeds", str(new_seeds))
    assert ok.returncode == 0, ok.stderr
    stale = run_cli(
        "release", "verify", str(release), "--seeds", str(tmp_path / "private" / "seeds.toml")
    )
    assert stale.returncode == 1
    # the spec with the new seed file builds the refreshed release byte for byte
    rebuilt = build(run_cli, tmp_path, "rebuilt", "--seeds", str(new_seeds))
    assert tree(rebuilt) == after
    # the new seeds never overwrite a seed file
    again = run_cli("release", "refresh", str(release), "--seeds", str(new_seeds))
    assert again.returncode == 2 and "already exists" in again.stderr


def _refused(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    line = done.stderr.strip()
    assert "\n" not in line and "Traceback" not in line, line
    assert line.startswith("packetbench: error: ")
    for word in words:
        assert word in line, line


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name = 'x'\nversion = \n", ("not TOML",)),
        ("name = 'x'\nversion = '1'\n[split.dev]\ntiers = ['N1']\n", ("generator_version",)),
        (
            "name = 'x'\nversion = '1'\ngenerator_version = '0.1.0'\ncolour = 'red'\n"
            "[split.dev]\ntiers = ['N1']\npackets_per_tier = 1\nseed = 1\n",
            ("colour",),
        ),
        (
            "name = 'x'\nversion = '1'\ngenerator_version = '0.1.0'\n"
            "[split.dev]\ntiers = ['N9']\npackets_per_tier = 1\nseed = 1\n",
            ("unknown tier 'N9'",),
        ),
        (
            "name = 'x'\nversion = '1'\ngenerator_version = '0.1.0'\n"
            "[split.dev]\ntiers = ['N1']\npackets_per_tier = 1\nseed = 1\n"
            "[split.test]\ntiers = ['N1']\npackets_per_tier = 1\nseed = 5\n",
            ("split.test", "a seed in the spec is public"),
        ),
        (
            "name = '../x'\nversion = '1'\ngenerator_version = '0.1.0'\n"
            "[split.dev]\ntiers = ['N1']\npackets_per_tier = 1\nseed = 1\n",
            ("is not an id",),
        ),
    ],
)
def test_a_malformed_spec_is_named_in_one_line(
    tmp_path: Path, text: str, words: tuple[str, ...]
) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as refused:
        load_spec(spec)
    message = str(refused.value)
    assert "\n" not in message and message.startswith(str(spec))
    for word in words:
        assert word in message, message


def test_a_malformed_spec_is_exit_2_and_writes_nothing(tmp_path: Path, run_cli: RunCli) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text("name = 'x'\nversion = \n", encoding="utf-8")
    _refused(run_cli("release", "build", str(spec), "--out", str(tmp_path / "rel")), "not TOML")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.toml"]


@pytest.mark.slow
def test_bad_release_inputs_are_refused_before_anything_is_written(
    tmp_path: Path, run_cli: RunCli
) -> None:
    spec = write_spec(tmp_path, generator_version="0.0.9")
    out = tmp_path / "rel"
    _refused(run_cli("release", "build", str(spec), "--out", str(out)), "generator_version 0.0.9")
    spec = write_spec(tmp_path)
    _refused(run_cli("release", "build", str(spec), "--out", str(out)), "seeds.toml: missing")
    # a seed file inside the release folder would be published with it
    assert run_cli("release", "seeds", str(spec), "--out", str(out / "seeds.toml")).returncode == 0
    inside = run_cli(
        "release", "build", str(spec), "--out", str(out), "--seeds", str(out / "seeds.toml")
    )
    _refused(inside, "inside the release folder")
    shutil.rmtree(out)
    # a hand-written small seed could be found from the committed hashes
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "seeds.toml").write_text(
        'release = "tiny"\ndraw = 1\nsalt = "' + "ab" * 32 + '"\n[seeds]\nN1 = 42\n'
    )
    _refused(run_cli("release", "build", str(spec), "--out", str(out)), "not a private seed")
    assert not out.exists()
    (tmp_path / "private" / "seeds.toml").write_text("release = [\n")
    _refused(run_cli("release", "build", str(spec), "--out", str(out)), "not TOML")
    assert not out.exists()


@pytest.mark.slow
def test_an_existing_release_is_replaced_only_with_force(made: Path, run_cli: RunCli) -> None:
    copy = made / "forced"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(made / "rel", copy)
    before = tree(copy)
    done = run_cli("release", "build", str(made / "spec.toml"), "--out", str(copy))
    _refused(done, "already exists (use --force")
    assert tree(copy) == before
    foreign = made / "foreign"
    foreign.mkdir(exist_ok=True)
    (foreign / "notes.txt").write_text("mine")
    done = run_cli("release", "build", str(made / "spec.toml"), "--out", str(foreign), "--force")
    _refused(done, "notes.txt, which release build did not write")
    assert (foreign / "notes.txt").read_text() == "mine"
    (copy / "dev" / "N1-000001" / "acord_125.pdf").write_bytes(b"damaged")
    forced = run_cli("release", "build", str(made / "spec.toml"), "--out", str(copy), "--force")
    assert forced.returncode == 0, forced.stderr
    assert tree(copy) == before


def test_verify_of_a_folder_that_is_no_release(tmp_path: Path, run_cli: RunCli) -> None:
    _refused(run_cli("release", "verify", str(tmp_path)), "release.json: missing")
    (tmp_path / "release.json").write_text("{")
    _refused(run_cli("release", "verify", str(tmp_path)), "not JSON")
    (tmp_path / "release.json").write_text('{"release_format": 1}')
    _refused(run_cli("release", "verify", str(tmp_path)), "not a release manifest")


@pytest.mark.slow
def test_a_run_of_the_test_split_is_checked_by_the_public_copy(
    made: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    """The public copy has no test packet, yet COMMITMENT identifies a run made on them (by
    the sha256 of what it read), and a leaderboard of the test split names no seed."""
    public = tmp_path / "public"
    assert run_cli("release", "publish", str(made / "rel"), "--out", str(public)).returncode == 0
    run = tmp_path / "run"
    done = run_cli(
        "extract", "--provider", "sim", "--sim-seed", "1",
        "--packets", str(made / "rel" / "test"), "--out", str(run),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    checked = run_cli("leaderboard", "--check", str(run), "--release", str(public))
    assert checked.returncode == 0, checked.stderr
    assert "split test: 1 packets" in checked.stdout
    scored = run_cli("score", str(run), "--packets", str(made / "rel" / "test"))
    assert scored.returncode == 0, scored.stderr
    board = run_cli(
        "leaderboard", str(run), "--release", str(made / "rel"), "--out", str(tmp_path / "b")
    )
    assert board.returncode == 0, board.stderr
    seed = str(_seeds(made)[0])
    for path in (tmp_path / "b").iterdir():
        assert seed not in path.read_text(encoding="utf-8"), path
