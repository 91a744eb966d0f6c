"""The package's data folders (templates/, schemas/), found with importlib.resources."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def resource_dir(name: str) -> Path:
    """The folder `name` inside the installed package ("templates" or "schemas")."""
    folder = files("packetbench").joinpath(name)
    if not folder.is_dir():
        raise FileNotFoundError(f"packetbench resource folder {name!r} is missing from the install")
    # A regular or editable install is a folder on disk; jinja2's loaders want a Path.
    return Path(str(folder))
