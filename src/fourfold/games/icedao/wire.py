"""Boards of Ice Dao: the occupied squares with their stacks, bottom piece first.

``squares`` lists the occupied squares only, each with ``stack`` (piece names, bottom
to top); ``line`` is the winning line's squares once there is one. The fields every
sliding board carries (``arrival``, ``plies``, ``history``...) are
``games/sliding/wire.py``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.pieces import COLOURS, piece_name
from fourfold.games.icedao.state import IceDaoState
from fourfold.games.sliding.wire import (
    common_fields,
    parts,
    restore_fields,
    square_json,
    squares_json,
)
from fourfold.wire.codec import AnyGame, BoardCodec
from fourfold.wire.errors import JsonDict, WireError


def encode(game: AnyGame, state: Any) -> JsonDict:
    if not isinstance(game, IceDaoGame):
        raise WireError(f"{game.name} is not Ice Dao")
    assert isinstance(state, IceDaoState)
    board = game.board
    return {
        **common_fields(board, state, game.to_move(state)),
        "sides": list(COLOURS),
        "squares": [{**square_json(board, sq), "stack": [piece_name(p) for p in stack]}
                    for sq, stack in enumerate(state.board) if stack],
        "line": squares_json(board, state.line),
    }


def restore(game: AnyGame, state: Any, data: Mapping[str, Any]) -> Any:
    assert isinstance(game, IceDaoGame)
    return restore_fields(game.board, state, data)


#: the ``codec`` part of Ice Dao's extension bundle
CODEC = BoardCodec(encode, restore=restore, parts=parts)
