"""Bot-versus-bot matches: alternate sides, record every game, score from A's side.

Game ``i`` of a match gives bot A the first seat when ``i`` is even and the
second when it is odd; every bot gets its own seed derived from the match
seed, the game number and its seat, so a match replays exactly. Games that
could loop (Ice Dao) are cut at ``max_plies`` and counted as draws, with the
termination "length cap" in the record.

So each game is an independent task (``GameTask``) for the one task runner
(``fourfold.distributed.run_tasks``): played in this process, on local processes
or on a Dask cluster, the results put back in game order are the same. (A bot
limited by ``--movetime`` thinks for a time, not a number of nodes, so its moves
can depend on the machine's load, wherever it plays.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fourfold.ai import Limit, make_bot
from fourfold.analysis.stats import score_interval
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.outcome import Outcome, Result
from fourfold.core.record import Record
from fourfold.distributed.executors import Executor, InProcess
from fourfold.distributed.runner import run_tasks

DEFAULT_MAX_PLIES = 1_000
LENGTH_CAP = "length cap"


@dataclass(frozen=True)
class GameResult:
    """One game: which seat A had, A's score (1, 0.5 or 0) and the record."""

    index: int
    a_seat: int
    a_score: float
    plies: int
    record: Record


@dataclass
class MatchResult:
    """Wins, draws and losses from bot A's side."""

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: list[GameResult] = field(default_factory=list)

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.played if self.played else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return score_interval(self.wins, self.draws, self.losses)

    def add(self, result: GameResult) -> None:
        self.games.append(result)
        if result.a_score == 1.0:
            self.wins += 1
        elif result.a_score == 0.0:
            self.losses += 1
        else:
            self.draws += 1

    def summary(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "a": self.a,
            "b": self.b,
            "games": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(self.score, 4),
            "interval95": [round(low, 4), round(high, 4)],
        }


def bot_seed(seed: int, game_index: int, seat: int) -> int:
    return (seed * 1_000_003 + game_index * 2 + seat) % (1 << 62)


def play_game(
    game: Game[Any, Any],
    bots: Sequence[str],
    seed: int,
    game_index: int = 0,
    limit: Limit | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    start: Any = None,
) -> Match[Any, Any]:
    """Play one game between named bots (``bots[p]`` takes seat ``p``)."""
    players = [
        make_bot(name, game, seat, bot_seed(seed, game_index, seat), limit)
        for seat, name in enumerate(bots)
    ]
    match: Match[Any, Any] = Match(game, start, players=[f"{n} ({s + 1})" for s, n in
                                                        enumerate(bots)])
    while match.outcome is None:
        if len(match.moves) >= max_plies:
            match.declare(Outcome.draw(LENGTH_CAP))
            break
        seat = match.to_move
        assert seat is not None
        move = players[seat].choose(game.view(match.state, seat))
        match.play(move)
        for p, bot in enumerate(players):
            bot.observe(game.view(match.state, p))
    return match


def a_score(outcome: Outcome, a_seat: int) -> float:
    if outcome.result is Result.WIN:
        return 1.0 if outcome.winner == a_seat else 0.0
    return 0.5


@dataclass(frozen=True)
class GameTask:
    """One game of a match: ``bots[p]`` takes seat ``p``; A has seat ``a_seat``."""

    game: Game[Any, Any]
    bots: tuple[str, str]
    a_seat: int
    seed: int
    index: int
    limit: Limit | None
    max_plies: int


def play_game_task(task: GameTask) -> GameResult:
    """Play one game of a match (anywhere: it depends on its task only)."""
    match = play_game(task.game, task.bots, task.seed, task.index, task.limit, task.max_plies)
    outcome = match.outcome
    assert outcome is not None
    return GameResult(task.index, task.a_seat, a_score(outcome, task.a_seat), len(match.moves),
                      match.referee_record())


def match_tasks(game: Game[Any, Any], a: str, b: str, games: int, seed: int,
                limit: Limit | None, max_plies: int) -> list[GameTask]:
    """The games of a match, sides alternating (A first in even games)."""
    return [GameTask(game, (a, b) if i % 2 == 0 else (b, a), i % 2, seed, i, limit, max_plies)
            for i in range(games)]


def play_match(
    game: Game[Any, Any],
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    limit: Limit | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    on_game: Callable[[GameResult, MatchResult], None] | None = None,
    *,
    executor: Executor | None = None,
    progress: bool = False,
) -> MatchResult:
    """``games`` games of A against B, sides alternating (A first in even games).

    The games run on ``executor`` (default: one after another in this process);
    ``on_game(game, tally)`` is called as each game ends, ``tally`` counting the games
    ended so far. The result lists the games in order, wherever they were played.
    """
    return play_pairs(game, [(a, b, seed)], games, limit, max_plies, on_game,
                      executor=executor, progress=progress, description=f"{a} vs {b}")[0]


def play_pairs(
    game: Game[Any, Any],
    pairs: Sequence[tuple[str, str, int]],
    games: int,
    limit: Limit | None,
    max_plies: int,
    on_game: Callable[[GameResult, MatchResult], None] | None,
    *,
    executor: Executor | None,
    progress: bool,
    description: str,
) -> list[MatchResult]:
    """The match of each pair ``(a, b, seed)`` of bots, ``games`` games each, sides
    alternating: every game a task of one run on ``executor`` (default: one after another
    in this process). ``on_game(game, tally)`` is called as each game ends, ``tally``
    counting its pair's games ended so far; each match lists its games in order."""
    tasks = [task for a, b, seed in pairs
             for task in match_tasks(game, a, b, games, seed, limit, max_plies)]
    tallies = [MatchResult(a, b) for a, b, _ in pairs]

    def ended(i: int, one: GameResult) -> None:
        tally = tallies[i // games]
        tally.add(one)
        if on_game is not None:
            on_game(one, tally)

    played = run_tasks(play_game_task, tasks, executor=executor or InProcess(),
                       progress=progress, on_result=ended, description=description)
    return [collect_match(a, b, played[n * games:(n + 1) * games])
            for n, (a, b, _) in enumerate(pairs)]


def collect_match(a: str, b: str, games: Sequence[GameResult]) -> MatchResult:
    """A's wins, draws and losses over ``games`` (in the order given)."""
    result = MatchResult(a, b)
    for one in games:
        result.add(one)
    return result
