"""Workbooks are written in memory: no temporary file a sheet, the same bytes as openpyxl's
own writer makes through its temporary files."""

from __future__ import annotations

import io
import zipfile

import pytest
from openpyxl.worksheet import _writer
from openpyxl.writer.excel import ExcelWriter

from packetbench.generator.packet import build_packet
from packetbench.generator.render import xlsx
from packetbench.generator.tiers import resolve


def _workbooks(seed: int) -> dict[str, bytes]:
    files = build_packet("N1", seed, resolve("N1")).files
    return {name: data for name, data in files.items() if name.endswith(".xlsx")}


def test_workbooks_are_written_without_temporary_files_and_as_openpyxl_writes_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_file(suffix: str = "") -> str:
        raise AssertionError("a worksheet went through a temporary file")

    with monkeypatch.context() as patched:
        patched.setattr(_writer, "create_temporary_file", no_file)
        ours = _workbooks(3)
    with monkeypatch.context() as patched:
        patched.setattr(xlsx, "_MemoryWriter", ExcelWriter)
        theirs = _workbooks(3)
    assert ours and ours.keys() == theirs.keys()
    for name, data in ours.items():
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/sheet")]
            assert sheets and all(archive.read(n).startswith(b"<worksheet") for n in sheets)
        assert data == theirs[name], name
