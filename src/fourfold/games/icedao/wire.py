"""Boards of Ice Dao: the occupied squares with their stacks, bottom piece first.

``squares`` lists the occupied squares only, each with ``stack`` (piece names, bottom
to top); ``line`` is the winning line's squares once there is one. The fields every
sliding board carries (``arrival``, ``plies``, ``history``...) are
``games/sliding/wire.py``'s.
"""

from __future__ import annotations

from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.pieces import COLOURS, piece_name
from fourfold.games.icedao.state import IceDaoState
from fourfold.games.sliding.wire import sliding_codec, square_json, squares_json
from fourfold.wire.errors import JsonDict


def icedao_fields(game: IceDaoGame, state: IceDaoState) -> JsonDict:
    board = game.board
    return {
        "sides": list(COLOURS),
        "squares": [{**square_json(board, sq), "stack": [piece_name(p) for p in stack]}
                    for sq, stack in enumerate(state.board) if stack],
        "line": squares_json(board, state.line),
    }


#: the ``codec`` part of Ice Dao's extension bundle
CODEC = sliding_codec(IceDaoGame, "Ice Dao", icedao_fields)
