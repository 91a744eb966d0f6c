"""The dependency direction of DESIGN §2: `generator` never imports `benchmark`."""

from __future__ import annotations

import ast

from tests.conftest import ROOT


def _imports(path: str) -> set[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_generator_never_imports_benchmark() -> None:
    modules = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "generator").rglob("*.py"))
    assert len(modules) > 40
    offenders = [m for m in modules if "benchmark" in _imports(m)]
    assert offenders == []


def test_generator_never_imports_provider_sdks() -> None:
    sdks = {"openai", "anthropic", "google"}
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "generator").rglob("*.py")
                 if _imports(str(p.relative_to(ROOT))) & sdks]
    assert offenders == []
