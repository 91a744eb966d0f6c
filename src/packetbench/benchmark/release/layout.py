"""What a release folder holds, and reading it back defensively.

```
DIR/release.json   name, version, generator and library versions, per split its tiers,
                   packets, knobs, seeds (dev) or their commitment (test), its documents'
                   pages, and the sha256 of COMMITMENT
DIR/COMMITMENT     one line per file of every split: "<sha256>  <split>/<folder>/<file>"
                   (`sha256sum -c COMMITMENT` reads it)
DIR/dev/           the public split: packets named by their packet ids, corpus.json/.lock
DIR/test/          the private split: packets in folders named by position (N1-t001...), so
                   that no folder name carries a seed
```

The sha256 of release.json is the release digest, the one figure to cite: release.json holds
the sha256 of COMMITMENT, which holds the sha256 of every file. Reading a release first
clears what a killed writer of it left beside it (`core.output_folder.recover`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from packetbench.core import ids, safe_read
from packetbench.core.errors import BadInput, CheckFailed
from packetbench.core.output_folder import recover
from packetbench.core.sealed import RELEASE_FILES

RELEASE, COMMITMENT = RELEASE_FILES
FORMAT = 1
_LINE = re.compile(r"([0-9a-f]{64})  (\S.*)\Z")


def test_folder(tier: str, index: int) -> str:
    """The folder of the `index`-th (1-based) test packet of `tier`: its position, no seed."""
    return f"{tier}-t{index:03d}"


class ReleaseMismatch(CheckFailed):
    """A release file that does not match release.json or COMMITMENT (exit 1 from verify;
    the other commands refuse such a release as bad input)."""


class TierEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    packets: int = Field(ge=1)
    first_seed: int | None = None  # dev only: the seeds are public
    knobs: dict[str, Any] | None = None  # None for an imported split


class SplitEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    public: bool
    source: Literal["generated", "imported"]
    tiers: dict[str, TierEntry]
    set_: list[str] = Field(default_factory=list, alias="set")
    draw: int | None = None
    seed_commitment: str | None = None
    imported_generator_versions: list[str] | None = None
    packets: list[str]
    documents: int
    pages: dict[str, dict[str, int]]  # packet folder -> doc_id -> pages (1 per sheet/CSV)
    files: int
    files_sha256: str


class ReleaseFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    release_format: int
    name: str
    version: str
    description: str
    licence: str
    generator_version: str
    library_versions: dict[str, str]
    splits: dict[str, SplitEntry]
    commitment_sha256: str


@dataclass(frozen=True)
class Release:
    """A release folder read back: release.json, its digest, and the committed hashes."""

    folder: Path
    manifest: ReleaseFile
    digest: str  # sha256 of release.json
    lines: dict[str, str] = field(repr=False)  # path (split/folder/file) -> sha256

    @property
    def title(self) -> str:
        return f"{self.manifest.name} {self.manifest.version}"

    def split(self, name: str) -> SplitEntry:
        return self.manifest.splits[name]

    def files_of(self, split: str, folder: str) -> dict[str, str]:
        """file (path inside the packet folder) -> sha256, for one packet of a split."""
        prefix = f"{split}/{folder}/"
        return {p[len(prefix) :]: sha for p, sha in self.lines.items() if p.startswith(prefix)}


def commitment_text(lines: dict[str, str]) -> bytes:
    return "".join(f"{lines[path]}  {path}\n" for path in sorted(lines)).encode()


def split_digest(lines: dict[str, str], split: str) -> str:
    mine = {p: sha for p, sha in lines.items() if p.startswith(f"{split}/")}
    return hashlib.sha256(commitment_text(mine)).hexdigest()


def manifest_bytes(manifest: ReleaseFile) -> bytes:
    data = manifest.model_dump(mode="json", by_alias=True)
    return orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n"


def parse_commitment(text: str, where: Path) -> dict[str, str]:
    """COMMITMENT's lines as path -> sha256; ReleaseMismatch on a malformed line or path."""
    lines: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        found = _LINE.match(line)
        if found is None:
            raise ReleaseMismatch(f"{where}: line {number} is not '<sha256>  <path>'")
        sha, path = found.groups()
        parts = path.split("/")
        if len(parts) < 2 or parts[0] not in ("dev", "test"):
            raise ReleaseMismatch(f"{where}: line {number}: {path!r} is not <split>/<file>")
        for part in parts:
            ids.check(part, f"line {number}: path part", where)
        if path in lines:
            raise ReleaseMismatch(f"{where}: line {number}: {path} is listed twice")
        lines[path] = sha
    return lines


def read_release(folder: Path) -> Release:
    """The release in `folder`: release.json checked, COMMITMENT checked against the sha256
    release.json records and against each split's `files_sha256`. BadInput when there is no
    release (or it cannot be read); ReleaseMismatch when its parts do not match."""
    recover(folder)  # what a killed build, refresh or publish of it left beside it
    if not folder.is_dir():
        raise BadInput(f"{folder}: {'not a folder' if folder.exists() else 'missing'}")
    path = folder / RELEASE
    try:
        raw = safe_read.read_bytes(path, "corpus")
    except FileNotFoundError:
        raise BadInput(f"{path}: missing (not a release folder)") from None
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error})") from None
    try:
        data = safe_read.parse_json(raw)
    except ValueError as error:
        raise BadInput(f"{path}: not JSON ({error})") from None
    try:
        manifest = ReleaseFile.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "release.json"
        raise BadInput(f"{path}: not a release manifest ({where}: {first['msg']})") from None
    if manifest.release_format != FORMAT:
        raise BadInput(f"{path}: release_format {manifest.release_format}, expected {FORMAT}")
    ids.check(manifest.name, "name", path)
    ids.check(manifest.version, "version", path)
    for name, split in manifest.splits.items():
        if name not in ("dev", "test"):
            raise BadInput(f"{path}: splits.{name}: unknown split")
        for packet in split.packets:
            ids.check(packet, f"splits.{name}.packets", path)
    commitment = folder / COMMITMENT
    try:
        body = safe_read.read_bytes(commitment, "corpus")
    except FileNotFoundError:
        raise ReleaseMismatch(f"{commitment}: missing") from None
    except OSError as error:
        raise BadInput(f"{commitment}: unreadable ({error})") from None
    if hashlib.sha256(body).hexdigest() != manifest.commitment_sha256:
        raise ReleaseMismatch(
            f"{commitment}: sha256 differs from the one release.json records (the commitment "
            "was changed)"
        )
    try:
        lines = parse_commitment(body.decode("utf-8"), commitment)
    except UnicodeDecodeError:
        raise ReleaseMismatch(f"{commitment}: not UTF-8 text") from None
    for name, split in manifest.splits.items():
        if split_digest(lines, name) != split.files_sha256:
            raise ReleaseMismatch(
                f"{commitment}: the lines of split {name} are not those release.json records"
            )
        listed = {p.split("/")[1] for p in lines if p.startswith(f"{name}/") and p.count("/") > 1}
        if not set(split.packets) <= listed:
            missing = sorted(set(split.packets) - listed)[0]
            raise ReleaseMismatch(f"{commitment}: no line for {name}/{missing}")
    stray = sorted({p.split("/")[0] for p in lines} - set(manifest.splits))
    if stray:
        raise ReleaseMismatch(f"{commitment}: lines of split {stray[0]}, which release.json lacks")
    return Release(folder, manifest, hashlib.sha256(raw).hexdigest(), lines)
