"""Text for people: pure functions from states to strings, one presenter per game.

``presenter_for(game)`` gives the ``Presenter`` that draws a configured game's boards
and explains its moves; a game without one gets the generic ``Presenter``, which prints
position strings, so every registered game can be played.

The protocol: a game names its presenter in its extension bundle,
``Extensions(presenter="package.module:PRESENTER")`` (a variant may name its own in
``VariantSpec(extensions=...)``), and that reference must be a ``Presenter`` instance
(usually of a subclass overriding ``draw``, ``describe_turn``, ``explain_move``...).
Its methods are pure; a hidden-information game's ``draw`` must show a seat only what
``game.view(state, viewer)`` holds. This package never asks which game it holds.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.extensions import typed_part
from fourfold.core.game import Game
from fourfold.core.registry import load
from fourfold.render.presenter import Presenter

_FALLBACK = Presenter()


def presenter_for(game: Game[Any, Any]) -> Presenter:
    """The presenter of a configured game: the one its extension bundle names, else the
    generic one that shows position strings."""
    return typed_part(game, "presenter", Presenter, _FALLBACK)


def get_presenter(game: str, variant: str | None = None) -> Presenter:
    """The presenter of a game by registry name (or alias) and variant (default: the
    game's first); ``ConfigurationError`` for an unknown game or variant."""
    return presenter_for(load(game, variant))


__all__ = [
    "Presenter",
    "get_presenter",
    "presenter_for",
]
