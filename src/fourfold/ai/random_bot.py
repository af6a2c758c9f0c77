"""The uniformly random bot: level 0 of every game, and the playout policy of MCTS."""

from __future__ import annotations

from typing import Any

from fourfold.ai.base import Bot
from fourfold.core.errors import FourfoldError
from fourfold.core.game import View


class RandomBot(Bot):
    name = "random"

    def choose(self, view: View) -> Any:
        moves = self.game.view_legal_moves(view)
        if not moves:
            raise FourfoldError("no legal move: the game is over")
        return moves[self.rng.randrange(len(moves))]
