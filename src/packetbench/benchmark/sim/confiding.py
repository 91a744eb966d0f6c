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


def expected(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The rank AUC (ties count a half), the reliability bins and the expected calibration
    error of ledger items (each with confidence and right), as the scorer must find them."""
    right = [i["confidence"] for i in items if i["right"]]
    wrong = [i["confidence"] for i in items if not i["right"]]
    auc = None
    if right and wrong:
        wins = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
        auc = wins / (len(right) * len(wrong))
    bins = []
    for b in range(BINS):
        inside = [i for i in items if min(int(i["confidence"] * BINS), BINS - 1) == b]
        if inside:
            bins.append(
                {
                    "bin": b,
                    "values": len(inside),
                    "mean_confidence": sum(i["confidence"] for i in inside) / len(inside),
                    "accuracy": sum(bool(i["right"]) for i in inside) / len(inside),
                }
            )
    total = len(items)
    ece = (
        sum(b["values"] * abs(b["accuracy"] - b["mean_confidence"]) for b in bins) / total
        if total
        else None
    )
    return {"values": total, "right": len(right), "auc": auc, "ece": ece, "bins": bins}
