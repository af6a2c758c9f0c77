"""Ice Dao's levels (the ``bots`` part of its bundle, ``fourfold.ai.game_bots``).

Ice Dao has no exact endgame (its solver is only bounded): its levels are searches
of growing size.
"""

from __future__ import annotations

from fourfold.ai.game_bots import GameBots
from fourfold.ai.levels import Level

BOTS = GameBots(levels={
    2: Level(2, "greedy"),
    3: Level(3, "alphabeta", nodes=2_000),
    4: Level(4, "alphabeta", nodes=20_000),
    5: Level(5, "alphabeta", nodes=300_000),
})
