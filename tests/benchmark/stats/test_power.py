"""Sample sizes: the packets `packets_needed` asks for give the power asked for."""

from __future__ import annotations

import numpy as np
import pytest

from packetbench.benchmark.stats.power import packet_sd, packets_needed, power_at


def test_packet_sd_of_the_pooled_rate() -> None:
    num = np.array([2.0, 4.0, 6.0, 8.0])
    den = np.array([100.0, 100.0, 100.0, 100.0])
    # equal denominators: the spread of the packet rates themselves
    assert packet_sd(num, den) == pytest.approx(np.std(num / den, ddof=1))
    assert packet_sd(num[:1], den[:1]) is None


def test_more_packets_for_smaller_effects() -> None:
    assert packets_needed(0.02, 0.01) > packets_needed(0.02, 0.02) > packets_needed(0.02, 0.04)
    assert packets_needed(0.02, 0.01) == pytest.approx(4 * packets_needed(0.02, 0.02), rel=0.1)
    assert packets_needed(0.02, 0.02, correlation=0.5) < packets_needed(0.02, 0.02)
    with pytest.raises(ValueError):
        packets_needed(0.02, 0.0)


def test_planned_packets_reach_the_planned_power() -> None:
    """Simulate two models on n packets each (packet rates normal around 5 % and 7 %, with
    the sd the plan assumed); a two-sided z-test at alpha 0.05 rejects in about 80 %."""
    sd, effect = 0.03, 0.02
    n = packets_needed(sd, effect)
    assert power_at(n, sd, effect) >= 0.8
    rng = np.random.default_rng(2)
    repetitions = 4000
    a = rng.normal(0.05, sd, size=(repetitions, n))
    b = rng.normal(0.05 + effect, sd, size=(repetitions, n))
    se = np.sqrt(a.var(axis=1, ddof=1) / n + b.var(axis=1, ddof=1) / n)
    rejected = np.abs(b.mean(axis=1) - a.mean(axis=1)) / se > 1.959964
    assert 0.77 <= rejected.mean() <= 0.86
