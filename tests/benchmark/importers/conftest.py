"""The two-document nightmare corpus of tests/support/corpus_fixture.py, once per module."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.corpus_fixture import write_corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("nightmare"))
