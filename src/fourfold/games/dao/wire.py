"""Boards of classic Dao: the occupied squares with their piece (``X`` or ``O``).

``formation`` is the winning formation's squares and ``formation_name`` its kind (a
row, a column, a square, the corners); ``trapped`` is the square of a piece hemmed in
by the other side. The fields every sliding board carries (``arrival``, ``plies``,
``history``...) are ``games/sliding/wire.py``'s.
"""

from __future__ import annotations

from fourfold.games.dao.game import DaoGame
from fourfold.games.dao.state import SIDE_LETTERS, DaoState
from fourfold.games.sliding.wire import sliding_codec, square_json, square_name, squares_json
from fourfold.wire.errors import JsonDict


def dao_fields(game: DaoGame, state: DaoState) -> JsonDict:
    board = game.board
    return {
        "sides": list(SIDE_LETTERS),
        "squares": [{**square_json(board, sq), "piece": SIDE_LETTERS[p]}
                    for sq, p in enumerate(state.board) if p is not None],
        "formation": squares_json(board, state.formation),
        "formation_name": state.formation_name,
        "trapped": square_name(board, state.trapped),
    }


#: the ``codec`` part of Dao's extension bundle
CODEC = sliding_codec(DaoGame, "Dao", dao_fields)
