"""Memory a long-lived worker holds between tasks, handed back to the system.

A worker auditing packets one after another frees each packet's pages and rebuilt documents,
but the C allocator keeps most of what it freed in its heaps (glibc returns only the top of
a heap on its own), so the resident set after a task stays near the largest task's peak and
the next task's peak lands on top of it. `give_back` asks glibc to return every free page
(`malloc_trim`); elsewhere it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys
from functools import cache
from typing import Any


@cache
def _libc() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def give_back() -> None:
    """Collect cycles, then return the allocator's free pages to the system."""
    gc.collect()
    trim = _libc()
    if trim is not None:
        trim(0)
