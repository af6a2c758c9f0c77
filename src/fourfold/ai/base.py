"""One bot interface for every game.

A bot plays one seat. It sees only that seat's views (``game.view(state,
player)``), draws randomness only from its own seeded ``random.Random``, and
stops thinking at its ``Limit``. The CLI, matches, and later the server and RL
environments all drive bots through ``choose``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game, View

G = TypeVar("G", bound=Game[Any, Any])


@dataclass(frozen=True)
class Limit:
    """How much a bot may think per move; ``None`` fields are unlimited."""

    seconds: float | None = None
    nodes: int | None = None
    iterations: int | None = None


@dataclass(eq=False)
class Bot(ABC):
    """A player for one seat of one configured game: ``Bot(game, player, seed, limit)``.

    A bot with options of its own is a dataclass too: its options are keyword-only
    fields after ``KW_ONLY``, and its ``__post_init__`` (calling this one first) checks
    the game and builds what it searches with."""

    #: short name used on the command line (``random``, ``level3`` ...)
    name = "bot"

    game: Game[Any, Any] = field(repr=False)
    player: int
    seed: int | None = None
    #: the budget as given (``None``: unlimited); ``budget`` is what the bot obeys
    limit: Limit | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.budget = self.limit or Limit()

    @abstractmethod
    def choose(self, view: View) -> Any:
        """A legal move for ``view.player`` given only what that player may know."""

    def propose(self, view: View, idle: float = 0.0) -> Any | None:
        """Real-time play: the move to make now, or ``None`` to wait and look again.

        ``idle`` is how long nothing has landed. Turn-based bots simply choose."""
        if not self.game.view_legal_moves(view):
            return None
        return self.choose(view)

    def observe(self, view: View) -> None:  # noqa: B027 - optional hook, empty by design
        """Called after every move with this seat's new view; bots with memory override it."""


def game_for(bot: str, game: Game[Any, Any], kind: type[G], label: str) -> G:
    """``game`` as the one game class a game's own bot plays (``label`` names it);
    ``ConfigurationError`` for any other game."""
    if not isinstance(game, kind):
        raise ConfigurationError(f"the {bot} bot plays only {label}, not {game.info.label()}")
    return game
