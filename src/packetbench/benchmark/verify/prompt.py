"""What a judge is asked: ``templates/judge/`` (system prompt, instructions, label schema).

`system.j2` is the judge's system prompt, `prompt.j2` the instructions sent with the document
(the batch's claims, numbered), `labels.schema.json` the strict schema of its answer. The
three are hashed into judge.json: a calibration holds only for the prompt and schema it was
made with. StrictUndefined makes a missing variable fail before any request is sent.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jinja2 import Environment

from packetbench.benchmark.verify.claims import Claim
from packetbench.core.resources import resource_dir
from packetbench.core.templates import environment

SCHEMA_NAME = "claim_labels"  # the answer schema's name, as sent to a provider
SYSTEM, PROMPT, SCHEMA = "system.j2", "prompt.j2", "labels.schema.json"


def folder() -> Path:
    return resource_dir("templates") / "judge"


@cache
def _environment() -> Environment:
    return environment("judge")


@cache
def label_schema() -> dict[str, Any]:
    """The strict JSON Schema of a judge's answer (``templates/judge/labels.schema.json``)."""
    data: dict[str, Any] = json.loads((folder() / SCHEMA).read_text("utf-8"))
    return data


@cache
def _validator() -> jsonschema.protocols.Validator:
    schema = label_schema()
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)  # once: checking it per answer cost most of a verify
    return validator(schema)


def template_hashes() -> dict[str, str]:
    """judge.json's `prompt` (system prompt and instructions) and `schema` hashes."""
    prompt = b"".join((folder() / name).read_bytes() for name in (SYSTEM, PROMPT))
    return {
        "prompt": hashlib.sha256(prompt).hexdigest(),
        "schema": hashlib.sha256((folder() / SCHEMA).read_bytes()).hexdigest(),
    }


def system() -> str:
    return _environment().get_template(SYSTEM).render().strip()


def render(title: str, claims: list[Claim], answer: str) -> str:
    """The judge's instructions for one batch (the document is sent beside them); `answer`
    is the provider's own last sentence (how to hand the labels back)."""
    listed = [{"path": c.path, "value": json.dumps(c.value, ensure_ascii=False)} for c in claims]
    return (
        _environment()
        .get_template(PROMPT)
        .render(title=title, claims=listed, answer=answer)
        .strip()
    )


def check(answer: Any, claims: int) -> str | None:
    """Why `answer` is not a label of each of `claims` claims (None when it is)."""
    error = jsonschema.exceptions.best_match(_validator().iter_errors(answer))
    if error is not None:
        return f"schema-invalid: {error.message}"
    numbers = [label["claim"] for label in answer["labels"]]
    if sorted(numbers) != list(range(1, claims + 1)):
        return f"labels claims {sorted(numbers)}, not 1 to {claims} once each"
    return None
