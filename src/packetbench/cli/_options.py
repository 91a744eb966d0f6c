"""What the commands' options share (a helper module: the command loader skips `_` names).

Every number option of every command is parsed by typer as a float, which accepts ``nan``
and ``inf``; a NaN compares false with everything, so ``--max-cost nan`` would be a cost cap
that never stops a run. Each float option therefore takes `finite` as its callback.
"""

from __future__ import annotations

import math
from typing import Annotated

import typer


def finite(value: float | None) -> float | None:
    """typer callback of a float option: the value, or a usage error when it is NaN or
    infinite (exit 2, one line naming the option)."""
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number")
    return value


# Sampling parameters, the same in `extract` and `run`.
Temperature = Annotated[
    float | None,
    typer.Option(callback=finite, help="API providers that take it: sampling temperature."),
]
TopP = Annotated[
    float | None,
    typer.Option(callback=finite, help="API providers that take it: nucleus sampling top_p."),
]
SamplingSeed = Annotated[
    int | None,
    typer.Option(help="API providers that take it: the seed the model samples with."),
]
