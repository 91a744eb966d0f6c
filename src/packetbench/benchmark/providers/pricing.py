"""The pricing table (``pricing.json``, or the user's ``--pricing FILE``) and what a reply
costs.

A model is found by its exact name, else by the longest listed name it extends at a ``-``
boundary (``claude-sonnet-4-5-20250929`` is priced as ``claude-sonnet-4-5``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packetbench.core import safe_read
from packetbench.core.errors import BadInput

TABLE = Path(__file__).with_name("pricing.json")
PER = 1_000_000


@dataclass(frozen=True)
class Price:
    model: str  # the table entry that matched
    input: float
    output: float
    reasoning: float
    batch: bool = False  # the batch APIs' prices: half of every per-token price

    def for_batch(self) -> Price:
        """This price as the batch APIs of OpenAI, Anthropic and Gemini charge it (half)."""
        return Price(self.model, self.input / 2, self.output / 2, self.reasoning / 2, True)

    def cost(self, input_tokens: int, output_tokens: int, reasoning_tokens: int) -> float:
        return (
            input_tokens * self.input
            + output_tokens * self.output
            + reasoning_tokens * self.reasoning
        ) / PER

    def describe(self) -> dict[str, Any]:
        return {
            "entry": self.model,
            "usd_per_million": {
                "input": self.input,
                "output": self.output,
                "reasoning": self.reasoning,
            },
            **({"batch": "batch API prices: half the per-token list prices"} if self.batch else {}),
        }


def load(extra: Path | None = None) -> dict[str, Price]:
    """The packaged table, with the models of `extra` added or replaced."""
    table = _read(TABLE)
    if extra is not None:
        table.update(_read(extra))
    return table


def _price(value: Any) -> float:
    """A price per million tokens: a finite number, zero or more (a NaN price would make
    every cost NaN, and a NaN cost never reaches --max-cost)."""
    price = float(value)
    if not math.isfinite(price) or price < 0:
        raise ValueError(f"a price must be a finite number of dollars, zero or more, not {value!r}")
    return price


def _read(path: Path) -> dict[str, Price]:
    try:
        data = json.loads(safe_read.read_text(path, "settings"))
        return {
            name: Price(
                name,
                _price(entry["input"]),
                _price(entry["output"]),
                _price(entry.get("reasoning", entry["output"])),
            )
            for name, entry in data["models"].items()
        }
    except OSError as error:
        raise BadInput(f"{path}: unreadable ({error.strerror})") from None
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise BadInput(
            f"{path}: not a pricing table ({error!r}); expected "
            '{"models": {"<model>": {"input": $, "output": $, "reasoning": $}}}'
        ) from None


def price(table: dict[str, Price], model: str) -> Price | None:
    if model in table:
        return table[model]
    bare = model.rsplit("/", 1)[-1]  # "models/gemini-2.5-pro"
    matches = [name for name in table if bare == name or bare.startswith(f"{name}-")]
    return table[max(matches, key=len)] if matches else None
