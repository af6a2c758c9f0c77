"""A configured game by name, as a worker rebuilds it.

A task that must name its game in a journal's job or a key (a split solve) carries a
``GameConfig``: the game's name, variant and options, which ``load`` turns back
into the game (once per process).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fourfold.core.game import Game
from fourfold.core.registry import load


@dataclass(frozen=True)
class GameConfig:
    """A configured game by name, as a worker rebuilds it: ``load(name, variant, **options)``."""

    name: str
    variant: str
    options: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, game: Game[Any, Any]) -> GameConfig:
        info = game.info
        return cls(info.name, info.variant, tuple(sorted(info.option_strings().items())))

    def load(self) -> Game[Any, Any]:
        return _load(self)


@lru_cache(maxsize=16)
def _load(config: GameConfig) -> Game[Any, Any]:
    return load(config.name, config.variant, **dict(config.options))
