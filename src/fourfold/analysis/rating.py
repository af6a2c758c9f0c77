"""Elo ratings by maximum likelihood (the Bradley–Terry model), with 95% intervals.

Player ``i`` scores against ``j`` with probability ``1 / (1 + 10**((r_j - r_i) / 400))``;
a draw counts as half a win and half a loss. The ratings maximise the
likelihood of all results (Newton's method on the concave log-likelihood).
A weak Gaussian prior (standard deviation ``PRIOR_ELO``) keeps ratings finite
when someone wins or loses every game; it moves ordinary ratings by well under
a point.

Only differences of ratings are measured, so a scale needs a zero: either an
``anchor`` (one player is 0 by definition, exactly, with no interval; every other
rating is its difference from the anchor) or, without one, the mean of all
players. Intervals are those of the ratings as reported: from the covariance of the
fit (the inverse of the observed information, the curvature of the
log-likelihood) carried to the anchored differences, ``var(r_i - r_a) = C_ii +
C_aa - 2 C_ia``, or to the mean-centred ratings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from fourfold.analysis.stats import Z95
from fourfold.core.errors import FourfoldError

ELO = 400.0 / math.log(10.0)  # Elo points per natural-log unit of strength
PRIOR_ELO = 2_000.0


@dataclass(frozen=True)
class Ratings:
    """Fitted ratings (Elo) with standard errors and 95% intervals: relative to
    ``anchor`` (its rating 0 and its standard error 0), or to the mean when it is
    ``None``."""

    names: tuple[str, ...]
    elo: tuple[float, ...]
    stderr: tuple[float, ...]
    iterations: int
    anchor: str | None = None

    def scale(self) -> str:
        """What the ratings are relative to, for a table's title."""
        if self.anchor is None:
            return "mean 0"
        return f"relative to {self.anchor}, 0 by definition"

    def interval(self, i: int) -> tuple[float, float]:
        return self.elo[i] - Z95 * self.stderr[i], self.elo[i] + Z95 * self.stderr[i]

    def table(self) -> list[tuple[str, float, float, float]]:
        """``(name, elo, low, high)`` sorted strongest first."""
        rows = [(n, e, *self.interval(i)) for i, (n, e) in enumerate(zip(self.names, self.elo,
                                                                         strict=True))]
        return sorted(rows, key=lambda r: -r[1])


def fit_ratings(
    names: Sequence[str],
    games: np.ndarray | Sequence[Sequence[float]],
    scores: np.ndarray | Sequence[Sequence[float]],
    prior_elo: float = PRIOR_ELO,
    tolerance: float = 1e-10,
    anchor: str | None = None,
) -> Ratings:
    """Fit ratings from ``games[i][j]`` (games between i and j, symmetric) and
    ``scores[i][j]`` (i's points against j: wins + draws / 2), relative to the player
    named ``anchor`` (or to the mean of all)."""
    n_games = np.asarray(games, dtype=float)
    s = np.asarray(scores, dtype=float)
    k = len(names)
    if n_games.shape != (k, k) or s.shape != (k, k):
        raise FourfoldError("games and scores must be square matrices, one row per player")
    if anchor is not None and anchor not in names:
        raise FourfoldError(f"the anchor {anchor!r} is not one of the players"
                            f" ({', '.join(names)})")
    n_games = n_games * (1 - np.eye(k))  # nobody plays themselves
    s = s * (1 - np.eye(k))
    precision = (ELO / prior_elo) ** 2
    theta = np.zeros(k)
    iterations = 0
    for iterations in range(1, 200):  # noqa: B007 - the count is reported
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
        gradient = (s - n_games * p).sum(axis=1) - precision * theta
        w = n_games * p * (1.0 - p)
        hessian = w - np.diag(w.sum(axis=1)) - precision * np.eye(k)
        step = np.linalg.solve(hessian, -gradient)
        theta = theta + step
        if float(np.max(np.abs(step))) < tolerance:
            break
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    w = n_games * p * (1.0 - p)
    information = np.diag(w.sum(axis=1)) - w + precision * np.eye(k)
    covariance = np.linalg.inv(information)
    # the reported ratings are a linear map of the fitted strengths: r = M theta
    if anchor is None:
        to_scale = np.eye(k) - np.full((k, k), 1.0 / k)  # each minus the mean
    else:
        to_scale = np.eye(k)
        to_scale[:, list(names).index(anchor)] -= 1.0  # each minus the anchor
    rated = to_scale @ theta
    stderr = np.sqrt(np.clip(np.diag(to_scale @ covariance @ to_scale.T), 0.0, None))
    return Ratings(
        tuple(names),
        tuple(float(x) for x in rated * ELO),
        tuple(float(x) for x in stderr * ELO),
        iterations,
        anchor,
    )
