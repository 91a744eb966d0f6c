"""How many packets a comparison needs: sample size for a difference in a pooled rate.

A run's micro rate over n packets is a ratio estimator, sum(h) / sum(c). Linearized, its
variance is S_u^2 / (n c_bar^2), where u_p = h_p - R c_p is packet p's residual and c_bar the
mean denominator per packet; `packet_sd` = S_u / c_bar is the standard deviation that one
packet contributes. Two runs on the same n packets differ by a rate whose variance is
2 (1 - rho) packet_sd^2 / n, rho being the correlation of the two runs' packet rates (0 when
unknown, which errs on the side of more packets). A two-sided test at `alpha` then has power
Phi(effect / se - z_{1-alpha/2}).
"""

from __future__ import annotations

import math
from typing import overload

import numpy as np
import numpy.typing as npt
from scipy.stats import norm


def packet_sd(num: npt.NDArray[np.float64], den: npt.NDArray[np.float64]) -> float | None:
    """Per-packet standard deviation of the pooled rate (None with fewer than two packets
    or nothing to rate)."""
    if num.size < 2 or den.sum() <= 0:
        return None
    rate = num.sum() / den.sum()
    residuals = num - rate * den
    return float(np.std(residuals, ddof=1) / den.mean())


@overload
def packets_needed(
    sd: float,
    effect: float,
    alpha: float = 0.05,
    power: float = 0.8,
    correlation: float = 0.0,
    limit: None = None,
) -> int: ...


@overload
def packets_needed(
    sd: float,
    effect: float,
    alpha: float = 0.05,
    power: float = 0.8,
    correlation: float = 0.0,
    *,
    limit: int,
) -> int | None: ...


def packets_needed(
    sd: float,
    effect: float,
    alpha: float = 0.05,
    power: float = 0.8,
    correlation: float = 0.0,
    limit: int | None = None,
) -> int | None:
    """Packets per run to detect a difference of `effect` in the rate (two-sided); None when
    more than `limit` would be needed."""
    if effect <= 0:
        raise ValueError("the effect must be positive")
    z = float(norm.ppf(1 - alpha / 2) + norm.ppf(power))
    variance = 2 * (1 - correlation) * sd * sd
    # Divided by the effect twice rather than by its square, which underflows to 0 for an
    # effect below 1e-154; an infinite count is above any limit.
    needed = z * z * variance / effect / effect
    if limit is not None and not needed <= limit:
        return None
    return max(2, math.ceil(needed))


def power_at(
    packets: int, sd: float, effect: float, alpha: float = 0.05, correlation: float = 0.0
) -> float:
    """Power of the two-sided test with `packets` packets per run."""
    se = math.sqrt(2 * (1 - correlation) * sd * sd / packets)
    if se == 0:
        return 1.0
    return float(norm.cdf(effect / se - norm.ppf(1 - alpha / 2)))
