"""The glossary: one meaning per word, the code's own names among its words, and a report
that defines every word it links and links every word it defines."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest

from packetbench.benchmark.report.glossary import report_words, sections, word
from packetbench.benchmark.report.render import write_report
from tests.support.paths import ROOT
from tests.support.runs import ScoredRun


def _all() -> list[str]:
    return [w.term for _, words in sections() for w in words]


def test_one_meaning_per_word() -> None:
    terms = [t.lower() for t in _all()]
    assert len(terms) == len(set(terms)), sorted(t for t in terms if terms.count(t) > 1)
    for _, words in sections():
        for entry in words:
            assert entry.meaning.endswith(".") and "`" not in entry.meaning, entry.term
            if entry.page:
                assert (ROOT / "docs" / entry.page.split("#")[0]).is_file(), entry.page


def test_the_words_are_the_code_s_own_names() -> None:
    """The verdicts, the field outcomes, the record statuses and the audit's verdicts are
    spelled as the scorer, the results and the audit spell them."""
    from packetbench.audit.result import FAILED, NOT_VERIFIED, PASSED
    from packetbench.benchmark.records import Status
    from packetbench.benchmark.score.verdicts import VERDICTS

    terms = set(_all())
    assert set(VERDICTS) <= terms
    assert {"correct", "wrong", "omitted", "abstained", "answered"} <= terms
    spelled = " ".join(w.code or "" for _, words in sections() for w in words)
    for status in get_args(Status):
        assert status in terms or f"status: {status}" in spelled or f", {status}" in spelled
    for status in (PASSED, NOT_VERIFIED, FAILED):
        assert f'"status": "{status}"' in spelled
    # the words the issue named as used before they were defined
    for term in (
        "tier",
        "knob",
        "universe",
        "located value",
        "visible string",
        "faithfulness",
        "over-refusal",
        "pixel rule",
        "abstention test",
    ):
        assert word(term).meaning


@pytest.mark.slow
def test_the_report_defines_what_it_links_and_links_what_it_defines(
    scored_run: ScoredRun, tmp_path: Path
) -> None:
    html = write_report([scored_run("typical", 1)], tmp_path).html.read_text(encoding="utf-8")
    body, words = html.split('<h2 id="words">')
    linked = set(re.findall(r'<a class="w" href="#(w-[^"]+)"', body))
    defined = re.findall(r'<dt id="(w-[^"]+)">([^<]+)</dt>', words)
    assert [term for _, term in defined] == [w.term for w in report_words()]
    assert {anchor for anchor, _ in defined} == linked
    assert '<li><a href="#words">Words used in this report</a></li>' in body
