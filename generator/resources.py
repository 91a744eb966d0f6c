"""Where the root-level resource folders (templates/, schemas/) are at run time.

In a source checkout they sit next to the packages; a wheel carries copies under
``generator/_resources`` (see pyproject's force-include).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The folder `name` ("templates" or "schemas"), from the wheel or the checkout."""
    for candidate in (_PACKAGE / "_resources" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"packetbench resource folder {name!r} is missing from the install")
