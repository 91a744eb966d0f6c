"""A Pillow image's gray pixels as a numpy array, without copying them.

`np.asarray(image)` goes through `Image.tobytes`, which copies the pixels out in pieces and
joins them: about 5 ms for a photographed page of 6 megapixels, and a hard packet's page
made two or three such arrays. Pillow exports an image's memory through the Arrow C data
interface (`__arrow_c_array__`): a fixed struct whose second buffer is the pixels, row
after row. `pixels` reads that struct and wraps the buffer as it is, keeping the export
(and through it the image's memory) alive as long as the array; anything but one plain
buffer of bytes falls back to the copy.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
from PIL import Image

Matrix = np.ndarray[Any, Any]


# The last fields of both structs of the Arrow C data interface.
_TAIL = (
    ("children", ctypes.c_void_p),
    ("dictionary", ctypes.c_void_p),
    ("release", ctypes.c_void_p),
    ("private_data", ctypes.c_void_p),
)


class _ArrowSchema(ctypes.Structure):
    _fields_ = (
        ("format", ctypes.c_char_p),
        ("name", ctypes.c_char_p),
        ("metadata", ctypes.c_char_p),
        ("flags", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        *_TAIL,
    )


class _ArrowArray(ctypes.Structure):
    _fields_ = (
        ("length", ctypes.c_int64),
        ("null_count", ctypes.c_int64),
        ("offset", ctypes.c_int64),
        ("n_buffers", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        ("buffers", ctypes.POINTER(ctypes.c_void_p)),
        *_TAIL,
    )


_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_pointer.restype = ctypes.c_void_p
_pointer.argtypes = (ctypes.py_object, ctypes.c_char_p)


def _exported(image: Image.Image) -> Matrix | None:
    try:
        schema_capsule, array_capsule = image.__arrow_c_array__()
    except (AttributeError, ValueError, TypeError):  # an older Pillow, or memory in pieces
        return None
    schema = _ArrowSchema.from_address(_pointer(schema_capsule, b"arrow_schema"))
    array = _ArrowArray.from_address(_pointer(array_capsule, b"arrow_array"))
    width, height = image.size
    if not (
        schema.format == b"C"  # uint8
        and schema.n_children == 0
        and array.length == width * height
        and array.null_count == 0
        and array.offset == 0
        and array.n_buffers == 2
        and array.n_children == 0
        and array.buffers[1]
    ):
        return None
    memory = (ctypes.c_ubyte * (width * height)).from_address(array.buffers[1])
    memory._export = (schema_capsule, array_capsule)  # type: ignore[attr-defined]
    return np.frombuffer(memoryview(memory), dtype=np.uint8).reshape(height, width)


def pixels(image: Image.Image) -> Matrix:
    """The pixels of the gray ("L") `image`, a row per pixel row (uint8), sharing its memory:
    writing the array writes the image. For an image no one else draws on or reads after
    (a decoded page, the result of a lookup table or a multiply)."""
    if image.mode != "L":
        raise ValueError(f"{image.mode}: not a gray image")
    image.load()
    found = _exported(image)
    return found if found is not None else np.array(image)
