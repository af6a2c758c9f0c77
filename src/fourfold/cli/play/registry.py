"""How the terminal plays each game: its own commands, its session runner, its bots.

Generic code never asks ``if game == ...``: a module registers ``PlayRules`` for the
games (and variants) it knows, and is listed in ``PLAY_MODULES``; a game without
rules gets the defaults (the turn loop, the built-in commands, ``random`` bots).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from fourfold.ai import Bot, make_bot
from fourfold.cli.play.context import Command, SessionRunner
from fourfold.core.game import Game
from fourfold.core.per_variant import PerVariant

#: modules that call ``register_play`` on import
PLAY_MODULES = ("sliding", "freeform", "realtime")

#: ``(name, game, seat, seed, people)``: the bot for ``seat``; ``people`` are the seats
#: played by people
BotMaker = Callable[[str, Game[Any, Any], int, "int | None", frozenset[int]], Bot]


def default_bot(name: str, game: Game[Any, Any], seat: int, seed: int | None,
                people: frozenset[int]) -> Bot:
    return make_bot(name, game, seat, seed)


@dataclass(frozen=True)
class PlayRules:
    """What the terminal player does differently for one game.

    ``commands`` are added to the built-in ones (and may hide some of them, by naming
    them in ``without``); ``runner`` replaces the turn loop; ``opponent`` is the bot
    used when ``--vs`` is not given; ``no_hot_seat`` (when set) says why two people
    cannot share this terminal; ``make_bot`` makes a bot for a seat; ``pace`` is a bot's
    mean seconds per action, for real-time play.
    """

    commands: tuple[Command, ...] = ()
    without: frozenset[str] = frozenset()
    runner: SessionRunner | None = None
    opponent: str = "random"
    no_hot_seat: str | None = None
    make_bot: BotMaker = default_bot
    pace: Callable[[Game[Any, Any]], float] = lambda game: 0.0


DEFAULT = PlayRules()
_RULES: PerVariant[PlayRules] = PerVariant("play rules")


def register_play(games: Iterable[str], rules: PlayRules,
                  variants: Iterable[str] | None = None) -> PlayRules:
    """Make ``rules`` the terminal rules of each named game, for the listed variants only,
    or for every variant when ``variants`` is ``None``."""
    return _RULES.register(games, rules, variants)


def rules_for(game: Game[Any, Any]) -> PlayRules:
    """The rules registered for this game's variant, else for the whole game, else none."""
    for module in PLAY_MODULES:
        importlib.import_module(f"fourfold.cli.play.{module}")
    return _RULES.find(game.name, game.info.variant) or DEFAULT
