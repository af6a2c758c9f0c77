"""The greedy bot: win at once if it can, and never hand the opponent a win it can avoid.

One ply deep plus one reply: a move after which the opponent can win at once
(in Folio and Quarto: giving a piece that completes a line somewhere) is
played only when every move is like that. Among the remaining moves it picks
at random. ``careful=False`` drops the reply check: the beginner of level 1,
who takes a win in one but otherwise plays any legal move.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import Any

from fourfold.ai._engine import check_two_player, engine_of
from fourfold.ai.base import Bot
from fourfold.core.errors import FourfoldError
from fourfold.core.game import View


@dataclass(eq=False)
class GreedyBot(Bot):
    name = "greedy"

    _: KW_ONLY
    careful: bool = True
    attention: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        check_two_player(self.game, self.name)
        self.engine = engine_of(self.game)

    def classify(
        self, state: Any, replies: bool = True
    ) -> tuple[list[int], list[int], list[int]]:
        """The legal actions split into (winning now, safe, handing over a win); without
        ``replies`` every action that does not win at once counts as safe."""
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
            elif winner >= 0 or (replies and engine.mover_wins_now()):
                losing.append(action)
            else:
                safe.append(action)
            engine.pop()
        return wins, safe, losing

    def choose(self, view: View) -> Any:
        if self.attention is not None:
            return self._glance(view.observation, self.attention)
        wins, safe, losing = self.classify(view.observation, replies=self.careful)
        pool = wins or safe or losing
        if not pool:
            raise FourfoldError("no legal move: the game is over")
        return self.game.decode(pool[self.rng.randrange(len(pool))])

    def _glance(self, state: Any, attention: int) -> Any:
        """Take a win at once; else look at up to ``attention`` moves at random and play the
        first that does not hand over a win (or the last one looked at)."""
        engine = self.engine
        engine.load(state)
        me = engine.to_move()
        actions = engine.legal()
        for action in actions:
            engine.push(action)
            won = engine.winner() == me
            engine.pop()
            if won:
                return self.game.decode(action)
        self.rng.shuffle(actions)
        chosen = actions[0]
        for action in actions[:attention]:
            chosen = action
            engine.push(action)
            safe = engine.winner() < 0 and not engine.mover_wins_now()
            engine.pop()
            if safe:
                break
        return self.game.decode(chosen)
