"""Extraction prompts: jinja2 templates under ``templates/prompts/``.

`system.j2` is the system prompt of every request; ``<template>.j2`` (extending
``_document.j2``) is the instruction sent with the document. StrictUndefined makes a missing
variable fail before any request is sent. Every ``acord_*`` schema shares the template
``acord``; every other schema has a template of its own name.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, TemplateNotFound

from packetbench.benchmark.harness.inputs import DocumentInput
from packetbench.benchmark.providers.api import Prompt
from packetbench.core.errors import BadInput
from packetbench.core.resources import resource_dir
from packetbench.core.templates import environment

SYSTEM = "system.j2"
FRAME = "_document.j2"
CITE = "cite.j2"  # appended with `extract --cite`
CONFIDENCE = "confidence.j2"  # appended with `extract --confidence`
NATIVE_CITE = "native_cite.j2"  # the second request of `extract --cite native`


def folder() -> Path:
    return resource_dir("templates") / "prompts"


@cache
def _environment() -> Environment:
    return environment("prompts")


def template_name(schema: str) -> str:
    """The prompt template (without ``.j2``) of the schema `schema`."""
    return "acord" if schema.startswith("acord_") else schema


def check(schemas: set[str]) -> None:
    """Fail (naming the file) when a schema to be extracted has no prompt template."""
    for name in sorted({template_name(s) for s in schemas}):
        path = folder() / f"{name}.j2"
        if not path.is_file():
            raise BadInput(f"{path}: missing (the prompt template {name!r})")


def template_hashes(schemas: set[str]) -> dict[str, str]:
    """Template name -> sha256 of its template sources (system prompt and shared frame included)."""
    base = b"".join((folder() / name).read_bytes() for name in (SYSTEM, FRAME))
    return {
        name: hashlib.sha256(base + (folder() / f"{name}.j2").read_bytes()).hexdigest()
        for name in sorted({template_name(s) for s in schemas})
    }


def title(schema: dict[str, Any]) -> str:
    """The schema's own one-line description, as the document's title in the prompt."""
    first = str(schema.get("description") or schema.get("title") or "a document").split("\n")[0]
    text = first.strip().rstrip(".")
    return text[0].lower() + text[1:] if text[:1].isupper() and text[1:2].islower() else text


def cite_hash() -> str:
    """sha256 of the citation instructions (run.json records it for cited runs)."""
    return hashlib.sha256((folder() / CITE).read_bytes()).hexdigest()


def native_cite_hash() -> str:
    """sha256 of the second request's question of `--cite native` (run.json records it)."""
    return hashlib.sha256((folder() / NATIVE_CITE).read_bytes()).hexdigest()


def native_question(listing: str) -> str:
    """The question of `--cite native`'s second request, listing the first answer's values."""
    return _environment().get_template(NATIVE_CITE).render(listing=listing).strip()


def confidence_hash() -> str:
    """sha256 of the confidence instructions (run.json records it for such runs)."""
    return hashlib.sha256((folder() / CONFIDENCE).read_bytes()).hexdigest()


def render(
    schema_name: str,
    schema: dict[str, Any],
    document: DocumentInput,
    answer: str,
    cite: str | None = None,
    fmt: str = "pdf",
    confidence: bool = False,
) -> Prompt:
    """The prompt of one document. With `cite` (page or box) the schema sent is the cited
    wrapper (`grounding.schema`): its title comes from the document schema inside it, and
    the citation instructions for the document's format `fmt` follow the instructions.
    With `confidence` the wrapper holds a confidence list, and its instructions follow."""
    environment = _environment()
    if cite is not None or confidence:
        schema = schema["properties"]["values"]
    context = {
        "title": title(schema),
        "mode": document.mode,
        "pages": document.pages,
        "sheets": list(document.sheets),
        "hidden_sheets": list(document.hidden_sheets),
        "answer": answer,
    }
    try:
        system = environment.get_template(SYSTEM).render().strip()
        instructions = environment.get_template(f"{template_name(schema_name)}.j2").render(
            **context
        )
        if cite is not None:
            evidence = environment.get_template(CITE).render(mode=cite, fmt=fmt)
            instructions = f"{instructions.strip()}\n\n{evidence.strip()}"
        if confidence:
            sure = environment.get_template(CONFIDENCE).render(cited=cite is not None)
            instructions = f"{instructions.strip()}\n\n{sure.strip()}"
    except TemplateNotFound as error:
        raise BadInput(f"{folder() / str(error.name)}: missing prompt template") from None
    return Prompt(system=system, instructions=instructions.strip(), parts=document.parts)


def digest(prompt: Prompt) -> str:
    """sha256 of the prompt's words (the document is hashed separately)."""
    return hashlib.sha256(f"{prompt.system}\0{prompt.instructions}".encode()).hexdigest()
