"""The import graph's limits: no cycle of more than 3 modules, imports inside functions and
for type checking counted, and at most 5 imports running upward against the benchmark half's
layers.

The graph and its layers are `benchmarks/imports.py`'s, which prints them:
`python benchmarks/imports.py` (add `--typing` to count TYPE_CHECKING imports as well).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.benchmarks import load_benchmark
from tests.support.paths import ROOT

MAX_CYCLE = 3
MAX_UPWARD = 5


def _checker() -> ModuleType:
    return load_benchmark("imports")


@pytest.fixture(scope="module")
def checker() -> ModuleType:
    return _checker()


@pytest.fixture(scope="module")
def graph(checker: ModuleType) -> Any:
    return checker.build(ROOT / "src")


def test_no_cycle_of_more_than_three_modules(checker: ModuleType, graph: Any) -> None:
    assert len(graph.modules) > 400
    too_long = [c for c in checker.cycles(graph) if len(c) > MAX_CYCLE]
    assert too_long == [], f"import cycles of more than {MAX_CYCLE} modules: {too_long}"


def test_no_cycle_of_more_than_three_modules_counting_type_only_imports(
    checker: ModuleType,
) -> None:
    """A cycle held together by TYPE_CHECKING imports alone still ties its modules together
    for a reader (and for a type checker): the same limit holds."""
    typed = checker.build(ROOT / "src", typing=True)
    too_long = [c for c in checker.cycles(typed) if len(c) > MAX_CYCLE]
    assert too_long == [], f"import cycles of more than {MAX_CYCLE} modules: {too_long}"


def test_few_imports_run_upward_in_the_benchmark_half(checker: ModuleType, graph: Any) -> None:
    upward = checker.upward(graph)
    assert len(upward) <= MAX_UPWARD, upward


def test_every_benchmark_module_has_a_layer(checker: ModuleType, graph: Any) -> None:
    """A new module of the benchmark half is placed in a layer (the top one, the pipeline's,
    only by name): one left out would be above everything and never import upward."""
    top = [
        m
        for m in graph.modules
        if m.startswith("packetbench.benchmark.")
        and checker.layer(m) == len(checker.LAYERS)
        and m != "packetbench.benchmark.errors"
    ]
    assert top == []


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "packetbench" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_a_cycle_held_open_by_imports_inside_functions_is_found(
    checker: ModuleType, tmp_path: Path
) -> None:
    """The checker sees what the 22-module cycle hid behind: an import inside a function, a
    relative import, a module imported from its package; an import under TYPE_CHECKING only
    with --typing."""
    src = _package(
        tmp_path,
        {
            "__init__.py": "",
            "benchmark/__init__.py": "",
            "benchmark/runs.py": "def read():\n    from packetbench.benchmark import repeats\n",
            "benchmark/repeats.py": "from .extract import go\n",
            "benchmark/extract.py": (
                "def go():\n    from packetbench.benchmark.harness.session import run\n"
            ),
            "benchmark/harness/__init__.py": "",
            "benchmark/harness/session.py": (
                "from typing import TYPE_CHECKING\n"
                "import packetbench.benchmark.runs\n"
                "if TYPE_CHECKING:\n    from packetbench.benchmark.pipeline import Options\n"
                "def run(): ...\n"
            ),
            "benchmark/pipeline.py": "from packetbench.benchmark.harness import session\n",
        },
    )
    graph = checker.build(src)
    assert checker.cycles(graph) == [
        [
            "packetbench.benchmark.extract",
            "packetbench.benchmark.harness.session",
            "packetbench.benchmark.repeats",
            "packetbench.benchmark.runs",
        ]
    ]
    # runs (the lowest layer) importing repeats (a run made) runs upward
    assert checker.upward(graph) == [
        ("packetbench.benchmark.runs", "packetbench.benchmark.repeats")
    ]
    typed = checker.build(src, typing=True)
    assert [len(c) for c in checker.cycles(typed)] == [5]
    assert ("packetbench.benchmark.harness.session", "packetbench.benchmark.pipeline") in (
        checker.upward(typed)
    )
