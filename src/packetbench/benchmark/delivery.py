"""How a run's pages reached the model (`run.json` `delivery`), and which values that hides.

A model never reads a packet's PDF at the file's own resolution (docs/resolution.md).
`extract --input images --dpi N` renders each page at N dpi (150 unless told); `--input
native` sends the PDF itself and the provider rasterises it at a size of its own, recorded as
an assumption from the provider's documentation (`rasterisation.json`, per provider and model
family) unless `--delivered-dpi N` states it; `--input text` sends the text layer, no pixels.
The run records which (`Delivery.describe`): the input, the delivered resolution (None: the
file's own), where that figure came from (`images`, `assumed`, `override`, `text`), and whether
the PDF's text layer reached the model as text too.

The scorer and the simulator read it back (`of_run`): a located value legible in the file but
at none of its locations at the delivered resolution (`resolution.legible_at`) is *below the
delivered resolution* for that run (`below_resolution`), an abstention test exactly as a value
past reading is. How the scorer tells the input modes apart: by `text_layer`. A location whose
text the PDF's text layer carries (`text_layer: true` in the field truth) is legible at any
resolution when the run sent the text layer (native to a provider that extracts it, text); a
run of page images (`images`) sent pixels only, so every location is judged by its rung. A run
recorded without `delivery` (made before it was recorded) is scored at the file's resolution,
as it always was, and the report says so.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from packetbench.core.errors import UsageError
from packetbench.reading.resolution import LADDER, legible_at

DEFAULT_DPI = 150  # what `--input images` renders a page at unless --dpi says otherwise
TABLE = Path(__file__).parent / "providers" / "rasterisation.json"
SOURCES = ("images", "assumed", "override", "text")


@dataclass(frozen=True)
class Delivery:
    """How one run's pages reached the model."""

    input: str  # native | text | images
    dpi: int | None  # the delivered resolution; None: the file's own
    source: str  # SOURCES: what the dpi comes from
    text_layer: bool  # the PDF's text layer reached the model as text
    basis: str | None = None  # an assumed dpi's documented reason and its source

    def describe(self) -> dict[str, Any]:
        """run.json's `delivery`."""
        info: dict[str, Any] = {
            "input": self.input,
            "dpi": self.dpi,
            "source": self.source,
            "text_layer": self.text_layer,
        }
        if self.basis is not None:
            info["basis"] = self.basis
        return info

    @property
    def hides(self) -> bool:
        """Whether some located value may be below this resolution (a dpi below the top)."""
        return self.dpi is not None


def check_dpi(dpi: int, option: str) -> None:
    """UsageError (exit 2) unless `dpi` is a rung of the ladder: legibility is recorded at
    those rungs only, so a run between two would be scored at neither."""
    if dpi not in LADDER:
        raise UsageError(
            f"{option} must be one of {', '.join(map(str, LADDER))} dpi (the rungs legibility "
            f"is recorded at; got {dpi})"
        )


@cache
def _table() -> dict[str, list[dict[str, Any]]]:
    providers: dict[str, list[dict[str, Any]]] = json.loads(TABLE.read_text("utf-8"))["providers"]
    return providers


def assumed(provider: str, model: str | None) -> dict[str, Any] | None:
    """The rasterisation table's entry for `provider` and `model` (the first whose prefix
    starts the model's name), or None for a provider it lacks."""
    for entry in _table().get(provider, []):
        if (model or "").startswith(entry["prefix"]):
            return entry
    return None


def decide(
    provider: str,
    model: str | None,
    input_mode: str,
    dpi: int | None = None,
    delivered_dpi: int | None = None,
    native_pdf: bool = True,
) -> Delivery:
    """The delivery of a run asked for with these options, checked (UsageError, exit 2):
    `dpi` is `--dpi` (images only), `delivered_dpi` is `--delivered-dpi` (native only);
    `native_pdf` False: the provider takes no PDF, so native is sent as text."""
    if dpi is not None:
        if input_mode != "images":
            raise UsageError(
                f"--dpi sets the resolution of --input images (got --input {input_mode})"
            )
        check_dpi(dpi, "--dpi")
    if delivered_dpi is not None:
        if input_mode != "native":
            raise UsageError(
                "--delivered-dpi states how the provider rasterises a PDF sent with --input "
                f"native (got --input {input_mode}; --input images sends --dpi)"
            )
        check_dpi(delivered_dpi, "--delivered-dpi")
    if input_mode == "images":
        return Delivery("images", DEFAULT_DPI if dpi is None else dpi, "images", False)
    if input_mode == "text" or not native_pdf:
        return Delivery(input_mode, None, "text", True)
    entry = assumed(provider, model)
    text_layer = True if entry is None else bool(entry["text_layer"])
    if delivered_dpi is not None:
        return Delivery("native", delivered_dpi, "override", text_layer)
    if entry is None:
        return Delivery("native", None, "assumed", text_layer, "no documented rasterisation")
    return Delivery(
        "native", entry["dpi"], "assumed", text_layer, f"{entry['basis']} ({entry['source']})"
    )


def of_run(info: Any) -> Delivery | None:
    """The delivery a run.json records (`RunInfo` or its dict), or None for a run recorded
    without one (scored at the file's resolution)."""
    found = info.get("delivery") if isinstance(info, Mapping) else getattr(info, "delivery", None)
    if not isinstance(found, Mapping):
        return None
    dpi = found.get("dpi")
    return Delivery(
        str(found.get("input")),
        dpi if isinstance(dpi, int) and not isinstance(dpi, bool) else None,
        str(found.get("source")),
        found.get("text_layer") is True,
        found.get("basis") if isinstance(found.get("basis"), str) else None,
    )


def below_resolution(
    entries: Iterable[Mapping[str, Any]], delivery: Delivery | None
) -> dict[str, Any]:
    """The values of field_truth `entries` below the delivered resolution (path -> value):
    legible in the file (not `illegible`), located on pages, and legible at none of their
    locations as delivered. None (a run without a delivery), or a delivery at the file's own
    resolution: none."""
    if delivery is None or delivery.dpi is None:
        return {}
    found: dict[str, Any] = {}
    for entry in entries:
        if entry.get("illegible") is True:
            continue
        located = [
            place
            for place in entry.get("locations") or []
            if isinstance(place, Mapping) and "page" in place
        ]
        if located and not any(
            legible_at(place, delivery.dpi, delivery.text_layer) for place in located
        ):
            found[str(entry["path"])] = entry.get("value")
    return found


_PART = re.compile(r"([^.\[\]]+)((?:\[\d+\])*)")


def withheld(truth: dict[str, Any], paths: Iterable[str]) -> dict[str, Any]:
    """`truth` with the leaf at each of `paths` made null (a copy; `truth` itself when there is
    none): what the page, as delivered, shows there. A path the truth lacks is skipped."""
    paths = list(paths)
    if not paths:
        return truth
    out = copy.deepcopy(truth)
    for path in paths:
        node: Any = out
        parts = path.split(".")
        for position, part in enumerate(parts):
            match = _PART.fullmatch(part)
            if match is None or not isinstance(node, dict) or match.group(1) not in node:
                break
            name = match.group(1)
            indices = [int(i) for i in re.findall(r"\d+", match.group(2))]
            if position == len(parts) - 1 and not indices:
                node[name] = None
                break
            node = node[name]
            for depth, index in enumerate(indices):
                if not isinstance(node, list) or index >= len(node):
                    node = None
                    break
                if position == len(parts) - 1 and depth == len(indices) - 1:
                    node[index] = None
                    break
                node = node[index]
    return out
