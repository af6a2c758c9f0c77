"""One bot interface for every game.

A bot plays one seat. It sees only that seat's views (``game.view(state,
player)``), draws randomness only from its own seeded ``random.Random``, and
stops thinking at its ``Limit``. The CLI, matches, and later the server and RL
environments all drive bots through ``choose``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from fourfold.core.game import Game, View


@dataclass(frozen=True)
class Limit:
    """How much a bot may think per move; ``None`` fields are unlimited."""

    seconds: float | None = None
    nodes: int | None = None
    iterations: int | None = None


class Bot(ABC):
    """A player for one seat of one configured game."""

    #: short name used on the command line (``random``, ``level3`` ...)
    name: str = "bot"

    def __init__(
        self, game: Game[Any, Any], player: int, seed: int | None = None, limit: Limit | None = None
    ) -> None:
        self.game = game
        self.player = player
        self.rng = random.Random(seed)
        self.limit = limit or Limit()

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
