"""A registry of things kept per game and variant: a text presenter, an SVG drawer, the
terminal's play rules. Each is registered for some variants of a game, or for all of
them, and looked up for one configured game."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from fourfold.core.errors import ConfigurationError

T = TypeVar("T")

#: the variant name that stands for every variant of a game
ANY_VARIANT = "*"


class PerVariant(Generic[T]):
    """``register(games, item, variants)`` then ``find(game, variant)``: the item of that
    variant, else of the whole game, else ``None``. ``what`` names the items in errors."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._items: dict[tuple[str, str], T] = {}

    def register(self, games: Iterable[str], item: T,
                 variants: Iterable[str] | None = None) -> T:
        """Make ``item`` the one of each named game (registry names, not aliases), for the
        listed variants only, or for every variant when ``variants`` is ``None``."""
        wanted = [ANY_VARIANT] if variants is None else list(variants)
        for name in games:
            for variant in wanted:
                if (name, variant) in self._items:
                    raise ConfigurationError(
                        f"game {name!r} variant {variant!r} already has {self.what}")
                self._items[name, variant] = item
        return item

    def find(self, game: str, variant: str | None) -> T | None:
        if variant is not None and (game, variant) in self._items:
            return self._items[game, variant]
        return self._items.get((game, ANY_VARIANT))
