"""Intervals for match scores.

A game scores 1, 1/2 or 0 for a player; the match score is the mean. Its
95% interval uses the normal approximation with the observed per-game
variance of a win/draw/loss trinomial, and falls back to the Wilson
interval's width when every game had the same result (zero observed
variance says nothing about the true spread).
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def score_interval(wins: int, draws: int, losses: int, z: float = Z95) -> tuple[float, float]:
    """95% interval of the expected score (wins + draws/2) / games."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, 1.0
    score = (wins + 0.5 * draws) / n
    variance = (wins + 0.25 * draws) / n - score * score
    if variance <= 0.0:
        return wilson_interval(score * n, n, z)
    half = z * math.sqrt(variance / n)
    return max(0.0, score - half), min(1.0, score + half)


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (used for win rates)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if p <= 0.0 else max(0.0, centre - half)
    high = 1.0 if p >= 1.0 else min(1.0, centre + half)
    return low, high


def elo_difference(score: float) -> float:
    """The Elo difference that predicts an expected score (clamped away from 0 and 1)."""
    s = min(max(score, 1e-4), 1 - 1e-4)
    return -400.0 * math.log10(1 / s - 1)
