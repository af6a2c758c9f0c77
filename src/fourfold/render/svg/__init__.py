"""SVG pictures of any game: pure functions from a view to an SVG string.

``draw_svg(game, view, last_move=...)`` asks the game's drawer and returns an ``Svg``:
a ``str`` that notebooks show as a picture (``_repr_svg_``), in the manner of
python-chess's ``chess.svg``. A drawer only ever sees the ``View`` it is given, so a
seat's picture can hold nothing that seat may not know, and a spectator's
(``view.player is None``) holds no face-down card.

The protocol: a game names its drawer in its extension bundle,
``Extensions(drawer="package.module:draw")`` (a variant may name its own in
``VariantSpec(extensions=...)``); it must be a ``Drawer``, a pure function
``draw(game, view, *, last_move, outcome, size) -> str`` returning a whole SVG
document. Drawers build it with ``fourfold.render.svg.canvas`` (the CSS classes and
data attributes shared by all drawers are described there) and
``fourfold.render.svg.common`` (sizes, header, status line) and ``fourfold.render.svg.tray``
(the pieces in hand and left to give). A game without a
drawer has no picture: ``drawer_for`` raises ``NoDrawerError`` (a ``LookupError`` and a
``ConfigurationError``) naming the missing part.

Seat names: a table calls its seats by the person's name or the bot and its level,
and its pictures must say the same ("one name per seat"). ``draw_svg(..., names=)``
hands those names to a drawer that takes a ``names`` keyword (every built-in drawer
does: it passes them to ``common.header`` and names seats with ``common.seat_name``);
a drawer without one is called as before and uses the rules' names.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any, Protocol

from fourfold.core.errors import ConfigurationError
from fourfold.core.extensions import part, reference
from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome


class Svg(str):
    """An SVG document as a string, shown as a picture by Jupyter (``_repr_svg_``)."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


class NoDrawerError(ConfigurationError, LookupError):
    """The game's extension bundle names no drawer: it has no picture. (A
    ``ConfigurationError``, so the command line prints it as one line, and a
    ``LookupError``, as asking for a missing part always was.)"""


class Drawer(Protocol):
    """Draws one view. ``outcome`` is an ending declared outside the rules (or None).
    A drawer may also take ``names`` (``Sequence[str] | None``): the seats' names at
    the table (see the module's docstring)."""

    def __call__(self, game: Game[Any, Any], view: View, *, last_move: Any | None,
                 outcome: Outcome | None, size: int | None) -> str: ...


def takes_names(drawer: Drawer) -> bool:
    """Whether ``drawer`` takes the seats' names (a ``names`` keyword, or ``**kwargs``)."""
    try:
        parameters = inspect.signature(drawer).parameters.values()
    except (TypeError, ValueError):
        return False
    return any((p.name == "names" and p.kind is not p.POSITIONAL_ONLY)
               or p.kind is p.VAR_KEYWORD for p in parameters)


def drawer_for(game: Game[Any, Any]) -> Drawer:
    """The drawer of a configured game (its extension bundle's ``drawer``);
    ``NoDrawerError`` if it names none, ``ConfigurationError`` if it names no function."""
    drawer = part(game, "drawer")
    if drawer is None:
        raise NoDrawerError(
            f"no SVG drawer for {game.info.label()}: its extension bundle names no drawer"
            " (Extensions(drawer='package.module:function'))")
    if not callable(drawer):
        raise ConfigurationError(
            f"the drawer of {game.info.label()} ({reference(game, 'drawer')!r}) is a"
            f" {type(drawer).__name__}, not a function")
    found: Drawer = drawer
    return found


def draw_svg(game: Game[Any, Any], view: View, *, last_move: Any | None = None,
             outcome: Outcome | None = None, size: int | None = None,
             names: Sequence[str] | None = None) -> Svg:
    """The picture of ``view`` (from ``game.view(state, seat)``).

    ``last_move`` (a move of this game, the one that led here) is marked; ``outcome``
    is an ending declared from outside the moves (resignation, agreement, a clock),
    shown instead of the rules' own; ``size`` sets the rendered width in pixels (the
    ``viewBox`` stays the same); ``names`` are the seats' names at a table, one per
    seat (None: the rules' names), for a drawer that takes them.
    """
    drawer = drawer_for(game)
    if names is not None:
        if len(names) != game.num_players:
            raise ValueError(f"{len(names)} seat names for {game.num_players} seats")
        if takes_names(drawer):
            named: Any = drawer
            return Svg(named(game, view, last_move=last_move, outcome=outcome, size=size,
                             names=tuple(names)))
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
    return draw_svg(game, view, last_move=last, outcome=declared, size=size,
                    names=match.players)


def _register_notebook_display() -> None:
    """Let positions and matches show themselves as pictures (``fourfold.core.display``)."""
    from fourfold.core import display

    display.register_drawers(
        lambda game, state: svg_for_state(game, state),
        lambda match: svg_for_match(match),
    )


_register_notebook_display()

__all__ = [
    "Drawer",
    "NoDrawerError",
    "Svg",
    "draw_svg",
    "drawer_for",
    "svg_for_match",
    "svg_for_state",
    "takes_names",
]
