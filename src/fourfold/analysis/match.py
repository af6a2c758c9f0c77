"""Bot-versus-bot matches: alternate sides, record every game, score from A's side.

Game ``i`` of a match gives bot A the first seat when ``i`` is even and the
second when it is odd; every bot gets its own seed derived from the match
seed, the game number and its seat, so a match replays exactly. Games that
could loop (Ice Dao) are cut at ``max_plies`` and counted as draws, with the
termination "length cap" in the record.
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


def play_match(
    game: Game[Any, Any],
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    limit: Limit | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    on_game: Callable[[GameResult, MatchResult], None] | None = None,
) -> MatchResult:
    """``games`` games of A against B, sides alternating (A first in even games)."""
    result = MatchResult(a, b)
    for i in range(games):
        a_seat = i % 2
        names = (a, b) if a_seat == 0 else (b, a)
        match = play_game(game, names, seed, i, limit, max_plies)
        outcome = match.outcome
        assert outcome is not None
        one = GameResult(i, a_seat, a_score(outcome, a_seat), len(match.moves),
                         match.referee_record())
        result.add(one)
        if on_game is not None:
            on_game(one, result)
    return result
