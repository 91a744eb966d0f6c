"""Corpora: corpus.json and corpus.lock describe every byte of a folder of packets;
`packetbench corpus verify` names the first file that differs."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from packetbench.generator import corpus
from packetbench.generator.generation import generate

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    generate("N1", 1, 2, out)
    return out


def _copy(source: Path, target: Path) -> Path:
    subprocess.run(["cp", "-a", str(source), str(target)], check=True)
    return target


def test_corpus_json_lists_every_packet_and_its_lock_is_sha256sum_format(made: Path) -> None:
    data = json.loads((made / "corpus.json").read_text(encoding="utf-8"))
    assert [e["packet_id"] for e in data["entries"]] == ["N1-000001", "N1-000002"]
    assert data["by_tier"] == {"N1": 2} and data["packets"] == 2
    files = sorted(p.relative_to(made).as_posix() for p in made.glob("N1-*/*"))
    assert data["files"] == len(files)
    check = subprocess.run(
        ["sha256sum", "-c", "--strict", "corpus.lock"],
        cwd=made,
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert len(check.stdout.splitlines()) == len(files)
    assert data["digest"] == corpus.digest(corpus.read(made).entries)


@pytest.mark.slow
def test_a_changed_byte_in_any_file_is_named(made: Path, tmp_path: Path) -> None:
    copy = _copy(made, tmp_path / "c")
    assert corpus.verify(copy).digest == corpus.read(made).digest
    names = sorted(p.relative_to(copy) for p in copy.rglob("*") if p.is_file())
    assert len(names) > 200
    for name in names:
        path = copy / name
        original = path.read_bytes()
        changed = bytearray(original)
        middle = len(changed) // 2
        changed[middle] ^= 0x01
        path.write_bytes(bytes(changed))
        with pytest.raises(corpus.CorpusMismatch) as caught:
            corpus.verify(copy)
        # A packet's file is named itself; corpus.json and corpus.lock name themselves.
        assert str(path) in str(caught.value), (name, str(caught.value))
        path.write_bytes(original)
    corpus.verify(copy)


def test_verify_cli_exit_codes(made: Path, tmp_path: Path, run_cli: Run) -> None:
    copy = _copy(made, tmp_path / "c")
    ok = run_cli("corpus", "verify", str(copy))
    digest = corpus.read(made).digest
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip().endswith(f"match corpus.json; digest {digest}")
    (copy / "N1-000002" / "notes.txt").write_text("mine")
    extra = run_cli("corpus", "verify", str(copy))
    assert extra.returncode == 1
    assert extra.stderr.splitlines() == [
        f"packetbench: corpus mismatch: {copy / 'N1-000002' / 'notes.txt'}: not in corpus.lock"
    ]
    (copy / "N1-000002" / "notes.txt").unlink()
    (copy / "N1-000001" / "acord_125.pdf").unlink()
    gone = run_cli("corpus", "verify", str(copy))
    assert gone.returncode == 1 and "N1-000001/acord_125.pdf: missing" in gone.stderr
    none = run_cli("corpus", "verify", str(tmp_path))
    assert none.returncode == 2
    assert none.stderr.startswith(f"packetbench: error: {tmp_path / 'corpus.json'}: missing")


def test_extending_a_corpus_gives_the_digest_of_one_batch(made: Path, tmp_path: Path) -> None:
    out = tmp_path / "grown"
    generate("N1", 2, 1, out)
    generate("N1", 1, 1, out)
    assert corpus.verify(out).digest == corpus.read(made).digest
    assert (out / "corpus.lock").read_bytes() == (made / "corpus.lock").read_bytes()


def test_a_new_packets_entry_is_what_reading_it_back_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch hashes each packet's files as it writes them (`corpus.entry_written`), not by
    reading them back; the entry and lock are those read from the folder (`entry_of`)."""
    from packetbench.core import safe_read

    read: list[str] = []
    for name in ("sha256", "read_bytes"):
        original = getattr(safe_read, name)

        def counted(
            path: Path, kind: str, *, _original: Callable[..., object] = original
        ) -> object:
            read.append(Path(path).name)
            return _original(path, kind)

        monkeypatch.setattr(safe_read, name, counted)
    generate("N1", 5, 1, tmp_path)
    assert not [name for name in read if name != "corpus.json"], read
    monkeypatch.undo()
    folder = tmp_path / "N1-000005"
    files = {path.name: path.read_bytes() for path in folder.iterdir()}
    assert corpus.entry_written(files) == corpus.entry_of(folder)
    lines = (tmp_path / "corpus.lock").read_text(encoding="utf-8").splitlines()
    assert lines == [f"{sha}  N1-000005/{name}" for sha, name in corpus.packet_lock(folder)]
