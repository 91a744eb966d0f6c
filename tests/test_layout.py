"""The tests are laid out like the source, and a helper they share is written once.

Every folder under tests/ (tests/support/ and the top level aside, which hold the shared
helpers and the tests that span the whole project) is named for a package or module of
src/packetbench, so a module's tests are found where the module is. No module-level function
of tests/ has the body of another (its docstring aside): a helper two test files need lives in
tests/support/ and both import it. A function that reads a name its own module binds (a
constant, another helper) is that module's own and not counted as a copy. The check is
static: files are read as text and parsed with `ast` where two bodies match, never imported.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

from tests.support.paths import ROOT

TESTS = ROOT / "tests"
PACKAGE = ROOT / "src" / "packetbench"


def folders_without_source(tests: Path, package: Path) -> list[str]:
    """The test folders (support/ aside) that name no package or module under `package`."""
    found = []
    for folder in sorted(p for p in tests.rglob("*") if p.is_dir()):
        relative = folder.relative_to(tests)
        if relative.parts[0] == "support" or any(
            part == "__pycache__" or part.startswith(".") for part in relative.parts
        ):
            continue
        source = package / relative
        if not (source / "__init__.py").is_file() and not source.with_suffix(".py").is_file():
            found.append(relative.as_posix())
    return found


# A module's top-level statements start at column 0; a function runs until the next one
# (a line closing a bracket of its signature aside).
TOP = re.compile(r"^(?![\s)\]}#])", re.MULTILINE)
HELPER = re.compile(r"^(?:async )?def (?!test_)(\w+)", re.MULTILINE)
SIGNATURE_END = re.compile(r":\s*(#.*)?$")  # its colon, a `# type: ignore` after it
BINDS = re.compile(
    r"^(?:(?:async )?def |class )?([A-Za-z_]\w*)\b(?=\s*(?:\(|:|=|\+=))", re.MULTILINE
)


def _body(lines: list[str]) -> str:
    """The text of a function's body (its lines after the signature's closing colon) without
    its docstring; ruff formats the code, so a copy is the same text."""
    start = next((i for i, line in enumerate(lines) if SIGNATURE_END.search(line)), len(lines))
    end = len(lines)
    while end > start and (not lines[end - 1].strip() or lines[end - 1].startswith("#")):
        end -= 1  # the comments above the next statement are not this function's
    body = "\n".join(lines[start + 1 : end]).strip()
    if body.startswith('"""'):
        body = body[body.find('"""', 3) + 3 :].strip()
    return body


def _helpers(source: str) -> dict[str, str]:
    """The module-level functions of `source` that are not tests, by name, with their body's
    text: a function runs up to the next line at column 0 (no parsing: the test files are too
    much source to parse whole in a fast test). A body cut short by a string whose
    lines start at column 0, or taken from a `def` inside a string, is put right by
    `_checked`."""
    starts = [m.start() for m in TOP.finditer(source)] + [len(source)]
    return {
        match[1]: _body(
            source[match.start() : next(s for s in starts if s > match.start())].splitlines()
        )
        for match in HELPER.finditer(source)
    }


def _checked(source: str, names: set[str]) -> dict[str, str]:
    """The functions `names` of `source` as its parsed syntax has them, with their body's text,
    leaving out any that reads a name its module binds (then it is the module's own)."""
    lines = source.splitlines()
    bound = {m[1] for m in BINDS.finditer(source)}
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in names:
            reads = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            if not reads & (bound - {node.name}):
                found[node.name] = _body(lines[node.lineno - 1 : node.end_lineno])
    return found


def copied_helpers(tests: Path) -> list[list[str]]:
    """Groups of module-level functions (not tests) with one body, each "path:name"."""
    sources = {
        path.relative_to(tests).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(tests.rglob("*.py"))
    }

    def groups(helpers: dict[str, dict[str, str]]) -> list[list[str]]:
        by_body: defaultdict[str, list[str]] = defaultdict(list)
        for path, functions in helpers.items():
            for name, body in functions.items():
                by_body[body].append(f"{path}:{name}")
        return [names for names in by_body.values() if len(names) > 1]

    # Only the files of a likely copy are parsed, to tell a copy from a module's own.
    likely = groups({path: _helpers(source) for path, source in sources.items()})
    suspects: defaultdict[str, set[str]] = defaultdict(set)
    for names in likely:
        for found in names:
            path, name = found.split(":")
            suspects[path].add(name)
    return groups({path: _checked(sources[path], names) for path, names in suspects.items()})


def test_every_test_folder_names_a_package_or_module() -> None:
    assert (TESTS / "core").is_dir() and (TESTS / "generator" / "render").is_dir()
    assert folders_without_source(TESTS, PACKAGE) == []


def test_no_helper_is_written_twice() -> None:
    assert copied_helpers(TESTS) == []


def test_the_checks_find_a_stray_folder_and_a_copied_helper(tmp_path: Path) -> None:
    """A folder named for nothing in the package, and a helper copied under another name and
    docstring, are found; a function bound to its module's own constant is not a copy."""
    package, tests = tmp_path / "pkg", tmp_path / "tests"
    for folder in (package / "audit", tests / "audit", tests / "old", tests / "support" / "x"):
        folder.mkdir(parents=True)
    (package / "audit" / "__init__.py").write_text("")
    (package / "legibility.py").write_text("")
    (tests / "legibility").mkdir()
    assert folders_without_source(tests, package) == ["old"]

    helper = "def cents(value):\n    return round(value * 100)\n"
    renamed = 'def _cents(value):\n    """In cents."""\n    return round(value * 100)\n'
    own = "DOCS = 1\ndef case(x):\n    return x + DOCS\n"
    (tests / "support" / "values.py").write_text(helper + own)
    (tests / "audit" / "test_a.py").write_text(renamed + own + "def test_a():\n    pass\n")
    (tests / "test_b.py").write_text("def test_a():\n    pass\n")
    assert copied_helpers(tests) == [["audit/test_a.py:_cents", "support/values.py:cents"]]
