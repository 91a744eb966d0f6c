"""The report's grounding section: a cited run's rates with intervals, a run without
citations named as absent (not zero), and the section rendered in headless Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from packetbench.benchmark.report.render import write_report
from tests.support.chromium import section_table
from tests.support.small_runs import small_run


@pytest.mark.slow
def test_grounding_section(cited_and_plain: tuple[Path, Path], tmp_path: Path) -> None:
    cited, plain = cited_and_plain
    files = write_report([cited, plain], tmp_path / "report")
    text = files.markdown.read_text(encoding="utf-8")
    section = text[text.index("## 10. Grounding: citations") :]
    for label in (
        "Citation recall",
        "Citation precision, page",
        "Citation precision, box",
        "Grounding F1, value",
        "Grounding F1, page",
        "Grounding F1, box",
        "Right, ungrounded",
        "Hallucinated but cited",
    ):
        row = next(line for line in section.splitlines() if line.startswith(f"| {label} |"))
        assert "| cited |" in row and "[" in row, row  # the cited run, with an interval
        assert "| plain |" not in section.split("No citations")[0]
    assert "No citations (no grounding rows, not zero): `plain`" in section
    shown = section_table(files.html, "grounding", tmp_path / "grounding.png")
    if shown is None:
        return
    assert "Citation precision, box" in shown and "cited" in shown
    assert (tmp_path / "grounding.png").stat().st_size > 10_000


def test_grounding_section_of_two_documents(tmp_path: Path) -> None:
    """The fast tier's check (Markdown only, no browser): the cited run's rates with their
    intervals, the uncited run named as absent and in no row."""
    cited = small_run(tmp_path / "cited")
    plain = small_run(tmp_path / "plain", cite=None)
    files = write_report([cited, plain], tmp_path / "report")
    text = files.markdown.read_text(encoding="utf-8")
    section = text[text.index("## 10. Grounding: citations") :]
    for label in ("Citation recall", "Citation precision, box", "Grounding F1, page"):
        row = next(line for line in section.splitlines() if line.startswith(f"| {label} |"))
        assert "| cited |" in row and "[" in row, row
    assert "| plain |" not in section.split("No citations")[0]
    assert "No citations (no grounding rows, not zero): `plain`" in section
