"""A game's own bots: the ``bots`` part of its extension bundle (``core.extensions``).

The generic bots (random, greedy, alpha-beta, MCTS, perfect) play any two-player game
of perfect information through its kernel, and levels 1 to 5 default to them
(``fourfold.ai.levels.LEVELS``). A game that needs more names a ``GameBots`` value in
its ``Extensions(bots="package.module:ATTRIBUTE")`` (or in a variant's), with:

- ``named``: bots only this game (or variant) has, by name, each a ``NamedBot`` (a
  factory ``(game, player, seed, limit) -> Bot`` and the line ``fourfold bots`` prints).
  ``make_bot`` finds them by name; ``bot_names()`` lists them after ``random``.
- ``levels``: the levels that differ from ``LEVELS`` (level -> ``Level``). A level may
  play one of the game's own bots: its ``Level.own`` builds and describes it.
- ``too_slow``: generic bots that would be built for this game but play it too slowly
  to use, refused by ``make_bot`` with ``too_slow_reason``.
- ``endgame``: the exact solver of the stronger levels (``fourfold.ai.endgame``), as a
  factory ``(game) -> ExactEndgame`` solving positions within a node budget. Without
  one, the endgame asks the game's registered solver (``fourfold.solve.position``) and
  uses it when it is exact.
- ``estimate``: the strongest bot's estimate of a position, for reviews where no solver
  answers (``fourfold.analysis.review.assess``): ``(game, state, asked, iterations,
  seed) -> ((move, score), ...)``, each move's expected score for the player to move
  (0 lost .. 1 won), best first, every move in ``asked`` among them, within a budget
  the game reads off ``iterations`` (never seconds). Without one, reviews estimate with
  the MCTS search, unless ``too_slow`` lists it.
- ``hint`` and ``hint_proposes``: the bot that answers a hint when no solver does
  (``fourfold.server.hints``), and whether to ask its ``propose`` (real-time games: it
  may answer "wait") rather than its ``choose``.

A game without a ``bots`` part gets ``GameBots()``: the generic bots and levels.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fourfold.core.errors import ConfigurationError
from fourfold.core.extensions import resolve, typed_part

if TYPE_CHECKING:
    from fourfold.ai.base import Bot, Limit
    from fourfold.ai.endgame import ExactEndgame
    from fourfold.ai.levels import Level
    from fourfold.core.game import Game
    from fourfold.core.spec import GameSpec

#: ``(game, player, seed, limit) -> Bot``
BotFactory = Callable[["Game[Any, Any]", int, "int | None", "Limit | None"], "Bot"]
#: ``(game, state, asked, iterations, seed) -> ((move, expected score), ...)``
Estimator = Callable[["Game[Any, Any]", Any, tuple[Any, ...], int, int],
                     tuple[tuple[Any, float], ...]]


@dataclass(frozen=True)
class NamedBot:
    """One of a game's own bots: how to make it, and what it plays (one line)."""

    make: BotFactory
    description: str


@dataclass(frozen=True)
class GameBots:
    """What a game's ``bots`` part must be (see the module docstring)."""

    named: Mapping[str, NamedBot] = field(default_factory=dict)
    levels: Mapping[int, Level] = field(default_factory=dict)
    too_slow: frozenset[str] = frozenset()
    too_slow_reason: str = ""
    endgame: Callable[[Game[Any, Any]], ExactEndgame] | None = None
    hint: str = "level3"
    hint_proposes: bool = False
    estimate: Estimator | None = None


NO_BOTS = GameBots()


def _checked(found: Any, where: str) -> GameBots:
    if not isinstance(found, GameBots):
        raise ConfigurationError(
            f"the bots part of {where} is a {type(found).__name__}, not a"
            " fourfold.ai.game_bots.GameBots")
    return found


def game_bots(game: Game[Any, Any]) -> GameBots:
    """The ``bots`` part of a configured game (``NO_BOTS`` if it has none)."""
    return typed_part(game, "bots", GameBots, NO_BOTS)


def spec_bots(spec: GameSpec, variant: str | None) -> GameBots:
    """The ``bots`` part of one variant of a registered game, without configuring it."""
    reference = spec.extensions_for(variant).bots
    if reference is None:
        return NO_BOTS
    return _checked(resolve(reference), f"{spec.name} ({spec.variant(variant).name})")


#: ``every_game_bots`` of the registry as it last was (the specs it was computed from)
_EVERY: dict[tuple[int, ...], list[tuple[GameSpec, str, GameBots]]] = {}


def every_game_bots() -> list[tuple[GameSpec, str, GameBots]]:
    """``(spec, variant, bots)`` for every playable variant of every registered game that
    has a ``bots`` part, in registry order (computed again when the registry changes)."""
    from fourfold.core.registry import game_names, get_spec

    specs = [get_spec(name) for name in game_names()]
    key = tuple(id(spec) for spec in specs)
    found = _EVERY.get(key)
    if found is None:
        found = []
        for spec in specs:
            for variant in spec.variants:
                if variant.unavailable or spec.extensions_for(variant.name).bots is None:
                    continue
                found.append((spec, variant.name, spec_bots(spec, variant.name)))
        _EVERY.clear()
        _EVERY[key] = found
    return list(found)
