"""The dependency direction of docs/design.md §2 (core -> truth, reading -> audit, generator,
benchmark -> cli): the generator never imports the benchmark, the audit or the command line;
the audit imports nothing of the benchmark, and of the rest only the pipeline imports the
audit; truth and reading import none of the layers above them; `core` imports nothing of
packetbench but itself; and provider SDKs are imported only by the provider that uses them."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from tests.support.paths import ROOT
from tests.test_imports import _checker

PACKAGE = ROOT / "src" / "packetbench"


@cache
def _imports(path: Path) -> frozenset[str]:
    """Every module `path` imports, at any depth (a function-level import counts too); each
    module is parsed once for all the rules."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return frozenset(found)


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


def test_generate_and_audit_commands_need_no_benchmark() -> None:
    """Writing and auditing packets is the generator's and the audit's work: their commands
    take nothing from the benchmark (tier names are parsed in core)."""
    for command in ("generate.py", "audit.py"):
        names = _imports(PACKAGE / "cli" / command)
        assert not [n for n in names if n.startswith("packetbench.benchmark")], command


def test_the_audit_imports_no_benchmark_and_no_cli() -> None:
    """The audit checks a packet's rendered files against its truth with what `truth` and
    `reading` give it: every import counted (inside functions and for type checking too)."""
    modules = _modules(PACKAGE / "audit")
    assert len(modules) > 20
    above = ("packetbench.benchmark", "packetbench.cli", "packetbench.integrations")
    offenders = [(str(m), n) for m in modules for n in _imports(m) if n.startswith(above)]
    assert offenders == []


def test_only_the_pipeline_imports_the_audit() -> None:
    """Below the command line, the pipeline (the top of the benchmark) alone runs the audit:
    what else reads pages or truth takes it from `reading` and `truth`."""
    importers = sorted(
        str(m.relative_to(PACKAGE))
        for m in _modules(PACKAGE)
        if m.relative_to(PACKAGE).parts[0] not in ("audit", "cli")
        and any(name.startswith("packetbench.audit") for name in _imports(m))
    )
    assert importers == ["benchmark/pipeline.py"]


def test_nothing_the_audit_imports_reaches_the_benchmark() -> None:
    """Followed through every import that runs (inside functions too), the audit reaches
    nothing of the benchmark, the command line or the integrations."""
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
    assert {"packetbench.truth.packets", "packetbench.reading.tesseract"} <= reached
    offenders = sorted(
        m
        for m in reached
        if m.startswith(("packetbench.benchmark", "packetbench.cli", "packetbench.integrations"))
    )
    assert offenders == []


def test_truth_and_reading_import_nothing_above_them() -> None:
    """`truth` and `reading` sit below the audit, the generator and the benchmark, reading
    beside truth (it takes value normalisation from it, never the other way). Truth's
    namespaces read the generator's document types, the models a schema scores against, when
    first asked: that one import is the exception."""
    above = ("audit", "benchmark", "cli", "integrations", "generator")
    rules = {
        "truth": tuple(f"packetbench.{part}" for part in (*above, "reading")),
        "reading": tuple(f"packetbench.{part}" for part in above),
    }
    offenders = [
        (str(m.relative_to(ROOT)), name)
        for part, forbidden in rules.items()
        for m in _modules(PACKAGE / part)
        for name in _imports(m)
        if name.startswith(forbidden) and name != "packetbench.generator.doctypes.base"
    ]
    assert len(_modules(PACKAGE / "truth")) > 6 and len(_modules(PACKAGE / "reading")) > 6
    assert offenders == []


def test_core_imports_nothing_above_it() -> None:
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
                "packetbench.truth",
                "packetbench.reading",
                "packetbench.cli",
                "packetbench.integrations",
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
