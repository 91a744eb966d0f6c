"""mkdocs hooks (mkdocs.yml `hooks:`): the README is a page of the docs site too.

The README lives at the repository's root, outside `docs/`, so a page's link to it
(`../README.md#one-session-end-to-end`, which GitHub follows) has no target in the site. The
site gets the README as `readme.md`, its links into `docs/` made relative to the site and its
links to other files of the repository (the CHANGELOG) left as their text, and every page's
link to `../README.md` points at that page instead.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent
PAGE = "readme.md"
_LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")


def _site_link(found: re.Match[str]) -> str:
    image, text, target = found.groups()
    if re.match(r"[a-z]+:|#", target):
        return found.group(0)
    if target.startswith("docs/"):
        return f"{image}[{text}]({target.removeprefix('docs/')})"
    return text  # a file of the repository the site does not hold


def on_files(files: Files, config: Any) -> Files:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    files.append(File.generated(config, PAGE, content=_LINK.sub(_site_link, readme)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if page.file.src_uri == PAGE:
        return markdown
    return markdown.replace("](../README.md", f"]({PAGE}")
