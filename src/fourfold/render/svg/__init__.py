"""SVG pictures of any game: pure functions from a view to an SVG string.

``draw_svg(game, view, last_move=...)`` picks the drawer registered for the game
and variant (as ``render.presenter_for`` picks a text presenter) and returns an
``Svg``: a ``str`` that notebooks show as a picture (``_repr_svg_``), in the manner
of python-chess's ``chess.svg``. A drawer only ever sees the ``View`` it is given,
so a seat's picture can hold nothing that seat may not know, and a spectator's
(``view.player is None``) holds no face-down card.

A module adding drawers calls ``register_drawer`` at import and is listed in
``DRAWER_MODULES``. The CSS classes and data attributes shared by all drawers are
described in ``fourfold.render.svg.canvas``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any, Protocol

from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome
from fourfold.core.per_variant import ANY_VARIANT, PerVariant

DRAWER_MODULES = ("fourfold.games.placement.svg", "fourfold.games.folio.freeform.svg",
                  "fourfold.games.sliding.svg", "fourfold.games.quatrefoil.svg")


class Svg(str):
    """An SVG document as a string, shown as a picture by Jupyter (``_repr_svg_``)."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


class Drawer(Protocol):
    """Draws one view. ``outcome`` is an ending declared outside the rules (or None)."""

    def __call__(self, game: Game[Any, Any], view: View, *, last_move: Any | None,
                 outcome: Outcome | None, size: int | None) -> str: ...


_DRAWERS: PerVariant[Drawer] = PerVariant("an SVG drawer")


def register_drawer(games: Iterable[str], drawer: Drawer,
                    variants: Iterable[str] | None = None) -> Drawer:
    """Make ``drawer`` the one for each named game, for the listed variants only or for
    every variant when ``variants`` is ``None``."""
    return _DRAWERS.register(games, drawer, variants)


def _ensure_loaded() -> None:
    for module in DRAWER_MODULES:
        importlib.import_module(module)


def drawer_for(game: Game[Any, Any]) -> Drawer:
    """The drawer of a configured game; ``LookupError`` if no module draws it."""
    _ensure_loaded()
    drawer = _DRAWERS.find(game.name, game.info.variant)
    if drawer is None:
        raise LookupError(f"no SVG drawer for {game.info.label()}")
    return drawer


def draw_svg(game: Game[Any, Any], view: View, *, last_move: Any | None = None,
             outcome: Outcome | None = None, size: int | None = None) -> Svg:
    """The picture of ``view`` (from ``game.view(state, seat)``).

    ``last_move`` (a move of this game, the one that led here) is marked; ``outcome``
    is an ending declared from outside the moves (resignation, agreement, a clock),
    shown instead of the rules' own; ``size`` sets the rendered width in pixels (the
    ``viewBox`` stays the same).
    """
    drawer = drawer_for(game)
    return Svg(drawer(game, view, last_move=last_move, outcome=outcome, size=size))


def svg_for_state(game: Game[Any, Any], state: Any, last_move: Any | None = None, *,
                  size: int | None = None) -> Svg:
    """A state as a picture: all of it for a perfect-information game, the spectator's
    view (no hidden card) for a hidden-information one."""
    return draw_svg(game, game.view(state, None), last_move=last_move, size=size)


def svg_for_match(match: Any, seat: int | None = None, *, size: int | None = None) -> Svg:
    """A ``Match``'s current position as ``seat`` (default: a spectator) sees it, with
    its last move marked and any declared ending shown (then nothing stays hidden)."""
    game = match.game
    declared: Outcome | None = match.declared
    view = match.view(seat)
    last = match.moves[-1] if match.moves else None
    return draw_svg(game, view, last_move=last, outcome=declared, size=size)


def _register_notebook_display() -> None:
    """Let positions and matches show themselves as pictures (``fourfold.core.display``)."""
    from fourfold.core import display

    display.register_drawers(
        lambda game, state: svg_for_state(game, state),
        lambda match: svg_for_match(match),
    )


_register_notebook_display()

__all__ = [
    "ANY_VARIANT",
    "DRAWER_MODULES",
    "Drawer",
    "Svg",
    "draw_svg",
    "drawer_for",
    "register_drawer",
    "svg_for_match",
    "svg_for_state",
]
