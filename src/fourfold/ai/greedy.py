"""The greedy bot: win at once if it can, and never hand the opponent a win it can avoid.

One ply deep plus one reply: a move after which the opponent can win at once
(in Folio and Quarto: giving a piece that completes a line somewhere) is
played only when every move is like that. Among the remaining moves it picks
at random. Level 1 of every two-player game.
"""

from __future__ import annotations

from typing import Any

from fourfold.ai._engine import check_two_player, engine_of
from fourfold.ai.base import Bot, Limit
from fourfold.core.game import Game, View


class GreedyBot(Bot):
    name = "greedy"

    def __init__(
        self, game: Game[Any, Any], player: int, seed: int | None = None, limit: Limit | None = None
    ) -> None:
        super().__init__(game, player, seed, limit)
        check_two_player(game, self.name)
        self.engine = engine_of(game)

    def classify(self, state: Any) -> tuple[list[int], list[int], list[int]]:
        """The legal actions split into (winning now, safe, handing over a win)."""
        engine = self.engine
        engine.load(state)
        me = engine.to_move()
        wins: list[int] = []
        safe: list[int] = []
        losing: list[int] = []
        for action in engine.legal():
            engine.push(action)
            winner = engine.winner()
            if winner == me:
                wins.append(action)
            elif winner >= 0 or engine.mover_wins_now():
                losing.append(action)
            else:
                safe.append(action)
            engine.pop()
        return wins, safe, losing

    def choose(self, view: View) -> Any:
        wins, safe, losing = self.classify(view.observation)
        pool = wins or safe or losing
        if not pool:
            raise ValueError("no legal move: the game is over")
        return self.game.decode(pool[self.rng.randrange(len(pool))])
