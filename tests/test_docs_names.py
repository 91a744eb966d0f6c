"""Every module the prose names exists: a docstring, a comment or a docs page that names
`packetbench.x.y`, `x.y` under one of the package's subpackages or `x/y.py` names a module, a
package or an attribute of one, and every `docs/measurements.md#anchor` the code cites is a
heading of that page. Read from the files (no imports), so the check takes well under a second."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from tests.support.paths import ROOT

PACKAGE = ROOT / "src" / "packetbench"
SUBPACKAGES = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
# A path is the package's when it starts at one of its folders (`render/scan.py`).
FOLDERS = {"packetbench", *(p.parent.name for p in PACKAGE.rglob("*.py"))}
# Pages that tell the past may name what is gone.
HISTORY = {"history.md", "CHANGELOG.md"}
# Dotted names that are not modules: the entry-point group a provider plug-in registers under.
NOT_MODULES = {"packetbench.providers"}
# A name right after a letter, a dot, a slash or a dash is part of a longer name (a file such
# as `.packetbench.lock`, a URL such as `packetbench.dev/...`, a path under tests/).
_BEFORE = r"(?<![\w./-])"
DOTTED = re.compile(_BEFORE + r"packetbench(?:\.[A-Za-z_]\w*)+")
# `generator.render.table`: only in prose, where a variable named `truth` does not appear as code.
RELATIVE = re.compile(_BEFORE + rf"(?:{'|'.join(SUBPACKAGES)})(?:\.[A-Za-z_]\w*)+")
PATH = re.compile(_BEFORE + r"(?:src/packetbench/)?((?:[a-z_]\w*/)+[a-z_]\w*\.py)\b")
# A file name, not a module: `audit.json`, `benchmark.grounding.csv`.
EXTENSIONS = {"json", "md", "py", "html", "csv", "toml", "yml", "yaml", "parquet", "duckdb", "txt"}
MEASUREMENTS = re.compile(r"docs/measurements\.md#([\w-]+)")


def _python_prose(text: str) -> str:
    """The comments and triple-quoted strings of a source file, other lines blanked (kept as
    empty lines so that line numbers hold)."""
    lines = []
    inside = False
    for line in text.splitlines():
        quotes = line.count('"""') + line.count("'''")
        comment = line.find("#")
        keep = inside or quotes > 0
        lines.append(line if keep else line[comment:] if comment >= 0 else "")
        if quotes % 2:
            inside = not inside
    return "\n".join(lines)


def _sql_prose(text: str) -> str:
    """The comments of a query (the reference's descriptions of the views come from them)."""
    return "\n".join(line[line.find("--") :] if "--" in line else "" for line in text.splitlines())


def _markdown_prose(text: str) -> str:
    """A page without its console sessions (what a command prints), line numbers kept."""
    return re.sub(
        r"^```console.*?^```", lambda m: "\n" * m.group().count("\n"), text, flags=re.S | re.M
    )


@cache
def _sources() -> list[tuple[Path, str]]:
    """Every file of prose with the text to check: the package's comments and docstrings, its
    queries' comments, the README and the docs pages (generated reference included)."""
    code = sorted(PACKAGE.rglob("*.py"))
    queries = sorted(PACKAGE.rglob("*.sql"))
    pages = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    return [
        *((p, _python_prose(p.read_text(encoding="utf-8"))) for p in code),
        *((p, _sql_prose(p.read_text(encoding="utf-8"))) for p in queries),
        *(
            (p, _markdown_prose(p.read_text(encoding="utf-8")))
            for p in pages
            if p.name not in HISTORY
        ),
    ]


# What a module's top level binds, read by pattern (parsing every module named would take
# most of the test's time): definitions, assignments and annotated names, and imports.
_BINDS = re.compile(r"(?:async def |def |class )([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*(?::|=(?!=))")
_IMPORTS = re.compile(r"\bimport\s+(\([^)]*\)?|[^\n]*)")
_AS = re.compile(r"(?:^|[\s,(])(?:[\w.]+ as )?([A-Za-z_][\w.]*)(?=\s*(?:,|\)|$))", re.M)


@cache
def _defined(source: Path) -> dict[str, str]:
    """The names a module's top level binds, each with the text of its block (a class's body
    tells its members)."""
    text = source.read_text(encoding="utf-8") if source.is_file() else ""
    names: dict[str, str] = {}
    for block in re.split(r"^(?=\S)", text, flags=re.M):
        if block.startswith(("from ", "import ", "if ", "try:")):
            # Guarded imports (`if TYPE_CHECKING:`, `try:`) bind names too.
            for imported in _IMPORTS.findall(block):
                names |= {n.split(".")[0]: "" for n in _AS.findall(imported)}
        elif match := _BINDS.match(block):
            names.setdefault(match.group(1) or match.group(2), block)
    return names


def _members(block: str) -> set[str]:
    """The names a class's body binds, one indent in."""
    binds = re.findall(
        r"^    (?:(?:async def |def |class )(\w+)|(\w+)\s*(?::|=(?!=)))", block, re.M
    )
    return {defined or assigned for defined, assigned in binds}


@cache
def exists(dotted: str) -> bool:
    """Whether `packetbench.a.b.c` is a module, a package, or an attribute (and a class's
    member) of the longest module it starts with."""
    parts = dotted.split(".")[1:]
    for i in range(len(parts), -1, -1):
        path = PACKAGE.joinpath(*parts[:i])
        rest = parts[i:]
        if i and path.with_suffix(".py").is_file():
            source = path.with_suffix(".py")
        elif path.is_dir():
            source = path / "__init__.py"
        else:
            continue
        if not rest:
            return True
        block = _defined(source).get(rest[0])
        if block is None:
            return False
        if len(rest) > 1 and block.startswith("class "):
            return rest[1] in _members(block)
        return True
    return False


def _paths() -> set[str]:
    """Every module's path under the package and each of its tails: `render/table.py` names
    `generator/render/table.py`."""
    paths = set()
    for source in PACKAGE.rglob("*.py"):
        parts = source.relative_to(PACKAGE).parts
        paths |= {"/".join(parts[i:]) for i in range(len(parts))}
    return paths


def stale_names(sources: list[tuple[Path, str]]) -> list[str]:
    """Every name in `sources` that names no module, package or attribute, as `file:line: name`."""
    paths = _paths()
    found = []
    for path, text in sources:
        where = path.relative_to(ROOT)
        for match in DOTTED.finditer(text):
            name = match.group().rstrip(".")
            if name not in NOT_MODULES and not exists(name):
                found.append(f"{where}:{text.count(chr(10), 0, match.start()) + 1}: {name}")
        for match in RELATIVE.finditer(text):
            name = match.group()
            if name.rsplit(".", 1)[-1] in EXTENSIONS or exists(f"packetbench.{name}"):
                continue
            found.append(f"{where}:{text.count(chr(10), 0, match.start()) + 1}: {name}")
        for match in PATH.finditer(text):
            name = match.group(1)
            if name.split("/")[0] not in FOLDERS:
                continue  # a path outside the package: tests/, benchmarks/, docs/
            name = name.removeprefix("packetbench/")
            if name not in paths:
                found.append(f"{where}:{text.count(chr(10), 0, match.start()) + 1}: {name}")
    return found


def test_every_module_the_prose_names_exists() -> None:
    sources = _sources()
    assert len(sources) > 500
    assert stale_names(sources) == []


def test_the_check_catches_a_name_that_is_gone() -> None:
    probe = ROOT / "src" / "packetbench" / "probe.py"
    text = _python_prose(
        '"""Reads with `packetbench.nope`, `audit.gone.fold` and render/records.py."""\n'
        "import packetbench.truth.csvread  # beside packetbench.truth.csvread.read_csv\n"
        "x = truth.get  # a variable named like a package is code, not prose\n"
    )
    assert stale_names([(probe, text)]) == [
        "src/packetbench/probe.py:1: packetbench.nope",
        "src/packetbench/probe.py:1: audit.gone.fold",
        "src/packetbench/probe.py:1: render/records.py",
    ]


def test_every_measurement_the_code_cites_is_a_heading() -> None:
    page = (ROOT / "docs" / "measurements.md").read_text(encoding="utf-8")
    anchors = {_anchor(h) for h in re.findall(r"^#+ (.+)$", page, re.M)}
    cited = [
        (path.relative_to(ROOT), match.group(1))
        for path, text in _sources()
        for match in MEASUREMENTS.finditer(text)
    ]
    assert len(cited) > 10
    assert [(path, anchor) for path, anchor in cited if anchor not in anchors] == []


def _anchor(heading: str) -> str:
    """The id mkdocs (Python-Markdown's toc) gives a heading."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"[\s-]+", "-", text).strip("-")
