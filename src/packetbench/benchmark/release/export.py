"""`release export`: a release as Parquet, one row per document, and its dataset card.

Each split present in the release folder becomes DATA/<split>.parquet. A row holds the
document's file (bytes), its PDF pages rendered by pypdfium2 at the stated dpi as PNG bytes
(workbooks and CSV files have none), its schema (name and JSON Schema), its truth (the
document_truth object, as JSON text), its tier and the ids of the presentation patterns applied
to it. The test split is exported as its documents only: truth, seed and packet ids are left
out (its folders are named by position), since they are what the commitment keeps private.

DATA is written as every output folder is (`core.output_folder`): one export at a time, never
inside a release, never over files it did not write (a README.md of the user's is refused,
not replaced by the card), all of its files replaced together or none.

The Parquet schema carries the Hugging Face `datasets` features (page images as a list of
`Image`), so `load_dataset("parquet", data_files=...)` shows pages as images. Rows are written
a row group at a time, flushed every `ROWS` documents or `BUFFER` bytes of images, so a
corpus never sits in memory whole.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from packetbench.benchmark.release import reading
from packetbench.benchmark.release.layout import Release, ReleaseMismatch
from packetbench.core import safe_read
from packetbench.core.errors import BadInput, UsageError
from packetbench.core.output_folder import output_folder
from packetbench.core.resources import resource_dir
from packetbench.core.templates import environment

ROWS = 16  # documents per row group at most
BUFFER = 64 << 20  # bytes of files and images held before a row group is written
CARD = "README.md"
NAMES = frozenset({"dev.parquet", "test.parquet", CARD})  # what an export writes into DATA

FEATURES: dict[str, Any] = {
    "release": {"dtype": "string", "_type": "Value"},
    "version": {"dtype": "string", "_type": "Value"},
    "split": {"dtype": "string", "_type": "Value"},
    "packet": {"dtype": "string", "_type": "Value"},
    "seed": {"dtype": "int64", "_type": "Value"},
    "tier": {"dtype": "string", "_type": "Value"},
    "doc_id": {"dtype": "string", "_type": "Value"},
    "doc_type": {"dtype": "string", "_type": "Value"},
    "format": {"dtype": "string", "_type": "Value"},
    "file_name": {"dtype": "string", "_type": "Value"},
    "file": {"dtype": "binary", "_type": "Value"},
    "file_sha256": {"dtype": "string", "_type": "Value"},
    "pages": {"dtype": "int32", "_type": "Value"},
    "dpi": {"dtype": "int32", "_type": "Value"},
    "page_images": {"feature": {"_type": "Image"}, "_type": "List"},
    "schema": {"dtype": "string", "_type": "Value"},
    "json_schema": {"dtype": "string", "_type": "Value"},
    "truth": {"dtype": "string", "_type": "Value"},
    "patterns": {"feature": {"dtype": "string", "_type": "Value"}, "_type": "List"},
}


def _arrow_schema() -> Any:
    import pyarrow as pa

    image = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    types = {
        "seed": pa.int64(),
        "file": pa.binary(),
        "pages": pa.int32(),
        "dpi": pa.int32(),
        "page_images": pa.list_(image),
        "patterns": pa.list_(pa.string()),
    }
    fields = [pa.field(name, types.get(name, pa.string())) for name in FEATURES]
    metadata = {b"huggingface": json.dumps({"info": {"features": FEATURES}}).encode()}
    return pa.schema(fields, metadata=metadata)


def _png_pages(path: Path, dpi: int) -> list[dict[str, Any]]:
    """Every page of the PDF at `path`, rendered at `dpi`, as PNG bytes."""
    import pypdfium2 as pdfium

    safe_read.check_file(path, "document")
    images: list[dict[str, Any]] = []
    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as error:
        raise BadInput(f"{path}: not a readable PDF ({error})") from None
    try:
        for index in range(len(document)):
            page = document[index]
            try:
                bitmap = page.render(scale=dpi / 72)
                image = bitmap.to_pil()
                buffer = io.BytesIO()
                image.save(buffer, format="PNG")
                images.append({"bytes": buffer.getvalue(), "path": f"page-{index + 1:04d}.png"})
            finally:
                page.close()
    finally:
        document.close()
    return images


def _schema_text(folder: Path, schema: str) -> str:
    """The JSON Schema of `schema`: packetbench's own, or a namespace's kept in the packet
    (an imported corpus's `schemas/` folder)."""
    if "/" in schema:
        path = folder / "schemas" / f"{schema.rsplit('/', 1)[1]}.schema.json"
    else:
        path = resource_dir("schemas") / f"{schema}.schema.json"
    try:
        return safe_read.read_text(path, "schema")
    except OSError as error:
        raise BadInput(f"{path}: the schema of {folder.name} is unreadable ({error})") from None


@dataclass
class Exported:
    release: Release
    rows: dict[str, int] = field(default_factory=dict)
    pages: dict[str, int] = field(default_factory=dict)
    bytes: dict[str, int] = field(default_factory=dict)


def _rows(release: Release, split: str, dpi: int) -> Any:
    """One dict per document of `split`, in packet and document order."""
    entry = release.split(split)
    public = entry.public
    root = release.folder / split
    for packet in entry.packets:
        folder = root / packet
        info = reading.packet_info(folder)
        files = release.files_of(split, packet)
        for doc in info.documents:
            path = folder / doc.file
            data = safe_read.read_bytes(path, "document")
            import hashlib

            sha = hashlib.sha256(data).hexdigest()
            if files.get(doc.file) != sha:
                raise ReleaseMismatch(f"{path}: sha256 differs from COMMITMENT")
            images = _png_pages(path, dpi) if doc.format == "pdf" else []
            yield {
                "release": release.manifest.name,
                "version": release.manifest.version,
                "split": split,
                "packet": packet,
                "seed": info.seed if public else None,
                "tier": info.tier,
                "doc_id": doc.doc_id,
                "doc_type": doc.doc_type,
                "format": doc.format,
                "file_name": doc.file,
                "file": data,
                "file_sha256": sha,
                "pages": len(images),
                "dpi": dpi if images else None,
                "page_images": images,
                "schema": doc.schema,
                "json_schema": _schema_text(folder, doc.schema),
                "truth": (
                    orjson.dumps(reading.document_truth(folder, doc.doc_id)).decode()
                    if public
                    else None
                ),
                "patterns": reading.pattern_ids(folder, doc.doc_id),
            }


def _write_split(release: Release, split: str, target: Path, dpi: int, done: Exported) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = _arrow_schema()
    rows: list[dict[str, Any]] = []
    held = 0
    count = pages = 0
    with pq.ParquetWriter(str(target), schema, compression="zstd") as writer:

        def flush() -> None:
            nonlocal rows, held
            if rows:
                writer.write_table(pa.Table.from_pylist(rows, schema=schema))
            rows, held = [], 0

        for row in _rows(release, split, dpi):
            rows.append(row)
            count += 1
            pages += row["pages"]
            held += len(row["file"]) + sum(len(i["bytes"]) for i in row["page_images"])
            if len(rows) >= ROWS or held >= BUFFER:
                flush()
        flush()
    done.rows[split] = count
    done.pages[split] = pages
    done.bytes[split] = target.stat().st_size


def export(
    folder: Path,
    out: Path,
    *,
    dpi: int = 100,
    force: bool = False,
    progress: Callable[[str], None] | None = None,
) -> Exported:
    """Write DATA/<split>.parquet for every split present in the release `folder`, and the
    dataset card DATA/README.md."""
    from packetbench.benchmark.release.layout import read_release

    try:
        import pyarrow  # noqa: F401
    except ImportError as error:
        raise UsageError(
            f"release export needs pyarrow ({error}); pip install 'packetbench[release]'"
        ) from None
    if not 36 <= dpi <= 600:
        raise UsageError(f"--dpi must be between 36 and 600 (got {dpi})")
    try:
        release = read_release(folder)
    except ReleaseMismatch as error:
        raise BadInput(f"{error} (run packetbench release verify {folder})") from None
    present = [name for name in release.manifest.splits if (folder / name).is_dir()]
    done = Exported(release)
    writing = output_folder(
        out, NAMES, command="release export", force=force, what="dataset", ours=_ours
    )
    with writing as into:
        for name in present:
            if progress is not None:
                progress(f"exporting split {name}")
            target = into.staging / f"{name}.parquet"
            try:
                with into.naming(target):
                    _write_split(release, name, target, dpi, done)
            except ReleaseMismatch as error:
                raise BadInput(f"{error} (run packetbench release verify {folder})") from None
        into.write(CARD, card(release, done, dpi).encode())
    return done


def _ours(path: Path) -> bool:
    """Whether `path` is a file an export wrote: a Parquet file by its name, README.md only
    when it is a dataset card of one (a README.md of the user's is never replaced)."""
    if path.name != CARD:
        return True
    try:
        text = safe_read.read_text(path, "settings")
    except (OSError, UnicodeDecodeError, BadInput):
        return False
    listed = any(f"\n    path: {name}.parquet\n" in text for name in ("dev", "test"))
    return text.startswith("---\nlicense: ") and listed and "packetbench" in text


def card(release: Release, done: Exported, dpi: int) -> str:
    """The dataset card (README.md with the Hugging Face front matter)."""
    env = environment("release", keep_trailing_newline=True)
    manifest = release.manifest
    splits = []
    for name, entry in manifest.splits.items():
        splits.append(
            {
                "name": name,
                "entry": entry,
                "exported": name in done.rows,
                "rows": done.rows.get(name, 0),
                "pages": done.pages.get(name, 0),
                "bytes": done.bytes.get(name, 0),
            }
        )
    return env.get_template("card.md.j2").render(
        release=manifest,
        digest=release.digest,
        splits=splits,
        dpi=dpi,
        features=list(FEATURES),
    )
