"""Boards of the sliding games: Ice Dao (stacks of pyramids) and classic Dao (discs).

``squares`` lists the occupied squares only, by name and coordinates. ``arrival`` is
where the last slide stopped (to mark the move). ``plies`` and ``history`` (the keys of
earlier positions) are carried so that a reader can rebuild the exact state,
repetition counts included; a client may ignore them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from fourfold.games.dao.game import DaoGame
from fourfold.games.dao.state import SIDE_LETTERS, DaoState
from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.pieces import COLOURS, piece_name
from fourfold.games.icedao.state import IceDaoState
from fourfold.games.sliding.geometry import Square, SquareBoard
from fourfold.games.sliding.moves import Pass, Slide
from fourfold.wire.codec import AnyGame, BoardCodec
from fourfold.wire.errors import (
    JsonDict,
    WireError,
    array,
    integer,
    join,
    opt_string,
    string,
)

MAX_HISTORY = 100_000


def square_json(board: SquareBoard, square: Square) -> JsonDict:
    x, y = board.coords(square)
    return {"square": board.name(square), "x": x, "y": y}


def _squares(board: SquareBoard, squares: tuple[Square, ...] | None) -> list[JsonDict] | None:
    return None if squares is None else [square_json(board, s) for s in squares]


def _square(board: SquareBoard, square: Square | None) -> str | None:
    return None if square is None else board.name(square)


def _common(board: SquareBoard, state: Any, to_move: int | None) -> JsonDict:
    return {
        "size": board.size,
        "to_play": state.to_play,
        "to_move": to_move,
        "arrival": _square(board, state.arrival),
        "plies": state.plies,
        "history": list(state.history),
    }


def _restore(board: SquareBoard, state: Any, data: Mapping[str, Any]) -> Any:
    """Put back the fields a position string does not carry."""
    where = "board"
    plies = integer(data.get("plies"), join(where, "plies"), 0, MAX_HISTORY)
    history = array(data.get("history"), join(where, "history"), MAX_HISTORY)
    keys = tuple(string(k, join(join(where, "history"), i), 64) for i, k in enumerate(history))
    arrival_name = opt_string(data.get("arrival"), join(where, "arrival"))
    arrival = None
    if arrival_name is not None:
        if arrival_name not in board.names:
            raise WireError(f"{arrival_name!r} is not a square", join(where, "arrival"))
        arrival = board.names.index(arrival_name)
    return dataclasses.replace(state, plies=plies, history=keys, arrival=arrival)


def encode_icedao(game: AnyGame, state: Any) -> JsonDict:
    if not isinstance(game, IceDaoGame):
        raise WireError(f"{game.name} is not Ice Dao")
    assert isinstance(state, IceDaoState)
    board = game.board
    return {
        **_common(board, state, game.to_move(state)),
        "sides": list(COLOURS),
        "squares": [{**square_json(board, sq), "stack": [piece_name(p) for p in stack]}
                    for sq, stack in enumerate(state.board) if stack],
        "line": _squares(board, state.line),
    }


def restore_icedao(game: AnyGame, state: Any, data: Mapping[str, Any]) -> Any:
    assert isinstance(game, IceDaoGame)
    return _restore(game.board, state, data)


def encode_dao(game: AnyGame, state: Any) -> JsonDict:
    if not isinstance(game, DaoGame):
        raise WireError(f"{game.name} is not Dao")
    assert isinstance(state, DaoState)
    board = game.board
    return {
        **_common(board, state, game.to_move(state)),
        "sides": list(SIDE_LETTERS),
        "squares": [{**square_json(board, sq), "piece": SIDE_LETTERS[p]}
                    for sq, p in enumerate(state.board) if p is not None],
        "formation": _squares(board, state.formation),
        "formation_name": state.formation_name,
        "trapped": _square(board, state.trapped),
    }


def restore_dao(game: AnyGame, state: Any, data: Mapping[str, Any]) -> Any:
    assert isinstance(game, DaoGame)
    return _restore(game.board, state, data)


def parts(game: AnyGame, state: Any, move: Any) -> JsonDict:
    """A slide as ``{"from", "to", "direction"}`` (``N``, ``NE``, ...), or ``{"pass"}``."""
    if isinstance(move, Pass):
        return {"pass": True}
    assert isinstance(game, (IceDaoGame, DaoGame)) and isinstance(move, Slide)
    board = game.board
    stop = game.stop(state, move.origin, move.direction)
    return {"from": board.name(move.origin), "to": board.name(stop),
            "direction": move.direction_name}


def controller_icedao(game: AnyGame) -> JsonDict:
    return {"kind": "sliding", "piece": "stack"}


def controller_dao(game: AnyGame) -> JsonDict:
    return {"kind": "sliding", "piece": "piece"}


#: the ``codec`` parts of Ice Dao's and Dao's extension bundles
ICEDAO_CODEC = BoardCodec(encode_icedao, restore=restore_icedao, parts=parts,
                          controller=controller_icedao)
DAO_CODEC = BoardCodec(encode_dao, restore=restore_dao, parts=parts,
                       controller=controller_dao)
