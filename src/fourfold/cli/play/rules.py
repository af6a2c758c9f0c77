"""How the terminal plays each game: its own commands, its session runner, its bots.

A game's terminal controls are the ``terminal`` part of its extension bundle
(``core.extensions``): ``Extensions(terminal="package.module:ATTRIBUTE")`` names a
``PlayRules`` value, for the whole game or (in a ``VariantSpec``) for one variant.
``rules_for(game)`` asks the bundle; a game without the part gets ``DEFAULT``: the
generic turn loop, the built-in commands and a ``random`` opponent.

What a ``PlayRules`` may hold, each optional: ``commands`` (a ``Command`` is a name,
a help line and ``run(ctx, argument) -> bool``, True when the screen should be drawn
again) added to the built-in ones, ``without`` (built-in commands this game hides),
``runner`` (``(ctx) -> exit status``, replacing the turn loop: ``PlayContext`` in
``context`` is what it sees), ``opponent`` (the bot when ``--vs`` is not given),
``no_hot_seat`` (why two people cannot share one terminal), ``make_bot`` (a bot for a
seat, told which seats people hold) and ``pace`` (a bot's mean seconds per action in
real-time play).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fourfold.ai import Bot, make_bot
from fourfold.cli.play.context import Command, SessionRunner
from fourfold.core.extensions import typed_part
from fourfold.core.game import Game

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


def title_label(game: Game[Any, Any]) -> str:
    """The game as people write it, with its variant and any changed options:
    ``Ice Dao (standard)``, ``Folio (fixed-grid, line-rule=same-colour-or-size)``."""
    info = game.info
    extras = [info.variant] + [f"{k}={v}" for k, v in info.non_default_options().items()]
    return f"{info.spec.title} ({', '.join(extras)})"


def rules_for(game: Game[Any, Any]) -> PlayRules:
    """The ``terminal`` part of this game's variant (else of the game), else ``DEFAULT``."""
    return typed_part(game, "terminal", PlayRules, DEFAULT)
