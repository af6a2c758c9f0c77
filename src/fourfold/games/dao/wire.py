"""Boards of classic Dao: the occupied squares with their piece (``X`` or ``O``).

``formation`` is the winning formation's squares and ``formation_name`` its kind (a
row, a column, a square, the corners); ``trapped`` is the square of a piece hemmed in
by the other side. The fields every sliding board carries (``arrival``, ``plies``,
``history``...) are ``games/sliding/wire.py``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fourfold.games.dao.game import DaoGame
from fourfold.games.dao.state import SIDE_LETTERS, DaoState
from fourfold.games.sliding.wire import (
    common_fields,
    parts,
    restore_fields,
    square_json,
    square_name,
    squares_json,
)
from fourfold.wire.codec import AnyGame, BoardCodec
from fourfold.wire.errors import JsonDict, WireError


def encode(game: AnyGame, state: Any) -> JsonDict:
    if not isinstance(game, DaoGame):
        raise WireError(f"{game.name} is not Dao")
    assert isinstance(state, DaoState)
    board = game.board
    return {
        **common_fields(board, state, game.to_move(state)),
        "sides": list(SIDE_LETTERS),
        "squares": [{**square_json(board, sq), "piece": SIDE_LETTERS[p]}
                    for sq, p in enumerate(state.board) if p is not None],
        "formation": squares_json(board, state.formation),
        "formation_name": state.formation_name,
        "trapped": square_name(board, state.trapped),
    }


def restore(game: AnyGame, state: Any, data: Mapping[str, Any]) -> Any:
    assert isinstance(game, DaoGame)
    return restore_fields(game.board, state, data)


#: the ``codec`` part of Dao's extension bundle
CODEC = BoardCodec(encode, restore=restore, parts=parts)
