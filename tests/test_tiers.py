"""Every test file keeps at least one test in the fast tier (`make test`, which deselects the
`slow`, `sweep` and `e2e` markers), so a quick run still touches every feature.

The check is static and cheap: each test file is parsed with `ast`, never imported. A test
counts as fast unless it is marked out of the fast tier by the module's `pytestmark`, its
class (decorator or `pytestmark` attribute) or its own decorators; when it is parametrized,
every `parametrize` must keep at least one value not marked out (`pytest.param(...,
marks=...)`). Values that are not written out as a list (built by a call) are taken as
holding a fast one. The repository's conftest hooks only reorder tests, they mark none.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from tests.support.paths import ROOT

OUT = frozenset({"slow", "sweep", "e2e"})  # the markers `make test` deselects


def _tier_marks(node: ast.expr) -> set[str]:
    """The tier markers an expression applies: `pytest.mark.slow`, `mark.sweep(...)`, or a
    list or tuple of such."""
    if isinstance(node, ast.List | ast.Tuple):
        return set().union(*(_tier_marks(e) for e in node.elts))
    if isinstance(node, ast.Call):
        node = node.func
    if (
        isinstance(node, ast.Attribute)
        and node.attr in OUT
        and (
            (isinstance(node.value, ast.Attribute) and node.value.attr == "mark")
            or (isinstance(node.value, ast.Name) and node.value.id == "mark")
        )
    ):
        return {node.attr}
    return set()


def _is_parametrize(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "parametrize"
    )


def _param_marks(value: ast.expr) -> set[str]:
    """The tier markers of one parametrize value (`pytest.param(..., marks=...)`)."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute | ast.Name):
        name = value.func.attr if isinstance(value.func, ast.Attribute) else value.func.id
        if name == "param":
            return set().union(*(_tier_marks(k.value) for k in value.keywords if k.arg == "marks"))
    return set()


def _some_value_fast(call: ast.Call, names: dict[str, ast.expr]) -> bool:
    """Whether a `parametrize(...)` keeps at least one value out of every tier marker."""
    values = call.args[1] if len(call.args) > 1 else None
    values = next((k.value for k in call.keywords if k.arg == "argvalues"), values)
    if isinstance(values, ast.Name) and values.id in names:
        values = names[values.id]
    if not isinstance(values, ast.List | ast.Tuple):
        return True  # built at collection (a call, a comprehension): assumed to hold one
    return any(not _param_marks(v) for v in values.elts)


def _pytestmark(body: Iterable[ast.stmt]) -> set[str]:
    """The tier markers of the `pytestmark` assigned in a module's or a class's body."""
    marks: set[str] = set()
    for stmt in body:
        targets = (
            stmt.targets
            if isinstance(stmt, ast.Assign)
            else [stmt.target]
            if isinstance(stmt, ast.AnnAssign)
            else []
        )
        value = getattr(stmt, "value", None)
        if value is not None and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in targets
        ):
            marks |= _tier_marks(value)
    return marks


def _fast(
    function: ast.FunctionDef | ast.AsyncFunctionDef, names: dict[str, ast.expr], inherited: bool
) -> bool:
    if inherited:
        return False
    for decorator in function.decorator_list:
        if _tier_marks(decorator):
            return False
        if _is_parametrize(decorator):
            assert isinstance(decorator, ast.Call)
            if not _some_value_fast(decorator, names):
                return False
    return True


def fast_tests(source: str) -> list[str]:
    """The names of the tests of a test module's source that the fast tier runs."""
    tree = ast.parse(source)
    names = {
        target.id: stmt.value
        for stmt in tree.body
        if isinstance(stmt, ast.Assign)
        for target in stmt.targets
        if isinstance(target, ast.Name)
    }
    module_out = bool(_pytestmark(tree.body))
    found: list[str] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name.startswith(
            "test"
        ):
            if _fast(stmt, names, module_out):
                found.append(stmt.name)
        elif isinstance(stmt, ast.ClassDef) and stmt.name.startswith("Test"):
            class_out = (
                module_out
                or any(_tier_marks(d) for d in stmt.decorator_list)
                or bool(_pytestmark(stmt.body))
            )
            found += [
                f"{stmt.name}::{method.name}"
                for method in stmt.body
                if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef)
                and method.name.startswith("test")
                and _fast(method, names, class_out)
            ]
    return found


def files_without_fast_tests(folder: Path) -> list[str]:
    """The test files under `folder` (as pytest finds them: test_*.py, *_test.py) with no
    test in the fast tier, relative to `folder`, sorted."""
    files = {*folder.rglob("test_*.py"), *folder.rglob("*_test.py")}
    return sorted(
        path.relative_to(folder).as_posix()
        for path in files
        if not fast_tests(path.read_text(encoding="utf-8"))
    )


def test_every_test_file_has_a_fast_test() -> None:
    missing = files_without_fast_tests(ROOT / "tests")
    assert not missing, f"test files with no test in the fast tier (make test): {missing}"


def test_the_check_sees_every_way_out_of_the_fast_tier() -> None:
    """Each way a test leaves the fast tier is seen, and a single fast case keeps it in."""
    assert fast_tests("import pytest\ndef test_a(): pass\ndef helper(): pass\n") == ["test_a"]
    out = [
        "pytestmark = pytest.mark.slow\ndef test_a(): pass\n",
        "pytestmark = [pytest.mark.skipif(False, reason=''), pytest.mark.e2e]\n"
        "def test_a(): pass\n",
        "pytestmark: list[object] = [pytest.mark.slow]\ndef test_a(): pass\n",
        "@pytest.mark.sweep\ndef test_a(): pass\n",
        "@pytest.mark.slow(reason='long')\ndef test_a(): pass\n",
        "@pytest.mark.slow\nclass TestA:\n    def test_a(self): pass\n",
        "class TestA:\n    pytestmark = pytest.mark.e2e\n    def test_a(self): pass\n",
        "@pytest.mark.parametrize('x', [pytest.param(1, marks=pytest.mark.slow),"
        " pytest.param(2, marks=[pytest.mark.sweep])])\ndef test_a(x): pass\n",
        "CASES = [pytest.param(1, marks=pytest.mark.slow)]\n"
        "@pytest.mark.parametrize('x', CASES)\ndef test_a(x): pass\n",
        "@pytest.mark.parametrize('x', [1, 2])\n"
        "@pytest.mark.parametrize('y', [pytest.param(1, marks=pytest.mark.slow)])\n"
        "def test_a(x, y): pass\n",
    ]
    for source in out:
        assert fast_tests("import pytest\n" + source) == [], source
    kept = [
        "@pytest.mark.parametrize('x', [1, pytest.param(2, marks=pytest.mark.slow)])\n"
        "def test_a(x): pass\n",
        "@pytest.mark.parametrize('x', [pytest.param(1, marks=())])\ndef test_a(x): pass\n",
        "@pytest.mark.parametrize('x', cases())\ndef test_a(x): pass\n",
        "@pytest.mark.skipif(True, reason='')\ndef test_a(): pass\n",
        "@pytest.mark.slow\ndef test_b(): pass\ndef test_a(): pass\n",
    ]
    for source in kept:
        assert fast_tests("import pytest\n" + source) == ["test_a"], source
    assert fast_tests("class TestA:\n    def test_a(self): pass\n") == ["TestA::test_a"]


def test_a_folder_is_searched_as_pytest_finds_test_files(tmp_path: Path) -> None:
    """Nested folders, both file name patterns; helpers and conftest files are not test files."""
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "test_fast.py").write_text("def test_a(): pass\n")
    slow = "import pytest\npytestmark = pytest.mark.slow\ndef test_a(): pass\n"
    (tmp_path / "a" / "b" / "test_slow.py").write_text(slow)
    (tmp_path / "a" / "b" / "slow_test.py").write_text(slow)
    (tmp_path / "a" / "conftest.py").write_text(slow)
    (tmp_path / "a" / "helpers.py").write_text(slow)
    assert files_without_fast_tests(tmp_path) == ["a/b/slow_test.py", "a/b/test_slow.py"]
