"""Round robins: every pair of bots plays a match; ratings are fitted to all results.

Every game of every pair is one task for the one task runner
(``fourfold.distributed.run_tasks``), so a tournament gives the same result in this
process, on local processes or on a Dask cluster.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fourfold.ai import Limit
from fourfold.analysis.match import DEFAULT_MAX_PLIES, GameResult, MatchResult, play_pairs
from fourfold.analysis.rating import Ratings, fit_ratings
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.distributed.executors import Executor


@dataclass
class TournamentResult:
    bots: tuple[str, ...]
    matches: list[MatchResult]
    ratings: Ratings

    def summary(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "anchor": self.ratings.anchor,
            "matches": [m.summary() for m in self.matches],
            "ratings": [
                {"bot": name, "elo": round(elo, 1), "interval95": [round(low, 1), round(high, 1)]}
                for name, elo, low, high in self.ratings.table()
            ],
        }


def ratings_from_matches(bots: Sequence[str], matches: Sequence[MatchResult]) -> Ratings:
    """The ratings of ``bots`` from their matches, relative to the first bot named (the
    anchor: 0 by definition, with no interval)."""
    index = {name: i for i, name in enumerate(bots)}
    k = len(bots)
    games = np.zeros((k, k))
    scores = np.zeros((k, k))
    for m in matches:
        i, j = index[m.a], index[m.b]
        games[i, j] += m.played
        games[j, i] += m.played
        scores[i, j] += m.wins + 0.5 * m.draws
        scores[j, i] += m.losses + 0.5 * m.draws
    return fit_ratings(bots, games, scores, anchor=bots[0])


def tournament_pairs(bots: Sequence[str], seed: int) -> list[tuple[str, str, int]]:
    """Each pair of distinct bots with the seed of its match: the one pairing that a
    tournament played here or on a cluster shares, so both give the same games."""
    if len(set(bots)) != len(bots) or len(bots) < 2:
        raise FourfoldError("a tournament needs at least two different bots")
    return [(a, b, seed + 7919 * n) for n, (a, b) in enumerate(itertools.combinations(bots, 2))]


def play_tournament(
    game: Game[Any, Any],
    bots: Sequence[str],
    games_per_pair: int,
    seed: int = 0,
    limit: Limit | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    on_game: Callable[[GameResult, MatchResult], None] | None = None,
    *,
    executor: Executor | None = None,
    progress: bool = False,
) -> TournamentResult:
    """Each pair of distinct bots plays ``games_per_pair`` games, sides alternating.

    The games run on ``executor`` (default: one after another in this process);
    ``on_game(game, tally)`` is called as each game ends, ``tally`` counting its
    pair's games ended so far.
    """
    matches = play_pairs(game, tournament_pairs(bots, seed), games_per_pair, limit, max_plies,
                         on_game, executor=executor, progress=progress, description="games")
    return TournamentResult(tuple(bots), matches, ratings_from_matches(bots, matches))
