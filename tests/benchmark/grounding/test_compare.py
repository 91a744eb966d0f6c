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
