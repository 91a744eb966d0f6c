"""Reading untrusted files: regular files only, within a ceiling, and never blocking."""

from __future__ import annotations

import os
import re
import socket
import threading
from pathlib import Path

import pytest

from packetbench.core import safe_read
from packetbench.core.errors import BadInput


def test_a_regular_file_and_a_symlink_to_one_are_read(tmp_path: Path) -> None:
    path = tmp_path / "truth.json"
    path.write_bytes(b'{"a": 1}' * 200_000)
    (tmp_path / "link.json").symlink_to(path)
    assert safe_read.read_bytes(path, "truth") == path.read_bytes()
    assert safe_read.read_bytes(tmp_path / "link.json", "truth") == path.read_bytes()
    assert safe_read.read_text(path, "truth").startswith('{"a": 1}')
    import hashlib

    assert safe_read.sha256(path, "truth") == hashlib.sha256(path.read_bytes()).hexdigest()
    assert safe_read.check_file(path, "truth") == path.stat().st_size


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "field_truth_sov_pdf.json"
    os.mkfifo(path)
    done: list[BaseException] = []

    def read() -> None:
        for reader in (safe_read.read_bytes, safe_read.sha256):
            try:
                reader(path, "truth")
            except safe_read.UnsafeFile as error:
                done.append(error)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), "reading a FIFO blocked"
    assert [str(e) for e in done] == [
        f"{path}: a FIFO, not a regular file; refusing to read it"
    ] * 2
    with pytest.raises(safe_read.UnsafeFile, match="a FIFO"):
        safe_read.check_file(path, "truth")


def test_devices_folders_and_sockets_are_refused(tmp_path: Path) -> None:
    (tmp_path / "zero.pdf").symlink_to("/dev/zero")
    with pytest.raises(safe_read.UnsafeFile, match=r"zero\.pdf: a device"):
        safe_read.read_bytes(tmp_path / "zero.pdf", "document")
    with pytest.raises(safe_read.UnsafeFile, match="a folder"):
        safe_read.read_bytes(tmp_path, "truth")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "s.json"))
        with pytest.raises(safe_read.UnsafeFile, match="a socket"):
            safe_read.check_file(tmp_path / "s.json", "truth")


def test_a_file_above_its_ceiling_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    with path.open("wb") as out:  # sparse: nothing is written but its size
        out.truncate(safe_read.CEILINGS["settings"] + 1)
    with pytest.raises(safe_read.UnsafeFile, match="larger than a settings file may be"):
        safe_read.read_bytes(path, "settings")
    assert len(safe_read.read_bytes(path, "truth")) == safe_read.CEILINGS["settings"] + 1


def test_missing_files_raise_what_an_ordinary_read_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        safe_read.read_bytes(tmp_path / "none.json", "truth")


DEEP = 10_000


@pytest.mark.parametrize(
    ("label", "text"),
    [
        ("arrays", "x = " + "[" * DEEP + "]" * DEEP),
        ("inline tables", "x = " + "{a = " * DEEP + "1" + "}" * DEEP),
        ("dotted keys", "a." * 1_000 + "b = 1"),  # read whole (slowly), then refused
        ("a table header", "[" + "a." * 1_000 + "b]"),
        ("600 arrays", "x = " + "[" * 600 + "]" * 600),
    ],
)
def test_toml_nested_past_the_limit_is_one_line(tmp_path: Path, label: str, text: str) -> None:
    """Python's TOML reader recurses (a RecursionError at a few hundred levels); what it
    reads whole (dotted keys) would be walked recursively after: both are "not TOML"."""
    path = tmp_path / "spec.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as refused:
        safe_read.toml_file(path, "a release spec")
    assert str(refused.value) == f"{path}: not TOML (nested deeper than 100 levels)", label


def test_json_nested_past_the_limit_is_refused(tmp_path: Path) -> None:
    """orjson stops at 1,024 levels; what it reads whole is refused past 100, before a reader
    walks it recursively."""
    for text in ("[" * DEEP + "]" * DEEP, '{"a":' * 500 + "1" + "}" * 500):
        with pytest.raises(ValueError) as refused:
            safe_read.parse_json(text)
        assert "\n" not in str(refused.value)
    with pytest.raises(ValueError, match="nested deeper than 100 levels"):
        safe_read.parse_json('{"a":' * 500 + "1" + "}" * 500)


def test_settings_files_are_named_for_every_way_they_are_wrong(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    with pytest.raises(BadInput, match=re.escape("rules.toml: missing (a rules file)") + "$"):
        safe_read.toml_file(path, "a rules file")
    os.mkfifo(path)
    with pytest.raises(
        safe_read.UnsafeFile, match=re.escape("rules.toml: a FIFO, not a regular file")
    ):
        safe_read.toml_file(path, "a rules file")
    path.unlink()
    path.write_bytes(b'x = "\xff"')
    with pytest.raises(BadInput, match=re.escape("rules.toml: not UTF-8 text") + "$"):
        safe_read.toml_file(path, "a rules file")
    path.write_text("x = [1,", encoding="utf-8")
    with pytest.raises(BadInput, match=re.escape("rules.toml: not TOML (")):
        safe_read.toml_file(path, "a rules file")
    path.write_text('[[rule]]\nmetric = "x"\n', encoding="utf-8")
    assert safe_read.toml_file(path, "a rules file") == {"rule": [{"metric": "x"}]}
