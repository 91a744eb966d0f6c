"""Prose fields (operations descriptions, building descriptions) from jinja2 templates.

Templates live under ``templates/prose/``; StrictUndefined makes a missing variable fail the
build instead of leaving a blank in a rendered document.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from packetbench.core.resources import resource_dir


@cache
def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(resource_dir("templates") / "prose"),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(template: str, **context: Any) -> str:
    """Render ``templates/prose/<template>.j2`` into one line of prose."""
    text = _environment().get_template(f"{template}.j2").render(**context)
    return " ".join(text.split())
