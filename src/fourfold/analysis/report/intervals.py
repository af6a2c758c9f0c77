"""95% intervals for the report's figures.

Proportions (first-player wins, draws, decisive games) use the Wilson score
interval (``fourfold.analysis.stats.wilson_interval``), which stays inside [0, 1]
and behaves at 0% and 100%. Means of per-game quantities (plies, branching,
drama, lead changes) use Student's t interval; figures that are not means (the
Ludii balance, a Knuth tree-size estimate, an Elo span) use a seeded percentile
bootstrap, so a report replays exactly.

No interval is made from fewer than two observations: such an estimate says "one
game" (``Estimate.interval`` is False) instead of a zero-width interval. Differences
between two independent estimates (compare mode) use the MOVER method (Zou and
Donner 2008; Newcombe's hybrid score interval when both are Wilson intervals), which
recovers each side's variance from its own interval, asymmetric ones included.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fourfold.analysis.stats import Z95, score_interval, wilson_interval

LEVEL = 0.95
#: the method's tail for a mean whose values are all equal (no t interval)
ALIKE = "all values alike"
BOOTSTRAP_REPS = 1_000


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% interval, the sample size and how the interval was made."""

    value: float
    low: float
    high: float
    n: int
    method: str

    @property
    def interval(self) -> bool:
        """Whether the estimate has an interval: two observations or more."""
        return self.n >= 2 and not math.isnan(self.low)

    def excludes(self, x: float) -> bool:
        """Whether the interval lies wholly on one side of ``x`` (never for one game)."""
        return self.interval and (self.low > x or self.high < x)

    def as_json(self, digits: int = 4) -> dict[str, Any]:
        low, high = (self.low, self.high) if self.interval else (NAN, NAN)
        return {"value": _round(self.value, digits), "low": _round(low, digits),
                "high": _round(high, digits), "n": self.n, "method": self.method}

    def text(self, fmt: str = "{:.3f}", percent: bool = False) -> str:
        """``0.512 (0.470-0.553)``, or ``51.2% (47.0-55.3%)`` with ``percent``; a single
        observation has no interval: ``0.833 (one game)``."""
        if self.n == 0 or math.isnan(self.value):
            return "n/a"
        if not self.interval:
            one = ("one game" if self.n == 1 else f"all {self.n} alike"
                   if self.method.endswith(ALIKE) else f"n = {self.n}, no interval")
            shown = f"{100 * self.value:.1f}%" if percent else fmt.format(self.value)
            return f"{shown} ({one})"
        if percent:
            return f"{100 * self.value:.1f}% ({100 * self.low:.1f}-{100 * self.high:.1f}%)"
        sep = " to " if "+" in fmt or math.isinf(self.low) else "-"
        text = f"{fmt.format(self.value)} ({fmt.format(self.low)}{sep}{fmt.format(self.high)})"
        return text.replace("inf", "\u221e")  # an unbounded end (an Elo from a score of 1)


def _round(x: float, digits: int) -> float | None:
    """JSON has no NaN or infinity: a missing or unbounded end is null."""
    return None if not math.isfinite(x) else round(x, digits)


NAN = float("nan")


def empty(method: str) -> Estimate:
    return Estimate(NAN, NAN, NAN, 0, method)


def difference(a: Estimate, b: Estimate, method: str = "MOVER") -> Estimate:
    """``a - b`` for independent estimates, with the MOVER 95% interval (Zou and Donner
    2008): ``L = d - sqrt((a - a_low)^2 + (b_high - b)^2)``, ``U`` likewise. No interval
    unless both sides have one."""
    n = min(a.n, b.n)
    if a.n == 0 or b.n == 0 or math.isnan(a.value) or math.isnan(b.value):
        return empty(method)
    d = a.value - b.value
    if not (a.interval and b.interval):
        return Estimate(d, NAN, NAN, n, method)
    low = d - math.hypot(a.value - a.low, b.high - b.value)
    high = d + math.hypot(a.high - a.value, b.value - b.low)
    return Estimate(d, low, high, n, method)


def proportion(successes: int, n: int) -> Estimate:
    """A share with its Wilson 95% interval."""
    if n == 0:
        return empty("wilson")
    if n == 1:
        return Estimate(successes, successes, successes, 1, "wilson")
    low, high = wilson_interval(successes, n, Z95)
    return Estimate(successes / n, low, high, n, "wilson")


def score(wins: int, draws: int, losses: int) -> Estimate:
    """The mean score (wins + draws/2) of a side with its 95% interval
    (``stats.score_interval``: normal with the observed variance, Wilson's width when
    every game had the same result)."""
    n = wins + draws + losses
    if n == 0:
        return empty("score")
    value = (wins + 0.5 * draws) / n
    if n == 1:
        return Estimate(value, value, value, 1, "score")
    low, high = score_interval(wins, draws, losses)
    return Estimate(value, low, high, n, "normal score interval (Wilson if all agree)")


def mean_t(values: Sequence[float], lower: float = -math.inf,
           upper: float = math.inf) -> Estimate:
    """A mean with Student's t 95% interval, clipped to the quantity's natural range
    ``[lower, upper]``. A single value, or values all equal, have no spread to scale
    an interval by: none is given (``Estimate.interval`` is False)."""
    n = len(values)
    if n == 0:
        return empty("t")
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1, "t")
    if all(v == values[0] for v in values):
        # no spread to scale a t interval by: the sample says nothing about the width
        return Estimate(mean, NAN, NAN, n, "t: " + ALIKE)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(n - 1) * math.sqrt(variance / n)
    return Estimate(mean, max(lower, mean - half), min(upper, mean + half), n, "t")


#: two-sided 95% quantiles of Student's t for 1..30 degrees of freedom (standard tables)
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
       2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
       2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t_quantile(df: int) -> float:
    """The 97.5% quantile of Student's t: the table up to 30 degrees of freedom, then the
    Cornish-Fisher expansion in the normal quantile (error below 1e-5 there)."""
    if df < 1:
        # invariant: callers pass n - 1 for n >= 2 samples
        raise ValueError("degrees of freedom must be at least 1")
    if df <= len(T95):
        return T95[df - 1]
    z, v = Z95, float(df)
    return (z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4))


def bootstrap(
    samples: Sequence[Any],
    statistic: Callable[[Sequence[Any]], float],
    seed: int,
    reps: int = BOOTSTRAP_REPS,
) -> Estimate:
    """``statistic`` of the samples, with a seeded percentile-bootstrap 95% interval
    (resampling the samples, e.g. games, with replacement)."""
    n = len(samples)
    if n == 0:
        return empty("bootstrap")
    value = statistic(samples)
    if n == 1:
        return Estimate(value, value, value, 1, "bootstrap")
    rng = random.Random(seed)
    stats = sorted(statistic([samples[rng.randrange(n)] for _ in range(n)])
                   for _ in range(reps))
    tail = (1 - LEVEL) / 2
    low = stats[math.floor(tail * (reps - 1))]
    high = stats[math.ceil((1 - tail) * (reps - 1))]
    return Estimate(value, min(low, value), max(high, value), n, "bootstrap")


def log10_mean_exp10(logs: Sequence[float]) -> float:
    """``log10(mean(10**x))`` without overflow (for Knuth's estimator in log10 units)."""
    top = max(logs)
    return top + math.log10(math.fsum(10 ** (x - top) for x in logs) / len(logs))
