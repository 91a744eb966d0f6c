"""The words packetbench uses, one meaning each (templates/glossary.toml): the report defines
the words it uses from them, and docs/glossary.md is written from them (_build_docs.py)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache

from packetbench.core.resources import resource_dir


@dataclass(frozen=True)
class Word:
    term: str
    meaning: str
    code: str | None = None  # how files, tables and options spell it
    page: str | None = None  # the guide page that says more, relative to docs/
    report: bool = False  # the report uses it, so defines it

    @property
    def anchor(self) -> str:
        """The id of its entry in report.html."""
        return "w-" + re.sub(r"[^a-z0-9]+", "-", self.term.lower()).strip("-")


@cache
def sections() -> tuple[tuple[str, tuple[Word, ...]], ...]:
    """(title, its words) of every section, in the file's order."""
    text = (resource_dir("templates") / "glossary.toml").read_text(encoding="utf-8")
    return tuple(
        (section["title"], tuple(Word(**word) for word in section["word"]))
        for section in tomllib.loads(text)["section"]
    )


def word(term: str) -> Word:
    """The entry of `term`; KeyError when the glossary has none (a template naming a word it
    does not define fails the report, as a missing variable does)."""
    for _, words in sections():
        for found in words:
            if found.term == term:
                return found
    raise KeyError(f"the glossary has no word {term!r}")


def report_words() -> list[Word]:
    """The words the report defines, in the glossary's order."""
    return [w for _, words in sections() for w in words if w.report]
