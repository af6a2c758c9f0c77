"""How positions and matches show themselves in a notebook.

The rules import no drawing code: the drawing side (``fourfold.render.svg``, imported
by ``import fourfold``) registers its functions here, and states ask for them. A state
does not know which configured game it belongs to (Quarto and Folio fixed-grid share
a state class), so each game remembers the states it hands out (``remember``), weakly and by
identity: nothing is kept alive for it. A state no game handed out falls back to its plain repr.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fourfold.core.game import Game

StateDrawer = Callable[["Game[Any, Any]", Any], str]
MatchDrawer = Callable[[Any], str]

#: id(state) -> (a weak reference to that very state, its game). By identity, not
#: equality: equal states of different games (Folio standard and fixed-grid start the same)
#: each keep their own game.
_owners: dict[int, _Handed] = {}
_drawers: dict[str, Any] = {}


class _Handed(weakref.ref[Any]):
    """A weak reference to a state a game handed out, with that game and the state's
    id: one object per state (a closure per state made five, and a server keeps
    every state of every live game)."""

    __slots__ = ("game", "key")
    game: Game[Any, Any]
    key: int


def _forget(ref: _Handed, owners: dict[int, _Handed] = _owners) -> None:
    """A remembered state is gone (``owners`` held here: module globals may be gone
    when a late callback runs); its id may already name a newer state."""
    if owners.get(ref.key) is ref:
        del owners[ref.key]


def register_drawers(state: StateDrawer, match: MatchDrawer) -> None:
    _drawers["state"] = state
    _drawers["match"] = match


def remember(game: Game[Any, Any], state: Any) -> None:
    """Note that ``game`` handed out ``state`` (for its picture and repr)."""
    try:
        ref = _Handed(state, _forget)
    except TypeError:  # a value that cannot be weakly referenced
        return
    ref.game, ref.key = game, id(state)
    _owners[ref.key] = ref


def owner(state: Any) -> Game[Any, Any] | None:
    ref = _owners.get(id(state))
    if ref is None or ref() is not state:
        return None
    return ref.game


def state_svg(state: Any) -> str | None:
    game = owner(state)
    drawer = _drawers.get("state")
    if game is None or drawer is None:
        return None
    svg: str = drawer(game, state)
    return svg


def match_svg(match: Any) -> str | None:
    drawer = _drawers.get("match")
    if drawer is None:
        return None
    svg: str = drawer(match)
    return svg


class Displayable:
    """Mixin for state classes: a picture in notebooks, a repr in notation.

    The repr is ``<game (variant) position: POSITION>`` in the game's position notation
    (the public part only, for games with hidden cards), when the state's game is known.
    """

    def _repr_svg_(self) -> str | None:
        return state_svg(self)

    def __repr__(self) -> str:
        game = owner(self)
        if game is not None:
            position = game.view_position(game.view(self, None))
            return f"<{game.info.label()} position: {position}>"
        values = ", ".join(f"{f.name}={getattr(self, f.name)!r}"
                           for f in dataclasses.fields(self))  # type: ignore[arg-type]
        return f"{type(self).__name__}({values})"
