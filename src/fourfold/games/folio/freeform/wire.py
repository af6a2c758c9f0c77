"""Boards of Folio freeform: pieces at real coordinates on a round table.

``pieces`` are in the order they were placed (the order decides who broke the grid);
``broken`` is how many pieces were down when no notional grid fitted any more.
"""

from __future__ import annotations

from typing import Any

from fourfold.games.folio.freeform.game import FreeformGame
from fourfold.games.folio.freeform.notation import format_point
from fourfold.games.folio.freeform.state import FreeformState
from fourfold.wire.codec import AnyGame, BoardCodec, served
from fourfold.wire.errors import JsonDict
from fourfold.wire.outcomes import outcome_to_json


def encode(any_game: AnyGame, state: Any) -> JsonDict:
    game = served(any_game, FreeformGame, "Folio freeform")
    assert isinstance(state, FreeformState)
    pieces = game.pieces
    return {
        "table": {"side": game.table.side, "centre": list(game.table.centre),
                  "tolerance": game.tolerance,
                  "strict": game.strict},
        "pieces": [{"piece": pieces.name(k), "description": pieces.describe(k)}
                   for k in range(pieces.num_kinds)],
        "placed": [{"x": x, "y": y, "point": format_point((x, y)), "piece": pieces.name(k)}
                   for x, y, k in state.pieces],
        "hand": None if state.hand is None else pieces.name(state.hand),
        "supply": [{"piece": pieces.name(k), "count": n}
                   for k, n in enumerate(state.supply) if n],
        "broken": state.broken,
        "ended": outcome_to_json(state.ended),
        "to_move": game.to_move(state),
    }


def parts(any_game: AnyGame, state: Any, move: Any) -> JsonDict:
    """A ply as ``{"cell": "x,y", "x", "y", "give"}`` (place or give may be ``None``),
    or a challenge."""
    game = served(any_game, FreeformGame, "Folio freeform")
    if move.challenge:
        return {"cell": None, "give": None, "challenge": True}
    give = None if move.give is None else game.pieces.name(move.give)
    if move.place is None:
        return {"cell": None, "give": give}
    x, y = move.place
    return {"cell": format_point(move.place), "x": x, "y": y, "give": give}


#: the ``codec`` part of the freeform variant's extension bundle
CODEC = BoardCodec(encode, parts=parts)
