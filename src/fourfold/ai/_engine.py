"""Shared by the searching bots: which games they play, and the engine they search."""

from __future__ import annotations

from typing import Any

from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game
from fourfold.core.spec import Utility
from fourfold.kernels import Engine, engine_for


def check_two_player(game: Game[Any, Any], bot: str) -> None:
    """Search bots play two-player zero-sum games of perfect information."""
    spec = game.info.spec
    zero_sum = spec.utility is Utility.ZERO_SUM
    if game.num_players != 2 or not zero_sum or not spec.perfect_information:
        raise ConfigurationError(
            f"the {bot} bot plays two-player games of perfect information; {game.name} is not one"
        )


def engine_of(game: Game[Any, Any], compiled: bool = True) -> Engine:
    return engine_for(game, compiled=compiled)
