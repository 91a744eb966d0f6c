"""One jinja2 environment builder: every template folder is loaded strictly, and no module
builds an environment of its own."""

from __future__ import annotations

import ast

import pytest
from jinja2 import UndefinedError

from packetbench.core.templates import environment
from tests.support.paths import ROOT


def test_only_the_builder_constructs_an_environment() -> None:
    builders = []
    for path in sorted((ROOT / "src" / "packetbench").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "Environment" not in text:  # parsed only where the name occurs: 0.1 s, not 1
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Environment":
                builders.append(str(path.relative_to(ROOT)))
    assert builders == ["src/packetbench/core/templates.py"]


def test_a_missing_variable_fails_and_escaping_follows_the_extension() -> None:
    plain = environment("report", keep_trailing_newline=True)
    with pytest.raises(UndefinedError):
        plain.from_string("{{ absent }}").render()
    assert plain.autoescape is False
    escaping = environment("report", escape=("html.j2",)).autoescape
    assert callable(escaping)
    assert escaping("report.html.j2") and not escaping("report.md.j2")
    assert not escaping(None)  # a template made from a string is never escaped
