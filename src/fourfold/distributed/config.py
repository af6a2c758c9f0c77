"""Matches and tournaments as independent seeded tasks, one game each.

A game of a match depends only on the game's configuration, the two bots, the match
seed, its number and the length cap (``fourfold.analysis.match``: bot seeds come from
the match seed, the game number and the seat). So each game is a task, and the
results, put back in game order, are those of ``play_match``: the same for any
number of workers. (A bot limited by ``--movetime`` thinks for a time, not a number
of nodes, so its moves can depend on the machine's load, on one worker or many.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fourfold.ai import Limit
from fourfold.analysis.match import (
    DEFAULT_MAX_PLIES,
    GameResult,
    MatchResult,
    a_score,
    play_game,
)
from fourfold.analysis.tournament import TournamentResult, ratings_from_matches, tournament_pairs
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.record import format_record, parse_record
from fourfold.core.registry import load
from fourfold.distributed.runner import run_tasks


@dataclass(frozen=True)
class GameConfig:
    """A configured game by name, as a worker rebuilds it: ``load(name, variant, **options)``."""

    name: str
    variant: str
    options: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, game: Game[Any, Any]) -> GameConfig:
        info = game.info
        return cls(info.name, info.variant, tuple(sorted(info.option_strings().items())))

    def load(self) -> Game[Any, Any]:
        return _load(self)


@lru_cache(maxsize=16)
def _load(config: GameConfig) -> Game[Any, Any]:
    return load(config.name, config.variant, **dict(config.options))


@dataclass(frozen=True)
class GameTask:
    """One game of a match: ``bots[p]`` takes seat ``p``; A has seat ``a_seat``."""

    game: GameConfig
    bots: tuple[str, str]
    a_seat: int
    seed: int
    index: int
    seconds: float | None
    max_plies: int


def play_game_task(task: GameTask) -> dict[str, Any]:
    """Play one game (on a worker); A's score, the plies and the referee's record."""
    game = task.game.load()
    limit = None if task.seconds is None else Limit(seconds=task.seconds)
    match = play_game(game, task.bots, task.seed, task.index, limit, task.max_plies)
    outcome = match.outcome
    assert outcome is not None
    return {
        "index": task.index,
        "a_seat": task.a_seat,
        "a_score": a_score(outcome, task.a_seat),
        "plies": len(match.moves),
        "record": format_record(match.referee_record()),
    }


def match_tasks(game: Game[Any, Any], a: str, b: str, games: int, seed: int,
                limit: Limit | None, max_plies: int) -> list[GameTask]:
    """The games of ``play_match``, sides alternating (A first in even games)."""
    if limit is not None and (limit.nodes is not None or limit.iterations is not None):
        raise FourfoldError("matches on a cluster take a limit in seconds only")
    config = GameConfig.of(game)
    seconds = None if limit is None else limit.seconds
    tasks = []
    for i in range(games):
        a_seat = i % 2
        names = (a, b) if a_seat == 0 else (b, a)
        tasks.append(GameTask(config, names, a_seat, seed, i, seconds, max_plies))
    return tasks


def collect_match(a: str, b: str, results: Sequence[dict[str, Any]]) -> MatchResult:
    match = MatchResult(a, b)
    for r in results:
        match.add(GameResult(r["index"], r["a_seat"], r["a_score"], r["plies"],
                             parse_record(r["record"])))
    return match


def play_match_distributed(
    game: Game[Any, Any],
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    limit: Limit | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: bool = True,
) -> MatchResult:
    """``play_match`` with every game a task on a cluster (``run_tasks``): same result."""
    tasks = match_tasks(game, a, b, games, seed, limit, max_plies)
    results = run_tasks(play_game_task, tasks, scheduler=scheduler, workers=workers,
                        progress=progress, description=f"{a} vs {b}")
    return collect_match(a, b, results)


def play_tournament_distributed(
    game: Game[Any, Any],
    bots: Sequence[str],
    games_per_pair: int,
    seed: int = 0,
    limit: Limit | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: bool = True,
) -> TournamentResult:
    """``play_tournament`` with every game of every pair a task: the same result."""
    pairs = tournament_pairs(bots, seed)
    tasks: list[GameTask] = []
    for a, b, pair_seed in pairs:
        tasks += match_tasks(game, a, b, games_per_pair, pair_seed, limit, max_plies)
    results = run_tasks(play_game_task, tasks, scheduler=scheduler, workers=workers,
                        progress=progress, description="games")
    matches = [
        collect_match(a, b, results[n * games_per_pair:(n + 1) * games_per_pair])
        for n, (a, b, _) in enumerate(pairs)
    ]
    return TournamentResult(tuple(bots), matches, ratings_from_matches(bots, matches))
