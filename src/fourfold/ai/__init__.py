"""Bots behind one interface, and the registry that makes them by name.

``make_bot("level3", game, player, seed=1)``. ``BOTS`` maps each generic bot's name
to a constructor ``(game, player, seed, limit) -> Bot``; a game adds its own bots
through the ``bots`` part of its extension bundle (``fourfold.ai.game_bots``), and
``bot_names()`` lists them all. Levels 1..5 are the user-facing strengths
(``fourfold.ai.levels`` says what each one is); ``greedy``, ``alphabeta`` and
``mcts`` are the underlying bots with their default budgets, and ``random`` plays
uniformly random moves.
"""

from __future__ import annotations

from typing import Any

from fourfold.ai.alphabeta import AlphaBetaBot
from fourfold.ai.base import Bot, Limit
from fourfold.ai.game_bots import (
    BotFactory,
    GameBots,
    NamedBot,
    every_game_bots,
    game_bots,
    spec_bots,
)
from fourfold.ai.greedy import GreedyBot
from fourfold.ai.levels import LEVELS, check_speed, level_factory
from fourfold.ai.mcts import MCTSBot
from fourfold.ai.perfect import PerfectBot
from fourfold.ai.random_bot import RandomBot
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import Game
from fourfold.core.spec import GameSpec

#: the generic bots, which play any game they can (each refuses, when made, one it cannot)
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "alphabeta": AlphaBetaBot,
    "mcts": MCTSBot,
    "perfect": PerfectBot,
    **{f"level{n}": level_factory(n) for n in LEVELS},
}


_OWNERS: dict[tuple[int, ...], dict[str, list[str]]] = {}


def game_bot_owners() -> dict[str, list[str]]:
    """Each game's own bot name -> the games having it, as people write them (``Title`` or
    ``Title (variant)``), in registry order."""
    entries = every_game_bots()
    key = tuple(id(bots) for _, _, bots in entries)
    if key not in _OWNERS:
        _OWNERS.clear()
        _OWNERS[key] = _owners(entries)
    return {name: list(games) for name, games in _OWNERS[key].items()}


def _owners(entries: list[tuple[GameSpec, str, GameBots]]) -> dict[str, list[str]]:
    owners: dict[str, list[str]] = {}
    for spec, variant, bots in entries:
        for name in bots.named:
            where = owners.setdefault(name, [])
            shared = bots is spec_bots(spec, None) and spec.extensions.bots is not None
            label = spec.title if shared else f"{spec.title} ({variant})"
            if label not in where:
                where.append(label)
    return owners


def bot_names() -> list[str]:
    """Every bot name: ``random``, the games' own bots, then the generic ones and levels."""
    own = [name for name in game_bot_owners() if name not in BOTS]
    return ["random", *own, *(name for name in BOTS if name != "random")]


def make_bot(
    name: str,
    game: Game[Any, Any],
    player: int,
    seed: int | None = None,
    limit: Limit | None = None,
) -> Bot:
    key = name.strip().lower()
    named = game_bots(game).named.get(key)
    if named is not None:
        factory = named.make
    elif key in BOTS:
        factory = BOTS[key]
    else:
        owners = game_bot_owners().get(key)
        if owners:
            raise ConfigurationError(f"the {key} bot plays only {' and '.join(owners)}, not"
                                     f" {game.info.label()}")
        raise ConfigurationError(f"unknown bot {name!r}; valid bots: {', '.join(bot_names())}")
    check_speed(key, game)
    return factory(game, player, seed, limit)


def bots_for(game: Game[Any, Any]) -> list[str]:
    """The bots (by name, levels included) that can take a seat of ``game``: each bot
    refuses, when made, a game it cannot play."""
    found = []
    for name in bot_names():
        try:
            make_bot(name, game, game.num_players - 1, 0)
        except FourfoldError:
            continue
        found.append(name)
    return found


__all__ = [
    "BOTS",
    "AlphaBetaBot",
    "Bot",
    "BotFactory",
    "GameBots",
    "GreedyBot",
    "Limit",
    "MCTSBot",
    "NamedBot",
    "RandomBot",
    "bot_names",
    "bots_for",
    "make_bot",
]
