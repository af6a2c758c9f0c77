"""Bots behind one interface, and the registry that makes them by name.

``make_bot("random", game, player, seed=1)``. Each bot module adds its
constructor to ``BOTS``; ``bot_names(game)`` lists what a game offers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fourfold.ai.base import Bot, Limit
from fourfold.ai.freeform import FreeformBot
from fourfold.ai.quatrefoil import QuatrefoilBot
from fourfold.ai.random_bot import RandomBot
from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game

BotFactory = Callable[[Game[Any, Any], int, "int | None", "Limit | None"], Bot]

BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "quatrefoil": QuatrefoilBot,
    "freeform": FreeformBot,
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
    return BOTS[key](game, player, seed, limit)


__all__ = ["BOTS", "Bot", "Limit", "RandomBot", "bot_names", "make_bot"]
