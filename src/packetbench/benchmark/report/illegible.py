"""The report's account of illegible fields (docs/patterns.md rule 3b): values the page shows only
past reading, where the truth is null and abstention is expected. How many were left empty (a
correct abstention) and how many guessed, by outcome, from the `illegible` views, with
bootstrap intervals over documents and packets (`estimates.estimate_view` over
`illegible_units`), overall and per tier.

The same account is given of the fields below each run's delivered resolution
(docs/resolution.md: legible in the file, not on the page as the run sent it), from the
`below_resolution` views, with how each run's pages reached the model.

A run whose packets have no illegible values (no value below its resolution) has no rows: the
report names it as absent, it never shows it as zero.
"""

from __future__ import annotations

import json
from typing import Any

from packetbench.benchmark.report.estimates import Layout, estimate_view
from packetbench.benchmark.results.query import RunSet

# metric, label, definition; each a share of the illegible fields (the four add up to 1)
OUTCOMES: tuple[tuple[str, str, str], ...] = (
    ("abstained", "Abstained", "illegible fields left empty (the correct answer)"),
    ("guess_right", "Guessed right", "illegible fields given the value the damage destroyed"),
    (
        "guess_grounded",
        "Guessed from the packet",
        "illegible fields given another value the packet shows",
    ),
    ("guess_wrong", "Guessed wrong", "illegible fields given a value the packet shows nowhere"),
)


# The same four outcomes for the fields below a run's delivered resolution (docs/resolution.md).
BELOW_OUTCOMES: tuple[tuple[str, str, str], ...] = (
    ("abstained", "Abstained", "fields below the resolution left empty (the correct answer)"),
    (
        "guess_right",
        "Read right",
        "fields below the resolution given the file's value (counted apart, not as a hit)",
    ),
    (
        "guess_grounded",
        "Guessed from the packet",
        "fields below the resolution given another value the packet shows",
    ),
    (
        "guess_wrong",
        "Guessed wrong",
        "fields below the resolution given a value the packet shows nowhere",
    ),
)


def illegible_context(runs: RunSet, layout: dict[str, Layout]) -> dict[str, Any]:
    """Per run with illegible fields: each outcome's count and share with its intervals, and
    the counts per tier; the runs without illegible fields."""
    return _outcomes(runs, layout, "illegible", OUTCOMES)


def below_resolution_context(runs: RunSet, layout: dict[str, Layout]) -> dict[str, Any]:
    """`illegible_context` for the fields below each run's delivered resolution (the
    `below_resolution` views), with how each run's pages reached the model (run.json
    `delivery`; None: recorded without one, scored at the file's resolution)."""
    found = _outcomes(runs, layout, "below_resolution", BELOW_OUTCOMES)
    configs = {r["run_id"]: json.loads(r["config"]) for r in runs.metric("runs")}
    found["deliveries"] = [
        {"run_id": name, "delivery": configs.get(name, {}).get("delivery")} for name in runs.names
    ]
    return found


def _outcomes(
    runs: RunSet, layout: dict[str, Layout], view: str, outcomes: tuple[tuple[str, str, str], ...]
) -> dict[str, Any]:
    """Per run with rows in `view`: each outcome's count and share with its intervals (over
    `view`_units), and the counts per tier; the runs without rows."""
    found = runs.rows(f"SELECT * FROM {view}")
    present = [name for name in runs.names if any(r["run_id"] == name for r in found)]
    rows = []
    for name in present:
        whole = next(r for r in found if r["run_id"] == name and r["tier"] == "all")
        estimates = estimate_view(runs, layout[name], f"{view}_units", ("metric",))
        for metric, label, definition in outcomes:
            estimate = estimates.get((metric,))
            rows.append(
                {
                    "run_id": name,
                    "label": label,
                    "definition": definition,
                    "documents": whole["documents"],
                    "num": whole[metric],
                    "den": whole["fields"],
                    "micro": estimate.micro if estimate else None,
                    "macro": estimate.macro if estimate else None,
                    "estimate": estimate,
                }
            )
    return {
        "rows": rows,
        "outcomes": outcomes,
        "tiers": [
            r for name in present for r in found if r["run_id"] == name and r["tier"] != "all"
        ],
        "absent": [name for name in runs.names if name not in present],
    }
