"""Bots behind one interface, and the registry that makes them by name.

``make_bot("level3", game, player, seed=1)``. ``BOTS`` maps each name to a
constructor ``(game, player, seed, limit) -> Bot``; ``bot_names()`` lists them.
Levels 1..5 are the user-facing strengths (``fourfold.ai.levels`` says what
each one is); ``greedy``, ``alphabeta`` and ``mcts`` are the underlying bots
with their default budgets, and ``random`` plays uniformly random moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fourfold.ai.alphabeta import AlphaBetaBot
from fourfold.ai.base import Bot, Limit
from fourfold.ai.freeform import FreeformBot
from fourfold.ai.greedy import GreedyBot
from fourfold.ai.levels import LEVELS, check_speed, level_factory
from fourfold.ai.mcts import MCTSBot
from fourfold.ai.optimal import OptimalBot
from fourfold.ai.perfect import PerfectBot
from fourfold.ai.quatrefoil import QuatrefoilBot
from fourfold.ai.random_bot import RandomBot
from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game

BotFactory = Callable[[Game[Any, Any], int, "int | None", "Limit | None"], Bot]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "quatrefoil": QuatrefoilBot,
    "optimal": OptimalBot,
    "freeform": FreeformBot,
    "greedy": GreedyBot,
    "alphabeta": AlphaBetaBot,
    "mcts": MCTSBot,
    "perfect": PerfectBot,
    **{f"level{n}": level_factory(n) for n in LEVELS},
}


def bot_names() -> list[str]:
    return list(BOTS)


def make_bot(
    name: str,
    game: Game[Any, Any],
    player: int,
    seed: int | None = None,
    limit: Limit | None = None,
) -> Bot:
    key = name.strip().lower()
    if key not in BOTS:
        raise ConfigurationError(f"unknown bot {name!r}; valid bots: {', '.join(BOTS)}")
    check_speed(key, game)
    return BOTS[key](game, player, seed, limit)


__all__ = [
    "BOTS",
    "AlphaBetaBot",
    "Bot",
    "GreedyBot",
    "Limit",
    "MCTSBot",
    "RandomBot",
    "bot_names",
    "make_bot",
]
