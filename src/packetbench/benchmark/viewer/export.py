"""`packetbench view RUN --out DIR`: the viewer as static files, for a disk or any static host.

The same app as the server's, with its data written as scripts (``data/*.js``, each calling
``PB_receive(key, data)``) instead of answered as JSON: a page opened from ``file://`` may
load scripts and images beside it but may not fetch. The document list is written whole,
worst first, and filtered in the page; each document as the parts the server answers
(`benchmark.viewer.index`), one script each under ``data/run-<i>/<packet>/<doc>/``, so a long
document loads what is in view as it does when served; every page of every PDF is rendered
once, at 2 x 72 dpi, under ``pages/<sha256 of the file>/<page>.png``. The folder is built
beside its target and renamed into place, so an interrupted export leaves no half folder and
replaces nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packetbench.benchmark.viewer import document, grid, index
from packetbench.benchmark.viewer.app import assets, run_row
from packetbench.benchmark.viewer.overview import kept_or_computed
from packetbench.benchmark.viewer.pages import Pages
from packetbench.benchmark.viewer.source import RunSource
from packetbench.core.errors import UsageError
from packetbench.core.locking import FolderBusy, hold

SCALE = 2
MARKER = "<!-- static-data -->"


@dataclass(frozen=True)
class Exported:
    folder: Path
    runs: int
    documents: int
    pages: int


def _script(key: str, data: Any) -> bytes:
    # ASCII only, so no byte of a run's strings can end the script or change its encoding.
    text = json.dumps(data, ensure_ascii=True, sort_keys=True, default=str)
    return f"PB_receive({json.dumps(key)}, {text});\n".encode("ascii")


def check_target(out: Path, force: bool) -> None:
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()):
        if not (out / "index.html").is_file() or not (out / "data").is_dir():
            raise UsageError(f"{out}: a folder with other files in it (not a viewer export)")
        if not force:
            raise UsageError(f"{out}: already exists (use --force to replace it)")


def export(
    sources: list[RunSource],
    pages: Pages,
    out: Path,
    force: bool = False,
    on_document: Callable[[int], None] | None = None,
) -> Exported:
    """Write the viewer of `sources` into `out` (replaced only with `force`). One export
    into `out` at a time: a second is refused while the first runs (a lock file beside
    `out`), and after it as any existing export is (without `force`)."""
    parent = out.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"{out}: cannot create the folder ({error.strerror})") from None
    try:
        with hold(parent, name=f".{out.name}.packetbench.lock"):
            check_target(out, force)
            return _export(sources, pages, out, parent, on_document)
    except FolderBusy as error:  # named as the export the other process is writing
        raise FolderBusy(str(error).replace(str(parent), str(out), 1)) from None


def _export(
    sources: list[RunSource],
    pages: Pages,
    out: Path,
    parent: Path,
    on_document: Callable[[int], None] | None,
) -> Exported:
    try:
        building = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-{os.getpid()}-", dir=parent))
    except OSError as error:
        raise UsageError(f"{out}: cannot create the folder ({error.strerror})") from None
    try:
        counted = _write(sources, pages, building, on_document)
        os.chmod(building, 0o777 & ~_umask())
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=parent))
            os.replace(out, old / "export")
            os.replace(building, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(building, out)
    except OSError as error:
        shutil.rmtree(building, ignore_errors=True)
        if machine_refused(error):  # a full disk: named as the export, nothing left of it
            raise refused_write(out, error) from None
        raise
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return Exported(out, len(sources), *counted)


def machine_refused(error: BaseException) -> bool:
    from packetbench.core.writing import machine_refused as refused

    return refused(error)


def refused_write(path: Path, error: BaseException) -> Exception:
    from packetbench.core.writing import refused_write as refused

    return refused(path, error)


def _umask() -> int:
    from packetbench.core.writing import umask

    return umask()


def _write(
    sources: list[RunSource],
    pages: Pages,
    folder: Path,
    on_document: Callable[[int], None] | None,
) -> tuple[int, int]:
    data = folder / "data"
    (folder / "static").mkdir(parents=True)
    data.mkdir()
    html = (assets() / "index.html").read_text(encoding="utf-8")
    (folder / "index.html").write_text(
        html.replace(MARKER, '<script src="data/static.js"></script>'), encoding="utf-8"
    )
    for name in ("app.js", "app.css"):
        shutil.copyfile(assets() / name, folder / "static" / name)
    (data / "static.js").write_text("window.PB_STATIC = true;\n", encoding="ascii")
    runs = [run_row(i, s) for i, s in enumerate(sources)]
    (data / "runs.js").write_bytes(_script("runs", runs))
    documents = rendered = 0
    files_done: set[str] = set()
    for position, source in enumerate(sources):
        (data / f"run-{position}-overview.js").write_bytes(
            _script(f"run-{position}-overview", kept_or_computed(source, pages.cache))
        )
        (data / f"run-{position}-documents.js").write_bytes(
            _script(
                f"run-{position}-documents",
                {"rows": source.all_rows(), "facets": source.facets(), "scored": source.scored},
            )
        )
        for packet, doc in source.documents:
            built = document.build(source, pages, packet.packet_id, doc.doc_id)
            # ids are checked to name files (`source.safe_id`): one folder per document
            folder_of_parts = data / f"run-{position}" / packet.packet_id / doc.doc_id
            folder_of_parts.mkdir(parents=True)
            for name, part in index.split(built).items():
                key = f"run-{position}/{packet.packet_id}/{doc.doc_id}/{name}"
                (folder_of_parts / f"{name}.js").write_bytes(_script(key, part))
            sha = built["file_sha256"]
            if sha not in files_done:
                files_done.add(sha)
                if doc.format == "pdf":
                    target = folder / "pages" / sha
                    target.mkdir(parents=True)
                    for page in range(1, len(built["pages"]) + 1):
                        image = pages.image(packet.path / doc.file, sha, page, SCALE)
                        shutil.copyfile(image, target / f"{page}.png")
                        rendered += 1
                else:
                    (data / f"grid-{sha}.js").write_bytes(
                        _script(f"grid-{sha}", grid.grid(packet.path / doc.file, doc.format))
                    )
            documents += 1
            if on_document is not None:
                on_document(documents)
    return documents, rendered
