"""How a game's views travel: the board codec a game names in its extension bundle.

The generic fields of a wire view come from the ``Game.view_*`` methods; the
game-specific ``board`` comes from the game's ``BoardCodec``, the ``codec`` part of its
``Extensions`` (``fourfold.core.extensions``). The wire never asks which game it holds.

The protocol: ``Extensions(codec="package.module:CODEC")`` names a ``BoardCodec``
value (a variant may name its own, ``VariantSpec(extensions=...)``). Its ``encode``
must be a pure function of the game and one observation (the recipient's, from its
``View``), so a board can hold nothing its recipient may not know. A game with no
codec gets ``GENERIC``: an empty board (its view's ``position`` says it all), legal
moves as their notation and action number only (a page shows one button a move), and
views that read back only for perfect-information games (from the position string).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from fourfold.core.extensions import typed_part
from fourfold.core.game import Game
from fourfold.wire.errors import JsonDict, WireError

AnyGame = Game[Any, Any]
G = TypeVar("G", bound=AnyGame)
#: ``(game, observation) -> board``: the board of one observation.
BoardEncoder = Callable[[AnyGame, Any], JsonDict]
#: ``(game, whole view JSON, viewer) -> observation`` for hidden-information views.
ObservationDecoder = Callable[[AnyGame, Mapping[str, Any], "int | None"], Any]
#: ``(game, state parsed from the position, board) -> state`` restoring what the
#: position string does not carry (history kept for repetition counts, the last arrival).
StateRestorer = Callable[[AnyGame, Any, Mapping[str, Any]], Any]
#: ``(game, observation, move) -> parts``: one legal move in named parts (a cell, a piece
#: to give, a square to slide from and to, an action's name) for a page to act on
#: without reading notation.
MoveParts = Callable[[AnyGame, Any, Any], JsonDict]


@dataclass(frozen=True)
class BoardCodec:
    """How one game's views travel: its board, and how to read it back.

    Perfect-information games rebuild the state from the position string and may
    ``restore`` what it does not carry; hidden-information games ``decode`` the whole
    observation from the board (there is no position to parse a hidden card from).
    ``parts`` names the parts of a legal move for a page (wire/choices.py).
    """

    encode: BoardEncoder
    decode: ObservationDecoder | None = None
    restore: StateRestorer | None = None
    parts: MoveParts | None = None


def served(game: AnyGame, kind: type[G], label: str) -> G:
    """``game`` as the game class a codec serves (``label`` names it in the error);
    ``WireError`` if the codec is handed another game."""
    if not isinstance(game, kind):
        raise WireError(f"{game.info.label()} is not {label}")
    return game


def _no_board(game: AnyGame, observation: Any) -> JsonDict:
    return {}


#: the codec of a game whose bundle names none
GENERIC = BoardCodec(_no_board)

#: ``(id(spec), variant) -> (spec, codec)``: codecs already looked up (the spec is kept
#: so that its id cannot be reused by another spec while the entry lives)
_FOUND: dict[tuple[int, str], tuple[object, BoardCodec]] = {}


def codec_of(game: AnyGame) -> BoardCodec:
    """The board codec of a configured game: its bundle's ``codec``, else ``GENERIC``;
    ``ConfigurationError`` if the bundle names something that is not a ``BoardCodec``."""
    spec, variant = game.info.spec, game.info.variant
    key = (id(spec), variant)
    found = _FOUND.get(key)
    if found is not None and found[0] is spec:
        return found[1]
    codec = typed_part(game, "codec", BoardCodec, GENERIC)
    _FOUND[key] = (spec, codec)
    return codec
