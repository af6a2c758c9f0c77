"""How a game ended: a small value in the spirit of python-chess's ``Outcome``."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Result(Enum):
    """The kind of ending. Team results are for cooperative games."""

    WIN = "win"
    DRAW = "draw"
    TEAM_WIN = "team-win"
    TEAM_LOSS = "team-loss"


@dataclass(frozen=True)
class Outcome:
    """The end of a game: what happened, who won (for ``WIN``) and why, in words."""

    result: Result
    reason: str
    winner: int | None = None

    def __post_init__(self) -> None:
        if (self.result is Result.WIN) != (self.winner is not None):
            raise ValueError("a WIN outcome needs a winner, and only a WIN has one")

    @classmethod
    def win(cls, winner: int, reason: str) -> Outcome:
        return cls(Result.WIN, reason, winner)

    @classmethod
    def draw(cls, reason: str) -> Outcome:
        return cls(Result.DRAW, reason)

    def returns(self, num_players: int) -> tuple[float, ...]:
        """Utility per player: +1/-1 for a win, 0 for a draw, +1 or -1 for all in a team."""
        if self.result is Result.WIN:
            return tuple(1.0 if p == self.winner else -1.0 for p in range(num_players))
        if self.result is Result.TEAM_WIN:
            return (1.0,) * num_players
        if self.result is Result.TEAM_LOSS:
            return (-1.0,) * num_players
        return (0.0,) * num_players

    def score(self, num_players: int = 2) -> str:
        """The result tag of a record: ``1-0``, ``0-1``, ``1/2-1/2``, ``team-win``..."""
        if self.result is Result.WIN and num_players == 2:
            return "1-0" if self.winner == 0 else "0-1"
        if self.result is Result.WIN:
            return f"win-{self.winner}"
        if self.result is Result.DRAW and num_players == 2:
            return "1/2-1/2"
        return str(self.result.value)

    def describe(self, player_names: tuple[str, ...] | None = None) -> str:
        """A sentence for people, e.g. ``Player 1 wins: line of four on a1-d4 ...``."""
        if self.result is Result.WIN:
            assert self.winner is not None
            name = player_names[self.winner] if player_names else f"Player {self.winner + 1}"
            return f"{name} wins: {self.reason}"
        if self.result is Result.DRAW:
            return f"Draw: {self.reason}"
        if self.result is Result.TEAM_WIN:
            return f"Everyone wins: {self.reason}"
        return f"Everyone loses: {self.reason}"
