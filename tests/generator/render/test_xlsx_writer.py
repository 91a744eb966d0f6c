"""Workbooks are written in memory: no temporary file a sheet, the same bytes as openpyxl's
own writer makes through its temporary files."""

from __future__ import annotations

import gc
import io
import weakref
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


def test_a_stylesheet_is_built_once_for_each_set_of_styles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Our writer reuses the stylesheet openpyxl built for a workbook with the same style
    lists (`xlsx._stylesheet`): fewer are built than workbooks written, and every workbook
    is still the bytes openpyxl's own writer makes; openpyxl's writer outside ours builds
    its own every time."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    built: list[int] = []
    stock = xlsx._STOCK_STYLESHEET

    def counted(wb: Workbook) -> object:
        built.append(id(wb))
        return stock(wb)

    monkeypatch.setattr(xlsx, "_STOCK_STYLESHEET", counted)
    monkeypatch.setattr(xlsx, "_KEPT_STYLESHEETS", {})
    ours = {**_workbooks(3), **{f"4-{n}": d for n, d in _workbooks(4).items()}}
    assert 0 < len(built) < len(ours) and len(xlsx._KEPT_STYLESHEETS) == len(built)
    with monkeypatch.context() as patched:
        patched.setattr(xlsx, "_MemoryWriter", ExcelWriter)
        theirs = {**_workbooks(3), **{f"4-{n}": d for n, d in _workbooks(4).items()}}
    assert ours == theirs

    def styles(bold: bool, writer: type[ExcelWriter]) -> bytes:
        wb = Workbook()
        wb.active["A1"] = "x"
        if bold:
            wb.active["A1"].font = Font(bold=True, size=13)
        raw = io.BytesIO()
        with xlsx._FixedTimeZip(raw, "w", zipfile.ZIP_DEFLATED) as archive:
            writer(wb, archive).save()
        with zipfile.ZipFile(raw) as archive:
            return archive.read("xl/styles.xml")

    plain, bold = styles(False, xlsx._MemoryWriter), styles(True, xlsx._MemoryWriter)
    assert plain != bold  # one font more: another stylesheet, not the kept one
    assert (plain, bold) == (styles(False, ExcelWriter), styles(True, ExcelWriter))
    before = len(built)
    styles(True, ExcelWriter)
    assert len(built) == before + 1  # outside our writer: openpyxl's own, built again
    wb = Workbook()
    wb.active["A1"] = "y"
    wb.active["A1"].font = Font(size=17)  # styles met nowhere else: its key is kept
    gone = weakref.ref(wb)
    xlsx._MemoryWriter(wb, zipfile.ZipFile(io.BytesIO(), "w")).save()
    del wb
    gc.collect()
    assert gone() is None  # a kept stylesheet's key does not keep its workbook alive
