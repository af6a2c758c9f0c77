"""Classic Dao's levels (the ``bots`` part of its bundle, ``fourfold.ai.game_bots``).

Dao games run long, so the searches below level 5 are smaller than the generic
levels'. Level 5 plays from the retrograde table (``fourfold.games.dao.solver``: perfect,
pressing among drawn moves), which the exact endgame finds through the game's
registered solver.
"""

from __future__ import annotations

from fourfold.ai.game_bots import GameBots
from fourfold.ai.levels import STRONG_ENDGAME, Level

BOTS = GameBots(levels={
    2: Level(2, "greedy"),
    3: Level(3, "mcts", iterations=300),
    4: Level(4, "alphabeta", nodes=50_000),
    5: Level(5, "alphabeta", nodes=300_000, endgame=STRONG_ENDGAME),
})
