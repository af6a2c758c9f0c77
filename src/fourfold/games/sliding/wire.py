"""Board fields the sliding games share (Ice Dao, classic Dao), for their codecs
(``games/icedao/wire.py``, ``games/dao/wire.py``).

``squares`` lists the occupied squares only, by name and coordinates. ``arrival`` is
where the last slide stopped (to mark the move). ``plies`` and ``history`` (the keys of
earlier positions) are carried so that a reader can rebuild the exact state,
repetition counts included; a client may ignore them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from fourfold.games.sliding.game import SlidingGame
from fourfold.games.sliding.geometry import Square, SquareBoard
from fourfold.games.sliding.moves import Pass, Slide
from fourfold.wire.codec import AnyGame, BoardCodec, served
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


def squares_json(board: SquareBoard, squares: tuple[Square, ...] | None) -> list[JsonDict] | None:
    return None if squares is None else [square_json(board, s) for s in squares]


def square_name(board: SquareBoard, square: Square | None) -> str | None:
    return None if square is None else board.name(square)


def common_fields(board: SquareBoard, state: Any, to_move: int | None) -> JsonDict:
    return {
        "size": board.size,
        "to_play": state.to_play,
        "to_move": to_move,
        "arrival": square_name(board, state.arrival),
        "plies": state.plies,
        "history": list(state.history),
    }


def restore_fields(board: SquareBoard, state: Any, data: Mapping[str, Any]) -> Any:
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


def parts(game: AnyGame, state: Any, move: Any) -> JsonDict:
    """A slide as ``{"from", "to", "direction"}`` (``N``, ``NE``, ...), or ``{"pass"}``."""
    if isinstance(move, Pass):
        return {"pass": True}
    assert isinstance(game, SlidingGame) and isinstance(move, Slide)
    board = game.board
    stop = game.stop(state, move.origin, move.direction)
    return {"from": board.name(move.origin), "to": board.name(stop),
            "direction": move.direction_name}


def sliding_codec(
    kind: type[SlidingGame[Any]], label: str, fields: Callable[[Any, Any], JsonDict]
) -> BoardCodec:
    """The codec of one sliding game: the fields every sliding board carries, then the
    game's own ``fields(game, state)`` (its pieces, its winning line)."""

    def encode(game: AnyGame, state: Any) -> JsonDict:
        board = served(game, kind, label).board
        return {**common_fields(board, state, game.to_move(state)), **fields(game, state)}

    def restore(game: AnyGame, state: Any, data: Mapping[str, Any]) -> Any:
        return restore_fields(served(game, kind, label).board, state, data)

    return BoardCodec(encode, restore=restore, parts=parts)
