"""Files the tests read and write: JSON in and out, and a folder's files by their digests."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def write_json(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def tree_digests(folder: Path) -> dict[str, str]:
    """Every file and folder under `folder` (hidden ones included) with its sha256 ("folder"
    for a folder), so an empty folder left behind counts too."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        if p.is_file()
        else "folder"
        for p in sorted(folder.rglob("*"))
    }


def file_digests(folder: Path) -> dict[str, str]:
    """Every file under `folder` with its sha256 (folders left out)."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def extraction_records(run: Path) -> dict[str, dict[str, Any]]:
    """A run's extraction records by document id."""
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted((run / "extractions").glob("*/*.json"))
    }


def copy_folder(folder: Path, tmp_path: Path) -> Path:
    """A copy of `folder` at tmp_path/w (its links kept as links), for a test to change."""
    shutil.copytree(folder, tmp_path / "w", symlinks=True)
    return tmp_path / "w"
