"""Releases under full disks, read-only folders, kills and second writers, and the rule that
a held-out packet is never named by its seed: in no message, no file name and no folder a
killed build leaves.

The disks are real (a tmpfs in a namespace of the test's own, `tests.support.disks`); every
byte a command prints, and every name and byte it leaves on the disk, is searched for the
test split's private seeds.
"""

from __future__ import annotations

import os
import pty
import re
import shutil
import signal
import subprocess
import time
import tomllib
from pathlib import Path

import pytest

from tests.support.disks import (
    on_small_disk,
    read_only,
    size_kb,
    small_disk,
    unprivileged,
)
from tests.support.files import file_digests as tree
from tests.support.paths import cli_path
from tests.support.releases import RunCli


def _secrets(folder: Path) -> list[bytes]:
    """Every form the private seeds of `folder`'s test split could be printed in."""
    data = tomllib.loads((folder / "private" / "seeds.toml").read_text(encoding="utf-8"))
    found: list[bytes] = []
    for tier, first in data["seeds"].items():
        found += [str(first).encode(), f"{first:x}".encode(), f"{tier}-{first}".encode()]
    return found


def _no_secret(secrets: list[bytes], *texts: str | bytes) -> None:
    for text in texts:
        data = text.encode() if isinstance(text, str) else text
        for secret in secrets:
            assert secret not in data, (secret, data[-2000:])


def _everything_under(folder: Path) -> list[bytes]:
    """The name and the bytes of every entry under `folder`."""
    found: list[bytes] = []
    for path in sorted(folder.rglob("*")):
        found.append(str(path.relative_to(folder)).encode())
        if path.is_file() and not path.is_symlink():
            found.append(path.read_bytes())
    return found


def _one_line(done: subprocess.CompletedProcess[str], code: int, *words: str) -> str:
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr[-3000:])
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("packetbench: error: "), done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _dev_kb(tiny_release: Path) -> int:
    return size_kb(tiny_release / "rel" / "dev")


# Disk sizes: the three, and one the dev split fits on and the test split does not
# (what it takes is measured on the tiny release: 1.3 MB a split).
SIZES = [
    pytest.param("20k", marks=pytest.mark.slow),
    pytest.param("200k", marks=pytest.mark.slow),
    pytest.param("1m", marks=pytest.mark.slow),
    "dev fits",
]


@small_disk
@pytest.mark.parametrize("size", SIZES)
def test_a_build_on_a_full_disk_names_no_seed_and_leaves_nothing(
    tiny_release: Path, tmp_path: Path, size: str
) -> None:
    secrets = _secrets(tiny_release)
    kb = (
        _dev_kb(tiny_release) + 240
        if size == "dev fits"
        else int(size[:-1]) * (1024 if size.endswith("m") else 1)
    )
    spec = tiny_release / "spec.toml"
    done = on_small_disk(
        tmp_path / "disk",
        kb,
        f"{cli_path()} release build {spec} --out {{disk}}/rel",
        tmp_path / "after",
    )
    line = _one_line(done, 1, "cannot write (No space left on device)")
    if size == "dev fits":  # the write that failed was a test packet's: named by position
        assert f"{tmp_path}/disk/rel/test/N1-t001/" in line, line
    _no_secret(secrets, done.stdout, done.stderr)
    assert list((tmp_path / "after").iterdir()) == []  # nothing half written, no scratch


@read_only
def test_a_build_into_a_read_only_folder_names_no_seed(tiny_release: Path, tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    done = subprocess.run(
        [*unprivileged(), cli_path(), "release", "build", str(tiny_release / "spec.toml"),
         "--out", str(locked / "rel")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    _one_line(done, 2, f"{locked}/rel: cannot write (Permission denied)")
    _no_secret(_secrets(tiny_release), done.stdout, done.stderr)
    assert list(locked.iterdir()) == []


@pytest.mark.slow
def test_a_build_names_no_seed_on_a_terminal(tiny_release: Path, tmp_path: Path) -> None:
    """Progress is printed on a terminal only: there too, test packets are named by
    position."""
    primary, secondary = pty.openpty()
    try:
        process = subprocess.Popen(
            [cli_path(), "release", "build", str(tiny_release / "spec.toml"), "--out",
             str(tmp_path / "rel")],
            stdout=subprocess.PIPE, stderr=secondary, text=True,
        )  # fmt: skip
        os.close(secondary)
        shown = b""
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            shown += chunk
        stdout, _ = process.communicate(timeout=600)
    finally:
        os.close(primary)
    assert process.returncode == 0, shown
    assert b"release: generating 1 test packet(s) into test/" in shown
    _no_secret(_secrets(tiny_release), shown, stdout)
    assert tree(tmp_path / "rel") == tree(tiny_release / "rel")


def _staging(parent: Path, name: str) -> list[Path]:
    return sorted(parent.glob(f".{name}.partial-*"))


@pytest.mark.slow
def test_a_killed_build_leaves_no_seed_in_a_name_and_the_next_command_clears_it(
    tiny_release: Path, tmp_path: Path, run_cli: RunCli
) -> None:
    """Every name the build writes, watched while it runs, then SIGKILL once it writes the
    test split: no name holds a seed, and the next command clears what it left."""
    secrets = _secrets(tiny_release)
    process = subprocess.Popen(
        [cli_path(), "release", "build", str(tiny_release / "spec.toml"), "--out",
         str(tmp_path / "rel")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    seen: set[str] = set()
    deadline = time.monotonic() + 300
    while process.poll() is None and time.monotonic() < deadline:
        names = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")}
        seen |= names
        # Killed as soon as a file of a test packet exists: a fixed pause after the folder
        # appears let a loaded machine's build finish and publish before the kill.
        if any(name.count("/") >= 3 and "/test/" in name for name in names):
            os.killpg(process.pid, signal.SIGKILL)
            break
        time.sleep(0.01)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL, stderr
    left = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")}
    assert any(name.startswith(".rel.partial-") for name in left), left
    _no_secret(secrets, stdout, stderr, "\n".join(sorted(seen | left)))
    done = run_cli("release", "verify", str(tmp_path / "rel"))
    _one_line(done, 2, "rel: missing")
    assert list(tmp_path.iterdir()) == []  # the scratch and the lock file cleared


@pytest.mark.slow
def test_a_killed_refresh_is_cleared_by_the_next_command(
    tiny_release: Path, tmp_path: Path, run_cli: RunCli
) -> None:
    release = tmp_path / "rel"
    shutil.copytree(tiny_release / "rel", release)
    before = tree(release)
    process = subprocess.Popen(
        [cli_path(), "release", "refresh", str(release), "--seeds", str(tmp_path / "new.toml")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 300
    while not any((p / "test").is_dir() for p in _staging(tmp_path, "rel")):
        assert process.poll() is None and time.monotonic() < deadline, "it ended unkilled"
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGKILL)  # writing the new test split
    process.communicate(timeout=60)
    done = run_cli("release", "verify", str(release))
    assert done.returncode == 0, done.stderr
    # the new seeds are kept (written first: a kill may come after the release is made
    # from them), and the release is as it was: the refresh never happened
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.toml", "rel"]
    assert tree(release) == before


@pytest.mark.slow
def test_two_builds_at_once_one_is_refused(
    tiny_release: Path, tmp_path: Path, run_cli: RunCli
) -> None:
    """The first build is stopped (SIGSTOP) while it writes, so the second surely comes
    while it holds the folder; then it goes on, and ends as if alone."""
    out = tmp_path / "rel"
    first = subprocess.Popen(
        [cli_path(), "release", "build", str(tiny_release / "spec.toml"), "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 300
    while not _staging(tmp_path, "rel") and first.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    first.send_signal(signal.SIGSTOP)
    try:
        second = run_cli("release", "build", str(tiny_release / "spec.toml"), "--out", str(out))
    finally:
        first.send_signal(signal.SIGCONT)
    _, stderr = first.communicate(timeout=600)
    assert first.returncode == 0, stderr
    _one_line(second, 2, f"{out}: is being written by pid {first.pid} (packetbench release build")
    assert tree(out) == tree(tiny_release / "rel")


@pytest.fixture(scope="module")
def scored(tiny_release: Path, tmp_path_factory: pytest.TempPathFactory, run_cli: RunCli) -> Path:
    """A scored sim run of the tiny release's dev split, and an earlier leaderboard of it."""
    root = tmp_path_factory.mktemp("scored")
    packets = tiny_release / "rel" / "dev"
    for args in (
        ("extract", "--provider", "sim", "--packets", str(packets), "--out", str(root / "run")),
        ("score", str(root / "run"), "--packets", str(packets)),
        ("leaderboard", str(root / "run"), "--release", str(tiny_release / "rel"), "--out",
         str(root / "board"), "--rank-by", "halluc_numbers"),
    ):  # fmt: skip
        done = run_cli(*args)
        assert done.returncode == 0, done.stderr
    return root


# command -> (its arguments, {disk} standing for the disk; what it needs on the disk first)
WRITERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "build": ("release build {spec} --out {disk}/rel", ()),
    "publish": ("release publish {rel} --out {disk}/public", ()),
    "export": ("release export {rel} --out {disk}/data --dpi 36", ()),
    "refresh": ("release refresh {disk}/rel --seeds {disk}/new.toml", ("rel",)),
    "seeds": ("release seeds {spec} --out {disk}/seeds.toml", ()),
    "leaderboard": ("leaderboard {run} --release {rel} --out {disk}/board", ()),
    "leaderboard --force": (
        "leaderboard {run} --release {rel} --out {disk}/board --force",
        ("board",),
    ),
}
FREE = {"20k": 20, "200k": 200, "1m": 1024}


@small_disk
@pytest.mark.slow
@pytest.mark.parametrize("free", list(FREE))
@pytest.mark.parametrize("command", list(WRITERS))
def test_every_release_writer_on_a_full_disk_is_one_line_and_leaves_the_disk_as_it_was(
    tiny_release: Path, scored: Path, tmp_path: Path, command: str, free: str
) -> None:
    """Each writer on a tmpfs with 20 kB, 200 kB or 1 MB free beyond what it needs there:
    done (exit 0), or one line naming what could not be written (exit 1), and then the
    disk holds exactly what it held before."""
    template, first = WRITERS[command]
    before = tmp_path / "before"
    before.mkdir()
    sources = {"rel": tiny_release / "rel", "board": scored / "board"}
    for name in first:
        shutil.copytree(sources[name], before / name)
    arguments = template.format(
        spec=tiny_release / "spec.toml",
        rel=tiny_release / "rel",
        run=scored / "run",
        disk="{disk}",
    )
    disk = tmp_path / "disk"
    done = on_small_disk(
        disk, size_kb(before) + FREE[free], f"{cli_path()} {arguments}", tmp_path / "after", before
    )
    assert "Traceback" not in done.stderr, done.stderr
    _no_secret(_secrets(tiny_release), done.stdout, done.stderr)
    if done.returncode == 0:
        return
    _one_line(done, 1, f"packetbench: error: {disk}/", "cannot write (No space left on device)")
    assert tree(tmp_path / "after") == tree(before)
    assert sorted(p.name for p in (tmp_path / "after").iterdir()) == sorted(first)


@small_disk
@pytest.mark.slow
def test_a_leaderboard_forced_on_a_full_disk_keeps_all_three_old_files(
    tiny_release: Path, scored: Path, tmp_path: Path
) -> None:
    """Room for the new Markdown, not for the HTML beside it: the old board stays whole."""
    before = tmp_path / "before"
    shutil.copytree(scored / "board", before / "board")
    markdown = (before / "board" / "leaderboard.md").stat().st_size // 1024 + 4
    done = on_small_disk(
        tmp_path / "disk",
        size_kb(before) + markdown + 4,
        f"{cli_path()} leaderboard {scored}/run --release {tiny_release}/rel "
        "--out {disk}/board --force",
        tmp_path / "after",
        before,
    )
    _one_line(done, 1, "/disk/board/leaderboard.", "cannot write (No space left on device)")
    assert tree(tmp_path / "after") == tree(before)


@small_disk
@pytest.mark.slow
@pytest.mark.parametrize("command", ["score", "export"])
def test_a_full_disk_names_the_lock_or_the_parquet_file(
    tiny_release: Path, scored: Path, tmp_path: Path, command: str
) -> None:
    """Not "standard output": the file that could not be written (`score`'s lock on a disk
    full to its last byte, `export`'s Parquet file on a disk with room for its folder), and
    no empty lock file left behind."""
    before = tmp_path / "before"
    shutil.copytree(scored / "run", before / "run")
    args = {
        "score": f"score {{disk}}/run --packets {tiny_release}/rel/dev",
        "export": f"release export {tiny_release}/rel --out {{disk}}/data --dpi 36",
    }[command]
    done = on_small_disk(
        tmp_path / "disk", size_kb(before) + 60, f"{cli_path()} {args}", tmp_path / "after",
        before, fill=command == "score",
    )  # fmt: skip
    named = {"score": "disk/run/.packetbench.lock", "export": "disk/data/dev.parquet"}[command]
    line = _one_line(done, 1, f"{named}: cannot write (No space left on device)")
    assert "standard output" not in line
    assert tree(tmp_path / "after") == tree(before)


@pytest.mark.slow
def test_a_run_of_the_test_split_is_refused_naming_no_seed(
    tiny_release: Path, tmp_path: Path, run_cli: RunCli
) -> None:
    """The run records its packets by id (N1-<seed>): the checks name a packet the release
    holds by its folder there, and one it does not hold by its place in the run."""
    secrets = _secrets(tiny_release)
    run = tmp_path / "run"
    done = run_cli(
        "extract", "--provider", "sim", "--packets", str(tiny_release / "rel" / "test"),
        "--out", str(run), "--limit", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    checked = run_cli("leaderboard", "--check", str(run), "--release", str(tiny_release / "rel"))
    assert checked.returncode == 1, checked.stderr
    assert re.search(r"covers 1 of the \d+ documents of packet test/N1-t001 ", checked.stderr)
    _no_secret(secrets, checked.stdout, checked.stderr)
    info = (run / "run.json").read_text(encoding="utf-8")
    truth = info.split('"packet_truth_sha256": "')[1][:64]
    (run / "run.json").write_text(info.replace(truth, "0" * 64), encoding="utf-8")
    checked = run_cli("leaderboard", "--check", str(run), "--release", str(tiny_release / "rel"))
    assert checked.returncode == 1, checked.stderr
    assert "packet 1 of the run's 1 is not a packet of release tiny 1.0" in checked.stderr
    _no_secret(secrets, checked.stdout, checked.stderr)


def test_a_seed_file_refused_names_no_private_seed(tmp_path: Path) -> None:
    from packetbench.benchmark.release.spec import load_seeds
    from packetbench.core.errors import BadInput

    large = 2**63 - 1  # a private seed's size: its two packets' seeds run past 2**63 - 1
    path = tmp_path / "seeds.toml"
    path.write_text(
        f'release = "tiny"\ndraw = 1\nsalt = "{"ab" * 32}"\n[seeds]\nN1 = {large}\n',
        encoding="utf-8",
    )
    with pytest.raises(BadInput) as refused:
        load_seeds(path, "tiny", ["N1"], 2)
    assert "seeds.N1: its 2 seeds run past 2**63 - 1" in str(refused.value)
    _no_secret([str(large).encode(), f"{large:x}".encode()], str(refused.value))


def test_a_crash_of_a_test_packet_is_told_without_its_seed(tmp_path: Path) -> None:
    """Whatever a generator error says, its seed and the packet id carrying it are taken
    out before it leaves the task; the crash is named by position."""
    from packetbench.benchmark.release.generation import TestPacket, _without_seed
    from packetbench.generator.errors import LayoutError

    seed = 3324221011556111977
    packet = TestPacket("N1", seed, {}, 3, tmp_path, tmp_path, 7, 40)
    for error in (
        KeyError(f"N1-{seed}/acord_125"),
        LayoutError(f"packet N1-{seed}: row {seed} overflows"),
    ):
        told = _without_seed(error, packet)
        assert str(seed) not in str(told), told
        assert "N1-t003" in str(told) and type(error).__name__ in str(told)
    assert packet.label == "test packet 7 of 40 (N1-t003)"
