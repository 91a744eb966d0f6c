"""One tiny release (an N1 packet per split) built once for the release tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.releases import RunCli, build, write_spec


@pytest.fixture(scope="session")
def tiny_release(tmp_path_factory: pytest.TempPathFactory, run_cli: RunCli) -> Path:
    """A folder holding spec.toml, private/seeds.toml and the release rel/ (read-only to
    the tests: each writes beside it, never into it)."""
    folder = tmp_path_factory.mktemp("release")
    write_spec(folder)
    build(run_cli, folder)
    return folder
