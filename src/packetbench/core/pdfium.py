"""pdfium is not thread-safe: every use of it in a process goes through `LOCK`."""

from __future__ import annotations

import threading

LOCK = threading.Lock()
