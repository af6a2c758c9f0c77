"""Text for people: pure functions from states to strings, one presenter per game.

``presenter_for(game)`` (or ``get_presenter("folio", "standard")``) gives the
``Presenter`` that draws Folio boards and explains its moves; a game without
one gets the generic ``Presenter``, which prints position strings, so every
registered game can be played. A module adding a presenter calls
``register_presenter`` at import and is listed in ``PRESENTER_MODULES``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

from fourfold.core.game import Game
from fourfold.core.per_variant import ANY_VARIANT, PerVariant
from fourfold.render.presenter import Presenter

PRESENTER_MODULES = ("fourfold.games.placement.text", "fourfold.games.sliding.text",
                     "fourfold.games.quatrefoil.text", "fourfold.games.folio.freeform.text")

_PRESENTERS: PerVariant[Presenter] = PerVariant("a presenter")
_FALLBACK = Presenter()


def register_presenter(
    games: Iterable[str], presenter: Presenter, variants: Iterable[str] | None = None
) -> Presenter:
    """Make ``presenter`` the one for each named game (registry names, not aliases), for
    the listed variants only, or for every variant when ``variants`` is ``None``."""
    return _PRESENTERS.register(games, presenter, variants)


def _ensure_loaded() -> None:
    for module in PRESENTER_MODULES:
        importlib.import_module(module)


def get_presenter(game: str, variant: str | None = None) -> Presenter:
    """The presenter of a game (by registry name) and variant: the one registered for that
    variant, else for the whole game, else the generic one that shows position strings."""
    _ensure_loaded()
    return _PRESENTERS.find(game, variant) or _FALLBACK


def presenter_for(game: Game[Any, Any]) -> Presenter:
    """The presenter of a configured game (its name and variant)."""
    return get_presenter(game.name, game.info.variant)


__all__ = [
    "ANY_VARIANT",
    "PRESENTER_MODULES",
    "Presenter",
    "get_presenter",
    "presenter_for",
    "register_presenter",
]
