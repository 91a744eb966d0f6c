"""How `--help` spells things (a helper module: the command loader skips `_` names).

Typer's help labels every flag with its Python type (``--force <bool>``, ``--help <bool>``),
though a flag takes no value, and writes a required argument in braces (``{run}``) where
click and every other command line write it bare (``RUN``). Both are fixed here once, for
every command, rather than with a metavar on each of them. It also keeps a docstring's line
breaks after its first paragraph, so a description wrapped at the source's width breaks again
wherever the terminal is narrower; paragraphs are reflowed to the terminal here instead.
"""

from __future__ import annotations

import re
from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

# A line that starts an item of a list (`- `, `* `, `1. `) keeps its own line when reflowed.
_ITEM = re.compile(r"\n(?=\s*(?:[-*]|\d+\.)\s)")


def reflowed(paragraph: str) -> str:
    """One paragraph of a command's description as the terminal should wrap it: the source's
    line breaks become spaces, except before a list item; a paragraph that opens with click's
    no-rewrap mark (``\\b``) is kept as written."""
    if paragraph.startswith("\b"):
        return paragraph
    items = _ITEM.split(paragraph)
    return "\n".join(" ".join(item.split()) for item in items)


def plain_help() -> None:
    """Flags show no value placeholder; a required argument shows its metavar bare (``RUN``),
    an optional one in brackets (``[RUN]``), either followed by ``...`` when it repeats."""
    typed = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag or self.count else typed(self, ctx)

    def usage_name(self: TyperArgument) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name + ("..." if self.nargs != 1 else "")

    def fix_linebreaks(paragraphs: list[str], markup_mode: Any) -> str:
        del markup_mode
        return "\n\n".join(reflowed(paragraph) for paragraph in paragraphs)

    def reflowing(format_help: Any) -> Any:
        # typer.rich_utils costs about 0.16 s to import, and typer imports it only to print
        # help: patched when help is printed, so no other command pays for it.
        def format_help_reflowed(self: Any, ctx: Any, formatter: Any) -> Any:
            from typer import rich_utils

            rich_utils._fix_linebreaks = fix_linebreaks
            return format_help(self, ctx, formatter)

        return format_help_reflowed

    TyperCommand.format_help = reflowing(TyperCommand.format_help)  # type: ignore[method-assign]
    TyperGroup.format_help = reflowing(TyperGroup.format_help)  # type: ignore[method-assign]
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]
    TyperArgument._usage_display_name = usage_name  # type: ignore[method-assign]
