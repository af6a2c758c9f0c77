"""Levels 1 to 5: one name per strength, mapped to a bot and its thinking budget.

The mapping is data (``LEVELS``, with per-game overrides in ``GAME_LEVELS``)
so that ``fourfold bots`` and docs/bots.md show exactly what each level is.
Budgets are counted in nodes or iterations, not seconds, so that a seeded
match replays move for move on any machine; a ``Limit`` with ``seconds``
given to a level caps its time as well.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourfold.ai.alphabeta import AlphaBetaBot
from fourfold.ai.base import Bot, Limit
from fourfold.ai.freeform import FreeformBot
from fourfold.ai.greedy import GreedyBot
from fourfold.ai.mcts import MCTSBot
from fourfold.core.game import Game


@dataclass(frozen=True)
class Level:
    """What a level plays: a bot and its budget per move."""

    level: int
    bot: str
    nodes: int | None = None
    iterations: int | None = None

    def describe(self) -> str:
        if self.bot == "greedy":
            return "greedy: wins at once, never hands over a win it can avoid"
        if self.bot == "freeform":
            return "the freeform bot: fitting-grid placements, challenges exactly when they win"
        if self.bot == "mcts":
            return f"MCTS (UCT, greedy playouts), {self.iterations:,} iterations per move"
        return f"alpha-beta (iterative deepening, TT), {self.nodes:,} nodes per move"


LEVELS: dict[int, Level] = {
    1: Level(1, "greedy"),
    2: Level(2, "mcts", iterations=1_500),
    3: Level(3, "alphabeta", nodes=20_000),
    4: Level(4, "alphabeta", nodes=300_000),
    5: Level(5, "alphabeta", nodes=3_000_000),
}

#: games whose levels differ from ``LEVELS`` (``name`` or ``name/variant`` -> level ->
#: Level). Folio freeform places on a continuous table (about a thousand candidate
#: points per ply, each needing a grid fit), where the generic bots take minutes per
#: game, so every level there is the freeform bot. Dao games run
#: long (repetitions), so budgets are smaller; Ice Dao has no compiled kernel yet, so
#: its bots search the readable rules (about 10,000 nodes/s) with budgets to match.
GAME_LEVELS: dict[str, dict[int, Level]] = {
    "folio/freeform": {n: Level(n, "freeform") for n in range(1, 6)},
    "dao": {
        2: Level(2, "mcts", iterations=300),
        3: Level(3, "alphabeta", nodes=5_000),
        4: Level(4, "alphabeta", nodes=50_000),
        5: Level(5, "alphabeta", nodes=300_000),
    },
    "icedao": {
        2: Level(2, "mcts", iterations=60),
        3: Level(3, "alphabeta", nodes=1_000),
        4: Level(4, "alphabeta", nodes=8_000),
        5: Level(5, "alphabeta", nodes=40_000),
    },
}


def level_for(game_name: str, level: int, variant: str | None = None) -> Level:
    for key in (f"{game_name}/{variant}", game_name):
        if level in GAME_LEVELS.get(key, {}):
            return GAME_LEVELS[key][level]
    return LEVELS[level]


def make_level(
    level: int, game: Game[Any, Any], player: int, seed: int | None, limit: Limit | None
) -> Bot:
    spec = level_for(game.name, level, game.info.variant)
    seconds = limit.seconds if limit is not None else None
    if spec.bot == "freeform":
        bot: Bot = FreeformBot(game, player, seed, limit)
    elif spec.bot == "greedy":
        bot = GreedyBot(game, player, seed, limit)
    elif spec.bot == "mcts":
        iterations = limit.iterations if limit and limit.iterations else spec.iterations
        bot = MCTSBot(game, player, seed, Limit(seconds=seconds, iterations=iterations))
    else:
        nodes = limit.nodes if limit and limit.nodes else spec.nodes
        bot = AlphaBetaBot(game, player, seed, Limit(seconds=seconds, nodes=nodes))
    bot.name = f"level{level}"
    return bot


def level_factory(level: int) -> Any:
    """A ``BotFactory`` for ``fourfold.ai.BOTS``."""

    def factory(
        game: Game[Any, Any], player: int, seed: int | None = None, limit: Limit | None = None
    ) -> Bot:
        return make_level(level, game, player, seed, limit)

    factory.__doc__ = f"Level {level} (see fourfold.ai.levels.LEVELS)."
    return factory
