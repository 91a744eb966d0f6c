"""How the simulated extractor states its confidence (`--provider sim --confidence`).

Per claim, one seeded draw decides whether the sim knows if its value is right: with
probability `calibration` it does, and says a confidence in the upper half (0.51-1) for a
right value and in the lower half (0-0.49) for a wrong one; otherwise it guesses, a confidence
anywhere in 0-1 whatever the value. Confidences are given to two decimals, so ties occur, as
they do in models' answers. At calibration 1 the confidences rank every right value above
every wrong one (AUC 1); at 0 they rank at chance (AUC near 0.5). Every confidence and
whether its value is right go into the ledger, from which the expected AUC and calibration
error follow exactly (`expected`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from packetbench.benchmark.score.field_view import Claim

DEFAULT_CALIBRATION = 0.8
BINS = 10  # the reliability curve's bins: [0, 0.1), ..., [0.9, 1.0]


def confide(
    claims: list[Claim], calibration: float, rng: random.Random
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The answer's confidence entries and the ledger's (path, confidence, right, knew)."""
    entries: list[dict[str, Any]] = []
    ledger: list[dict[str, Any]] = []
    for claim in claims:
        source = claim.source or claim.path
        knew = rng.random() < calibration
        draw = rng.random()
        # knowing: the upper half for a right value, the lower for a wrong one; else a guess
        value = (0.51 + 0.49 * draw if claim.supported else 0.49 * draw) if knew else draw
        confidence = round(value, 2)
        entries.append({"path": source, "confidence": confidence})
        ledger.append(
            {"path": source, "confidence": confidence, "right": claim.supported, "knew": knew}
        )
    return entries, ledger


def tally(items: Iterable[dict[str, Any]], into: Counter[tuple[float, bool]]) -> None:
    """Count ledger items (each with confidence and right) by (confidence, right): all
    `expected` needs, whatever the number of claims."""
    into.update((float(i["confidence"]), bool(i["right"])) for i in items)


def expected(counts: Counter[tuple[float, bool]]) -> dict[str, Any]:
    """The rank AUC (ties count a half), the reliability bins and the expected calibration
    error of the ledger's items counted by (confidence, right) (`tally`), as the scorer must
    find them. The AUC's wins are counted exactly, pair counts by confidence."""
    right = sum(n for (_, ok), n in counts.items() if ok)
    wrong = sum(n for (_, ok), n in counts.items() if not ok)
    auc = None
    if right and wrong:
        below = 0  # wrong values with a lower confidence than the one at hand
        wins = 0.0
        for value in sorted({c for c, _ in counts}):
            ties = counts.get((value, False), 0)
            wins += counts.get((value, True), 0) * (below + 0.5 * ties)
            below += ties
        auc = wins / (right * wrong)
    bins = []
    for b in range(BINS):
        inside = {(c, ok): n for (c, ok), n in counts.items() if min(int(c * BINS), BINS - 1) == b}
        values = sum(inside.values())
        if values:
            bins.append(
                {
                    "bin": b,
                    "values": values,
                    "mean_confidence": sum(c * n for (c, _), n in sorted(inside.items())) / values,
                    "accuracy": sum(n for (_, ok), n in inside.items() if ok) / values,
                }
            )
    total = right + wrong
    ece = (
        sum(b["values"] * abs(b["accuracy"] - b["mean_confidence"]) for b in bins) / total
        if total
        else None
    )
    return {"values": total, "right": right, "auc": auc, "ece": ece, "bins": bins}
