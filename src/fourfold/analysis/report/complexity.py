"""Complexity estimates: the state space and the game tree.

*State space.* Counted where the game's ``report`` part has a counter
(``ReportFacts.state_space``, ``fourfold.analysis.report.facts``): an exact count or
a stated upper bound, with its method. Every count today is an upper bound (none
checks reachability from the start), and the report calls it one. No sampling
estimate is made for the others.

*Game tree.* Two estimates from traced games:

- Knuth's estimator (D. E. Knuth, "Estimating the efficiency of backtrack
  programs", Mathematics of Computation 29, 1975): along a uniformly random path
  from the start, the product of the branching factors met is an unbiased estimate
  of the number of leaves, i.e. of complete games. Its mean over random games is
  reported in log10. The estimator is importance sampling (each random path weighs
  its branching product), so its reliability is Kish's effective sample size
  (sum w)^2 / sum w^2 of those weights: when a handful of the longest games carry the
  mean (an effective size below ``MIN_EFFECTIVE``), no interval can be trusted, and
  none is given; the report says how many games carry it. Otherwise the interval is
  a seeded percentile bootstrap, not stretched to hold the estimate. Games cut by the
  length cap count as leaves there.
- The Shannon / Allis estimate b^d (L. V. Allis, "Searching for solutions in games
  and artificial intelligence", thesis, 1994, sec. 6.2; Ludii's
  ``GameTreeComplexity``): average branching factor to the power of the average
  game length, here for random play and for the strongest bots' self-play (Allis
  takes the length of games between good players).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from fourfold.analysis.report.facts import StateCount, facts_of
from fourfold.analysis.report.games import Trace
from fourfold.analysis.report.intervals import (
    BOOTSTRAP_REPS,
    NAN,
    Estimate,
    empty,
    log10_mean_exp10,
)
from fourfold.core.game import Game


def state_space(game: Game[Any, Any]) -> StateCount | None:
    """The game's own state-space count (its ``report`` part), or ``None``."""
    counter = facts_of(game).state_space
    return counter(game) if counter is not None else None


#: Knuth's estimate gets an interval only from at least this effective sample size
MIN_EFFECTIVE = 30.0


def effective_size(logs: Sequence[float]) -> float:
    """Kish's effective sample size of weights ``10**log`` (1 when one path carries the
    mean, ``len(logs)`` when all weigh the same)."""
    top = max(logs)
    w = [10 ** (x - top) for x in logs]
    return math.fsum(w) ** 2 / math.fsum(x * x for x in w)


def knuth(traces: Sequence[Trace], seed: int) -> tuple[Estimate, float]:
    """log10 of the mean over random games of the product of their branching factors,
    and the effective sample size of that mean. The interval (a percentile bootstrap)
    is given only when the effective size reaches ``MIN_EFFECTIVE``."""
    logs = [math.fsum(math.log10(b) for b in t.branching if b > 0) for t in traces]
    if not logs:
        return empty("bootstrap"), 0.0
    ess = effective_size(logs)
    value = log10_mean_exp10(logs)
    if ess < MIN_EFFECTIVE or len(logs) < 2:
        return Estimate(value, NAN, NAN, len(logs), "none: too few games carry the mean"), ess
    rng = random.Random(seed)
    n = len(logs)
    reps = sorted(log10_mean_exp10([logs[rng.randrange(n)] for _ in range(n)])
                  for _ in range(BOOTSTRAP_REPS))
    low = reps[math.floor(0.025 * (BOOTSTRAP_REPS - 1))]
    high = reps[math.ceil(0.975 * (BOOTSTRAP_REPS - 1))]
    return Estimate(value, low, high, n, "percentile bootstrap"), ess


def heaviest(traces: Sequence[Trace]) -> int:
    """The length of the random game with the largest branching product (the one that
    weighs most in Knuth's mean); 0 without games."""
    if not traces:
        return 0
    return max(traces, key=lambda t: math.fsum(math.log10(b) for b in t.branching if b > 0)
               ).plies


def typical(traces: Sequence[Trace]) -> float | None:
    """The median over random games of log10 of their branching product: the size a
    typical random path suggests (Knuth's mean is dominated by the longest games)."""
    logs = sorted(math.fsum(math.log10(b) for b in t.branching if b > 0) for t in traces)
    return logs[len(logs) // 2] if logs else None


def shannon(traces: Sequence[Trace]) -> tuple[float, float, float] | None:
    """(average branching b, average length d, d log10 b) over the traced games."""
    moves = [b for t in traces for b in t.branching]
    if not moves:
        return None
    b = math.fsum(moves) / len(moves)
    d = math.fsum(t.plies for t in traces) / len(traces)
    return b, d, d * math.log10(b) if b > 0 else 0.0
