"""The report's account of illegible fields (docs/patterns.md rule 3b): values the page shows only
past reading, where the truth is null and abstention is expected. How many were left empty (a
correct abstention) and how many guessed, by outcome, from the `illegible` views, with
bootstrap intervals over documents and packets (`estimates.estimate_view` over
`illegible_units`), overall and per tier.

A run whose packets have no illegible values has no rows: the report names it as absent, it
never shows it as zero.
"""

from __future__ import annotations

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


def illegible_context(runs: RunSet, layout: dict[str, Layout]) -> dict[str, Any]:
    """Per run with illegible fields: each outcome's count and share with its intervals, and
    the counts per tier; the runs without illegible fields."""
    found = runs.rows("SELECT * FROM illegible")
    present = [name for name in runs.names if any(r["run_id"] == name for r in found)]
    rows = []
    for name in present:
        whole = next(r for r in found if r["run_id"] == name and r["tier"] == "all")
        estimates = estimate_view(runs, layout[name], "illegible_units", ("metric",))
        for metric, label, definition in OUTCOMES:
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
        "outcomes": OUTCOMES,
        "tiers": [
            r for name in present for r in found if r["run_id"] == name and r["tier"] != "all"
        ],
        "absent": [name for name in runs.names if name not in present],
    }
