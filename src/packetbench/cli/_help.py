"""How `--help` spells things (a helper module: the command loader skips `_` names).

Typer's help labels every flag with its Python type (``--force <bool>``, ``--help <bool>``),
though a flag takes no value, and writes a required argument in braces (``{run}``) where
click and every other command line write it bare (``RUN``). Both are fixed here once, for
every command, rather than with a metavar on each of them.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperArgument, TyperOption


def plain_help() -> None:
    """Flags show no value placeholder; a required argument shows its metavar bare (``RUN``),
    an optional one in brackets (``[RUN]``), either followed by ``...`` when it repeats."""
    typed = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag or self.count else typed(self, ctx)

    def usage_name(self: TyperArgument) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name + ("..." if self.nargs != 1 else "")

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]
    TyperArgument._usage_display_name = usage_name  # type: ignore[method-assign]
