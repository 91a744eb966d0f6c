"""The one jinja2 environment builder: every template folder under ``templates/`` is loaded
strictly (StrictUndefined: a missing variable fails the render instead of printing a blank
into a PDF, a prompt or a report)."""

from __future__ import annotations

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from packetbench.core.resources import resource_dir


def environment(
    folder: str,
    *,
    trim: bool = True,
    keep_trailing_newline: bool = False,
    escape: tuple[str, ...] = (),
) -> Environment:
    """A fresh environment over ``templates/<folder>/``.

    `trim`: a block tag takes its own line with it (trim_blocks and lstrip_blocks); off where
    the caller collapses whitespace itself. `keep_trailing_newline`: files (reports, cards)
    end in a newline, one-line prose and prompts do not. `escape`: the template extensions
    rendered with HTML escaping (none: plain text). Fresh, so a caller may add its own filters
    and globals; callers cache it.
    """
    return Environment(
        loader=FileSystemLoader(resource_dir("templates") / folder),
        undefined=StrictUndefined,
        autoescape=(
            select_autoescape(enabled_extensions=escape, default_for_string=False)
            if escape
            else False
        ),
        trim_blocks=trim,
        lstrip_blocks=trim,
        keep_trailing_newline=keep_trailing_newline,
    )
