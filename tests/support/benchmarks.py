"""The scripts under benchmarks/ as modules, for the tests that check their functions."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from tests.support.paths import ROOT


def load_benchmark(stem: str) -> ModuleType:
    """benchmarks/<stem>.py imported (not run), registered in sys.modules first: dataclasses
    look their module up while they are built."""
    spec = importlib.util.spec_from_file_location(
        f"benchmark_{stem}", ROOT / "benchmarks" / f"{stem}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
