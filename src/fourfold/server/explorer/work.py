"""The explorer's work, in a worker process of the job pool (arguments and answer are
pickled): every legal move of a position with its value for the player making it, its
distance, and the position it leads to (to step on)."""

from __future__ import annotations

from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.registry import load
from fourfold.solve.explore import explore


def explore_json(game_name: str, variant: str | None, options: dict[str, str],
                 position: str | None, seconds: float) -> dict[str, Any]:
    """The exploration's JSON (``fourfold explore --json``'s shape) with each move's
    ``after`` position; a position the solver cannot answer in time lists its moves
    unvalued, with the ``error`` saying why."""
    game = load(game_name, variant, **options)
    state = game.initial_state(0) if position is None else game.parse_position(position)
    try:
        body = explore(game, state, seconds).to_json()
    except FourfoldError as error:
        if game.outcome(state) is not None:
            raise
        mover = game.to_move(state)
        body = {"game": game.name, "variant": game.info.variant,
                "options": game.info.option_strings(),
                "position": game.format_position(state),
                "to_move": None if mover is None else game.player_name(mover),
                "value": "unknown", "distance": None, "exact": False,
                "error": str(error),
                "moves": [{"move": game.format_move(state, m), "value": "unknown",
                           "distance": None} for m in game.legal_moves(state)]}
    for item in body["moves"]:
        after = game.next_state(state, game.parse_move(state, item["move"]))
        item["after"] = game.format_position(after)
        item["ends"] = game.outcome(after) is not None
    return body
