"""Prose fields (operations descriptions, building descriptions) from jinja2 templates.

Templates live under ``templates/prose/``; StrictUndefined makes a missing variable fail the
build instead of leaving a blank in a rendered document.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment

from packetbench.core.templates import environment


@cache
def _environment() -> Environment:
    return environment("prose")


def render(template: str, **context: Any) -> str:
    """Render ``templates/prose/<template>.j2`` into one line of prose."""
    text = _environment().get_template(f"{template}.j2").render(**context)
    return " ".join(text.split())
