"""compare on grounding rates: paired rates with intervals and Holm-corrected sign tests for
runs that both cited; a run without citations is named absent, never compared as zero."""

from __future__ import annotations

from pathlib import Path

import pytest

from packetbench.benchmark.extract import extract
from packetbench.benchmark.providers.sim import SimProvider
from packetbench.benchmark.report.comparison import compare_runs
from packetbench.benchmark.results import load_run
from packetbench.benchmark.score.scorer import score_run
from tests.benchmark.grounding.conftest import PACKET
from tests.support.small_runs import small_run


@pytest.mark.slow
def test_compare_grounding(cited_and_plain: tuple[Path, Path], tmp_path: Path) -> None:
    cited, plain = cited_and_plain
    sloppy = tmp_path / "sloppy"
    extract(SimProvider("sloppy", 1, cite="box"), PACKET, sloppy)
    score_run(sloppy, PACKET)
    load_run(sloppy, PACKET)
    result = compare_runs([cited, plain, sloppy])
    grounding = result["grounding"]
    assert grounding["absent"] == ["plain"]
    (pair,) = grounding["pairs"]
    assert (pair["a"], pair["b"]) == ("cited", "sloppy")
    precision = pair["rates"]["citation_precision_box"]
    # the sloppy profile cites right less often and cuts half its boxes to IoU 0.3
    assert precision["difference"] < 0
    low, high = precision["ci_documents"]
    assert low is not None and high is not None and low <= precision["difference"] <= high
    test = pair["sign_tests"]["citation_precision_page"]
    assert test["p_holm"] is not None and test["significant"]
    one = compare_runs([plain, cited])["grounding"]  # one run cited: nothing to pair
    assert one["absent"] == ["plain"] and one["pairs"] == []


def test_compare_grounding_on_two_documents(tmp_path: Path) -> None:
    """The fast tier's check: two documents of a cited, a sloppy and an uncited run; the
    uncited one is named absent, the two that cited are paired with an interval that holds
    the difference (the sloppy profile cites worse)."""
    cited = small_run(tmp_path / "cited")
    plain = small_run(tmp_path / "plain", cite=None)
    sloppy = small_run(tmp_path / "sloppy", "sloppy")
    grounding = compare_runs([cited, plain, sloppy])["grounding"]
    assert grounding["absent"] == ["plain"]
    (pair,) = grounding["pairs"]
    assert (pair["a"], pair["b"]) == ("cited", "sloppy")
    precision = pair["rates"]["citation_precision_box"]
    assert 0 <= precision["b"] < precision["a"] <= 1
    assert precision["difference"] == pytest.approx(precision["b"] - precision["a"], abs=1e-5)
    low, high = precision["ci_documents"]
    assert low is not None and high is not None and low <= precision["difference"] <= high
    assert pair["sign_tests"]["citation_precision_page"]["documents"] == 2
