"""The import graph of packetbench: its cycles and the imports that run against the layers.

    python benchmarks/imports.py [--root SRC] [--typing] [--json]

Every module under SRC/packetbench (default: this checkout's src/) is read with `ast`; an
import counts wherever it runs (at the top or inside a function), so an import moved into a
function to hide a cycle still shows. An import under `if TYPE_CHECKING:` never runs (a type
annotation's, for mypy alone) and is left out unless `--typing` asks for it too. `from a.b
import c` is an edge to the module `a.b.c` when it is one, to `a.b` otherwise.

Printed: the number of modules and edges; every cycle, as a strongly connected component of
the graph (its size is the number of modules that import one another round); and every upward
edge, an import by a module of the benchmark half of a module in a layer above its own (the
layers are `LAYERS` below, bottom first). tests/test_imports.py holds the limits: no cycle of
more than 3 modules, at most 5 upward edges.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The benchmark half's layers, bottom first: a module may import its own layer and the layers
# below it; an import of a layer above is upward. A layer is a list of module prefixes under
# `packetbench.benchmark.` (a prefix names a module or a package); a module of the half that no
# prefix names is in the top layer.
# Below the half sit `packetbench.truth` (packets, their files and truth) and
# `packetbench.reading` (OCR, page imaging, the text layer); the audit (`packetbench.audit`)
# stands beside the half on them, imports nothing of it, and is imported by the pipeline alone
# (tests/test_layering.py).
LAYERS: tuple[tuple[str, ...], ...] = (
    # the files: run.json, what a run was extracted from, a run folder's policy, one's own
    # documents as a packet, how a run's pages were delivered
    ("errors", "runs", "provenance", "run_folder", "documents", "delivery"),
    # how an answer is scored against a packet's truth; extraction records
    (
        "selection",
        "grounding",
        "score",
        "stats",
        "records",
        "results.database",
        "results.schema",
    ),
    # what answers: providers, the simulator, the request harness, their configuration
    ("providers", "sim", "origins", "harness", "config"),
    # a run made: extraction, repeats, one's own documents typed and extracted
    ("extract", "repeats", "own_extract", "classify", "extraction"),
    # what reads a finished run
    (
        "results",
        "difficulty",
        "readers",
        "report",
        "verify",
        "viewer",
        "importers",
        "release",
        "leaderboard",
    ),
    # the whole pipeline
    ("pipeline",),
)


@dataclass
class Graph:
    modules: set[str] = field(default_factory=set)
    edges: dict[str, set[str]] = field(default_factory=dict)

    def add(self, source: str, target: str) -> None:
        if source != target:
            self.edges.setdefault(source, set()).add(target)

    @property
    def edge_count(self) -> int:
        return sum(len(targets) for targets in self.edges.values())


def module_name(package_root: Path, path: Path) -> str:
    parts = list(path.relative_to(package_root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(node: ast.AST, current: str, is_package: bool) -> Iterable[tuple[str, str]]:
    """(module, name) pairs an import node names: name is "" for `import a.b`."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, ""
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = current.split(".") if is_package else current.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join([*package, base] if base else package)
        for alias in node.names:
            yield base, alias.name


def _type_only(tree: ast.AST) -> set[int]:
    """ids of the import nodes inside `if TYPE_CHECKING:` blocks."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        ):
            for inner in node.body:
                found |= {id(n) for n in ast.walk(inner)}
    return found


def build(source_root: Path, typing: bool = False) -> Graph:
    package_root = source_root / "packetbench"
    files = sorted(package_root.rglob("*.py"))
    graph = Graph()
    graph.modules = {module_name(package_root, path) for path in files}
    for path in files:
        current = module_name(package_root, path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = set() if typing else _type_only(tree)
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            for module, name in _imported(node, current, path.name == "__init__.py"):
                if not module.startswith("packetbench"):
                    continue
                target = f"{module}.{name}" if f"{module}.{name}" in graph.modules else module
                while target not in graph.modules and "." in target:
                    target = target.rsplit(".", 1)[0]
                graph.add(current, target)
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative), largest
    first, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            advanced = False
            for target in targets:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.edges.get(target, ())))))
                    advanced = True
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found, key=lambda c: (-len(c), c))


def layer(module: str) -> int | None:
    """The layer of a module of the benchmark half (None outside it)."""
    prefix = "packetbench.benchmark."
    if not module.startswith(prefix):
        return None
    rest = module[len(prefix) :]
    # the longest prefix decides (results.database sits below the rest of results)
    best: tuple[int, int] | None = None
    for number, names in enumerate(LAYERS):
        for name in names:
            if (rest == name or rest.startswith(name + ".")) and (
                best is None or len(name) > best[0]
            ):
                best = (len(name), number)
    return best[1] if best is not None else len(LAYERS)


def upward(graph: Graph) -> list[tuple[str, str]]:
    found = []
    for source in sorted(graph.edges):
        below = layer(source)
        if below is None:
            continue
        for target in sorted(graph.edges[source]):
            above = layer(target)
            if above is not None and above > below:
                found.append((source, target))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT / "src", help="the src folder")
    parser.add_argument(
        "--typing", action="store_true", help="count imports under TYPE_CHECKING as well"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    args = parser.parse_args(argv)
    graph = build(args.root, args.typing)
    found = cycles(graph)
    up = upward(graph)
    if args.json:
        print(
            json.dumps(
                {
                    "modules": len(graph.modules),
                    "edges": graph.edge_count,
                    "cycles": found,
                    "upward": [list(edge) for edge in up],
                },
                indent=1,
            )
        )
        return 0
    print(
        f"{len(graph.modules)} modules, {graph.edge_count} import edges"
        + (" (TYPE_CHECKING imports counted)" if args.typing else "")
    )
    largest = max((len(c) for c in found), default=0)
    print(f"{len(found)} cycle(s), the largest of {largest} module(s)")
    for component in found:
        print(f"  cycle of {len(component)}: {', '.join(component)}")
    print(f"{len(up)} upward import(s) in the benchmark half")
    for source, target in up:
        print(f"  {source} -> {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
