"""Running prose whose facts are fields: jinja2 templates that name leaf paths.

A prose template (``templates/prose/<doc_type>/<paragraph>.<n>.j2``: several numbered wordings
of one paragraph) writes ordinary sentences and calls ``fact("path")`` wherever a value of the
document belongs; ``{{ br }}`` starts a new paragraph. Whitespace in the template does not
matter (runs of it become one space), so tags may sit anywhere. Rendering gives each
paragraph as parts for `Flow.prose`: literal text (`Lit`) and leaf paths, which the widget
draws through the recorder, so every fact inside a sentence gets its `rendered_as` and its
location like a value in a box.

The template reads values only to decide what to say (``{% if doc.x is none %}``); the text of
a fact always comes from the recorder, so a pattern's shown text or a changed world value
changes that fact's words and nothing else. Which wording a paragraph takes is decided by the
recorder's wording seed (a sub-seed of the packet seed), never by a fact.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from typing import Any

from jinja2 import Environment

from packetbench.core.templates import environment
from packetbench.generator.errors import LayoutError
from packetbench.generator.render.layout import Lit, Part
from packetbench.generator.render.recorder import Recorder

# Bracket a fact's path, and part paragraphs, in the template's output. Control characters
# cannot occur in template text or in a path, and (unlike the ASCII separators \x1c-\x1f)
# these two are not whitespace to str.split.
MARK = "\x00"
BREAK = "\x01"
_SPACE = re.compile(r"[ \t\r\n]+")


@cache
def _environment() -> Environment:
    """Like `generator.prose_line`'s, but keeping every newline: whitespace is collapsed after
    rendering, so a tag at the end of a line can never glue two words together."""
    return environment("prose", trim=False)


Paragraph = tuple[Part, ...]


def fact(path: str, *indices: int) -> str:
    """The marker of leaf `path` in a template's output; ``{}`` in the path take `indices`
    (``fact("lines[{}].premium", loop.index0)``)."""
    return f"{MARK}{path.format(*indices)}{MARK}"


@cache
def wordings(name: str) -> tuple[str, ...]:
    """The numbered templates of paragraph `name` (``broker_narrative/overview``), in order."""
    pattern = re.compile(rf"{re.escape(name)}\.(\d+)\.j2")
    found = sorted(
        (int(m.group(1)), t) for t in _environment().list_templates() if (m := pattern.fullmatch(t))
    )
    if not found:
        raise LayoutError(f"no prose templates {name}.<n>.j2 under templates/prose")
    return tuple(template for _, template in found)


def choose(seed: int, name: str, key: str = "") -> str:
    """The wording of paragraph `name` (`key` tells repeated paragraphs apart) for `seed`.

    Each paragraph hashes its own name, so the choice never depends on how many paragraphs
    came before it (a document with one more location words its first one the same way).
    """
    options = wordings(name)
    digest = hashlib.sha256(f"{seed}:{name}:{key}".encode()).digest()
    return options[int.from_bytes(digest[:8], "big") % len(options)]


def parse(text: str) -> list[Paragraph]:
    """Paragraphs (parted by BREAK) of a rendered template, as parts."""
    out: list[Paragraph] = []
    for block in text.split(BREAK):
        flat = _SPACE.sub(" ", block).strip()
        if not flat:
            continue
        pieces = flat.split(MARK)
        if len(pieces) % 2 == 0:
            raise LayoutError(f"unbalanced fact marker in prose: {flat[:60]!r}")
        parts: list[Part] = []
        for index, piece in enumerate(pieces):
            if index % 2:
                parts.append(piece)
            elif piece:
                parts.append(Lit(piece))
        out.append(tuple(parts))
    return out


def write(
    rec: Recorder, name: str, key: str = "", template: str | None = None, **context: Any
) -> list[Paragraph]:
    """The paragraphs of `name` in the wording the recorder's seed chooses (or `template`).

    The template sees the document as `doc`, `fact` and `context`; every fact it names must
    be a non-null leaf of the document (checked here, so a wrong path fails the build).
    """
    chosen = template or choose(rec.wording, name, key)
    text = _environment().get_template(chosen).render(doc=rec.doc, fact=fact, br=BREAK, **context)
    paragraphs = parse(text)
    for paragraph in paragraphs:
        for part in paragraph:
            if isinstance(part, str) and rec.leaf(part)[0] is None:
                raise LayoutError(f"{rec.doc_id}: {chosen} states {part}, which is null")
    return paragraphs
