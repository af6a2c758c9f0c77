"""Views as wire JSON: generic fields for every game, plus a game-specific ``board``.

The generic part is computed through the ``Game.view_*`` methods only, so it can
never hold more than the view does. The ``board`` comes from the game's ``BoardCodec``
(``fourfold.wire.codec``: the ``codec`` part of its extension bundle); generic code
never asks which game it is looking at.

Decoding (``view_from_json``) rebuilds the view and then re-encodes it: the input is
accepted only if it is exactly what the server would have sent for that view.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game, O, View
from fourfold.wire.codec import AnyGame, codec_of
from fourfold.wire.errors import (
    JsonDict,
    WireError,
    exact_keys,
    join,
    obj,
    opt_integer,
    string,
)
from fourfold.wire.outcomes import outcome_from_json, outcome_to_json
from fourfold.wire.version import WIRE_VERSION, check_version

VIEW_KEYS = ("wire", "type", "game", "variant", "options", "viewer", "position", "actors",
             "legal_moves", "outcome", "board")


def game_header(game: AnyGame) -> JsonDict:
    """The fields naming a configured game: ``game``, ``variant``, ``options``."""
    return {"game": game.name, "variant": game.info.variant,
            "options": dict(game.info.option_strings())}


def view_to_json(game: Game[Any, Any, O], view: View[O]) -> JsonDict:
    """Everything ``view.player`` may know, as plain JSON (see docs/wire.md). The view
    must be one of this game's (its observation type ``O``), never a referee's state."""
    outcome = game.view_outcome(view)
    return {
        "wire": WIRE_VERSION,
        "type": "view",
        **game_header(game),
        "viewer": view.player,
        "position": game.view_position(view),
        "actors": list(game.view_actors(view)),
        "legal_moves": [game.view_format_move(view, m) for m in game.view_legal_moves(view)],
        "outcome": outcome_to_json(outcome),
        "board": _board(game, view.observation),
    }


#: the last board encoded, as ``(game, observation, board)``
_last_board: list[tuple[AnyGame | None, Any, JsonDict]] = [(None, None, {})]


def _board(game: Game[Any, Any, O], observation: O) -> JsonDict:
    """The board of ``observation``. The last one is kept: the recipients of one event
    who see the very same observation (every seat and spectator of a
    perfect-information game) get the same board, encoded once. Only an identical
    object is reused, so no viewer ever gets a board made from another's observation.
    The board is shared: read it, never change it."""
    last_game, last_observation, board = _last_board[0]
    if last_game is game and last_observation is observation:
        return board
    board = codec_of(game).encode(game, observation)
    _last_board[0] = (game, observation, board)
    return board


def check_header(game: AnyGame, data: Mapping[str, Any], where: str | None) -> None:
    """Refuse JSON written for another game, variant or options."""
    want = game_header(game)
    for key in ("game", "variant"):
        got = string(data[key], join(where, key))
        if got != want[key]:
            raise WireError(f"this is {want[key]!r}, not {got!r}", join(where, key))
    options = obj(data["options"], join(where, "options"))
    if dict(options) != want["options"]:
        raise WireError(f"options {dict(options)!r} are not this game's {want['options']!r}",
                        join(where, "options"))


def view_from_json(game: Game[Any, Any, O], data: Any, where: str | None = None) -> View[O]:
    """The view a ``view_to_json`` document describes; ``WireError`` if it is not exactly
    what ``view_to_json`` writes for some view of ``game``."""
    value = obj(data, where)
    exact_keys(value, VIEW_KEYS, where)
    check_version(value["wire"], join(where, "wire"))
    if value["type"] != "view":
        raise WireError(f"expected type 'view', got {value['type']!r}", join(where, "type"))
    check_header(game, value, where)
    viewer = opt_integer(value["viewer"], join(where, "viewer"), 0, game.num_players - 1)
    board = obj(value["board"], join(where, "board"))
    try:
        if game.info.spec.perfect_information:
            position = string(value["position"], join(where, "position"))
            state = game.parse_position(position)
            restore = codec_of(game).restore
            if restore is not None:
                state = restore(game, state, board)
            view = game.view(state, viewer)
        else:
            decode = codec_of(game).decode
            if decode is None:
                raise WireError(f"{game.name} views cannot be read back", where)
            view = View(viewer, decode(game, value, viewer))
        if value["outcome"] is not None and game.view_outcome(view) is None:
            # an ending declared from outside the moves (resignation, a clock)
            declared = outcome_from_json(value["outcome"], join(where, "outcome"))
            view = View(view.player, view.observation, declared)
        again = view_to_json(game, view)
    except WireError:
        raise
    except FourfoldError as exc:
        raise WireError(str(exc), where) from None
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        raise WireError(f"the view does not hold together ({exc})", where) from None
    for key in VIEW_KEYS:
        if canonical(again[key]) != canonical(value[key], join(where, key)):
            raise WireError(f"does not match the view it describes (expected {again[key]!r})",
                            join(where, key))
    return view


def canonical(value: Any, where: str | None = None) -> str:
    """The one text of a JSON value (``true`` and ``1`` differ here, unlike in ``==``)."""
    try:
        return json.dumps(value, sort_keys=True, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise WireError(f"not plain JSON ({exc})", where) from None
