"""The dependency direction of docs/design.md §2: the generator half never imports the benchmark
half, the audit or the command line; the audit (`packetbench.audit`, a part of its own) never
reaches the extraction side of the benchmark half or the command line; `core`, what both halves
share, imports neither half nor the audit; and provider SDKs are imported only by the provider
that uses them."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import ROOT
from tests.test_imports import _checker

PACKAGE = ROOT / "src" / "packetbench"


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, at any depth (a function-level import counts too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _imported_names(path: Path) -> set[str]:
    """Every module or name `path` imports, dotted in full (`from a import b` is `a.b`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def _modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def test_one_top_level_package() -> None:
    assert sorted(p.name for p in (ROOT / "src").iterdir() if not p.name.endswith(".egg-info")) == [
        "packetbench"
    ]
    assert not (ROOT / "generator").exists() and not (ROOT / "benchmark").exists()


def test_generator_never_imports_the_benchmark_the_audit_or_the_cli() -> None:
    modules = _modules(PACKAGE / "generator")
    assert len(modules) > 40
    offenders = [
        str(m.relative_to(ROOT))
        for m in modules
        if any(
            name.startswith(("packetbench.benchmark", "packetbench.audit", "packetbench.cli"))
            for name in _imports(m)
        )
    ]
    assert offenders == []


# What the audit may import of the benchmark half: how a packet and its truth are read (the
# packet folders, CSV reading, schema namespaces, the universe, value normalization and truth
# validation), never what extracts, scores a run or reports on it.
AUDIT_READS = (
    "packetbench.truth.packets",
    "packetbench.truth.csvread",
    "packetbench.truth.namespaces",
    "packetbench.truth.universe",
    "packetbench.truth.normalize",
    "packetbench.truth.validate",
)


def test_the_audit_imports_no_extraction_side_and_no_cli() -> None:
    """The audit checks a packet's rendered files against its truth: it imports of the
    benchmark half only what reads a packet (`AUDIT_READS`), and nothing of the command line
    or the integrations."""
    modules = _modules(PACKAGE / "audit")
    assert len(modules) > 20
    offenders = [
        (str(m.relative_to(ROOT)), name)
        for m in modules
        for name in _imported_names(m)
        if name.startswith(("packetbench.cli", "packetbench.integrations"))
        or (
            name.startswith("packetbench.benchmark")
            and not any(name == r or name.startswith(r + ".") for r in AUDIT_READS)
        )
    ]
    assert offenders == []


def test_nothing_the_audit_imports_reaches_the_extraction_side() -> None:
    """Followed through every import that runs (inside functions too), the audit reaches only
    the benchmark half's two lowest layers (the files; truth and scoring: benchmarks/imports.py
    LAYERS), never what answers, extracts, or reads a run, nor the command line."""
    checker = _checker()
    graph = checker.build(ROOT / "src")
    audit = sorted(m for m in graph.modules if m.split(".")[:2] == ["packetbench", "audit"])
    assert "packetbench.audit.sources.scanned" in audit
    reached, todo = set(audit), list(audit)
    while todo:
        for target in graph.edges.get(todo.pop(), ()):
            if target not in reached:
                reached.add(target)
                todo.append(target)
    offenders = sorted(
        m
        for m in reached
        if m.startswith(("packetbench.cli", "packetbench.integrations"))
        or (checker.layer(m) is not None and checker.layer(m) > 1)
    )
    assert offenders == []


def test_core_imports_neither_half() -> None:
    modules = _modules(PACKAGE / "core")
    assert len(modules) > 10
    offenders = [
        (str(m.relative_to(ROOT)), name)
        for m in modules
        for name in _imports(m)
        if name.startswith(
            (
                "packetbench.generator",
                "packetbench.benchmark",
                "packetbench.audit",
                "packetbench.cli",
                "packetbench.integrations",
                "packetbench.legibility",
            )
        )
    ]
    assert offenders == []


def test_the_benchmark_takes_its_shared_basics_from_core() -> None:
    """What both halves use lives in `core`: the benchmark imports from the generator only
    what is the generator's own (its document models, schemas, renderers the audit rebuilds
    pages with, the generation the pipeline runs), never a basic kept there."""
    basics = {
        f"packetbench.generator.{name}"
        for name in ("leaves", "codes", "executors", "worker_pool", "seeds", "errors")
    }
    outside = [m for m in _modules(PACKAGE) if "generator" not in m.relative_to(PACKAGE).parts]
    offenders = [
        (str(m.relative_to(ROOT)), name) for m in outside for name in _imports(m) if name in basics
    ]
    assert offenders == []


def test_provider_sdks_only_in_their_providers() -> None:
    """Each API provider's SDK (the registry's providers, each class naming its SDK) is
    imported by that provider's module alone."""
    from packetbench.benchmark.providers import PROVIDERS, api_providers
    from packetbench.benchmark.providers.api import ApiProvider

    owners = {}
    for name in api_providers():
        found = PROVIDERS[name].load()
        assert issubclass(found, ApiProvider)
        owners[found.sdk_module] = f"{PROVIDERS[name].module}.py"
    assert owners == {"openai": "openai.py", "anthropic": "anthropic.py", "google": "gemini.py"}
    offenders = []
    for module in _modules(PACKAGE):
        for name in _imports(module):
            sdk = name.split(".")[0]
            if sdk in owners and module != PACKAGE / "benchmark" / "providers" / owners[sdk]:
                offenders.append((str(module.relative_to(ROOT)), name))
    assert offenders == []


def test_inspect_ai_only_in_its_integration() -> None:
    """packetbench works without the inspect extra: only the integration's task, scorer and
    log converter import inspect_ai (the CLI imports the converter when the command runs)."""
    folder = PACKAGE / "integrations" / "inspect"
    importers = sorted(
        str(m.relative_to(PACKAGE))
        for m in _modules(PACKAGE)
        if any(name.split(".")[0] == "inspect_ai" for name in _imports(m))
    )
    assert importers == [
        str((folder / name).relative_to(PACKAGE)) for name in ("convert.py", "scorer.py", "task.py")
    ]
