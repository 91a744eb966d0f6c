"""`core.images.pixels`: a gray image's pixels as an array without a copy, the same values
as numpy's copy, alive as long as the array is."""

from __future__ import annotations

import gc
import io

import numpy as np
import pytest
from PIL import Image

from packetbench.core import images


def _photo() -> bytes:
    """A JPEG of a page-sized gray image (noise over ruled lines), as a scan stores one."""
    rng = np.random.default_rng(5)
    page = rng.integers(120, 256, (1650, 1275), dtype=np.uint8)
    page[::9, :] = 20
    out = io.BytesIO()
    Image.fromarray(page).save(out, "JPEG", quality=75)
    return out.getvalue()


def test_a_decoded_page_is_its_pixels_without_a_copy() -> None:
    with Image.open(io.BytesIO(_photo())) as decoded:
        decoded.load()
        copied = np.asarray(decoded)
        shared = images.pixels(decoded)
        assert shared.shape == copied.shape and np.array_equal(shared, copied)
        # the image's memory, not a copy of it: a pixel written shows in the image
        shared[3, 7] = 255 - int(shared[3, 7])
        assert decoded.getpixel((7, 3)) == shared[3, 7]


def test_the_pixels_outlive_the_image() -> None:
    image = Image.new("L", (640, 480), 41)
    image.paste(200, (10, 20, 30, 40))
    shared = images.pixels(image)
    del image
    gc.collect()
    Image.new("L", (640, 480), 0)  # memory freed now would be reused by this one
    assert int(shared[25, 15]) == 200 and int(shared[0, 0]) == 41
    assert int(shared.sum()) == 41 * (640 * 480 - 400) + 200 * 400


def test_a_decoded_page_s_pixels_outlive_the_closed_file() -> None:
    with Image.open(io.BytesIO(_photo())) as decoded:
        shared = images.pixels(decoded)
        copied = np.array(shared)
    del decoded
    gc.collect()
    Image.new("L", shared.shape[::-1], 0)  # memory freed now would be reused by this one
    assert np.array_equal(shared, copied)


def test_only_gray_images() -> None:
    with pytest.raises(ValueError, match="RGB: not a gray image"):
        images.pixels(Image.new("RGB", (4, 4)))
