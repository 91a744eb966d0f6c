"""A content-addressed response cache: an identical request is answered from disk, free.

The key is the sha256 of everything that decides an answer: provider, model, base URL, the
request parameters, the prompt, the schema sent and the document's sha256. An entry is the
provider's reply in neutral form (text, finish reason, usage), written atomically; a damaged
entry is ignored and replaced. The default folder is ``$PACKETBENCH_CACHE`` or
``$XDG_CACHE_HOME/packetbench/responses`` (``~/.cache/packetbench/responses``).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from packetbench.benchmark.providers.api import Reply
from packetbench.core import safe_read
from packetbench.core.errors import UsageError
from packetbench.core.writing import write_atomic


def default_folder() -> Path:
    if os.environ.get("PACKETBENCH_CACHE"):
        return Path(os.environ["PACKETBENCH_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "packetbench" / "responses"


def key(parts: dict[str, Any]) -> str:
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def usable_folder(folder: Path) -> Path:
    """`folder` after making sure the cache can live there: a folder (made when missing)
    that accepts files. UsageError otherwise, before the first request: a cache that
    cannot be written would turn every request into an error."""
    where = "the response cache (--cache or $PACKETBENCH_CACHE)"
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: not a folder, so it cannot hold {where}")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = tempfile.mkstemp(prefix=".write-probe-", dir=folder)
        os.close(probe[0])
        os.unlink(probe[1])
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise UsageError(f"{folder}: cannot write {where} there ({reason})") from None
    return folder


class ResponseCache:
    def __init__(self, folder: Path | None) -> None:
        self.folder = folder  # None: caching off

    def _path(self, digest: str) -> Path:
        assert self.folder is not None
        return self.folder / digest[:2] / f"{digest}.json"

    def get(self, digest: str) -> Reply | None:
        if self.folder is None:
            return None
        try:
            data = json.loads(safe_read.read_bytes(self._path(digest), "settings"))
            return Reply.from_json(data["reply"])
        except (OSError, ValueError, KeyError, TypeError, safe_read.UnsafeFile):
            return None  # a damaged entry (or not a file at all): asked again, and replaced

    def put(self, digest: str, reply: Reply, about: dict[str, Any]) -> None:
        if self.folder is None:
            return
        entry = {"key": digest, **about, "reply": reply.to_json()}
        write_atomic(
            self._path(digest), json.dumps(entry, ensure_ascii=False, indent=1).encode("utf-8")
        )
