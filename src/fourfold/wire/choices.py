"""A recipient's legal moves as structured choices, for a page to act on.

Each choice is ``{"move": NOTATION, "action": N, ...parts}``: the notation the server
reads, the dense action number (``Game.encode``; ``null`` for a move without one) and
the move in named parts from the game's board codec (``BoardCodec.parts``), such as
``{"cell": "d4", "give": "Gs"}`` or ``{"from": "a1", "to": "c3"}``. A page matches
clicks against the parts and sends the action with the notation alongside, so it never
parses notation. Everything comes from the recipient's view, like the view itself.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import View
from fourfold.wire.codec import AnyGame, codec_of
from fourfold.wire.errors import JsonDict


def action_of(game: AnyGame, move: Any) -> int | None:
    """The move's dense action number, or ``None`` when it has none (a freeform point
    off the action lattice)."""
    try:
        return int(game.encode(move))
    except (FourfoldError, NotImplementedError, ValueError, KeyError, IndexError):
        return None


def choices_json(game: AnyGame, view: View) -> list[JsonDict]:
    """The legal moves of ``view.player`` (none for a spectator or a waiting seat)."""
    parts = codec_of(game).parts
    out = []
    for move in game.view_legal_moves(view):
        choice: JsonDict = {"move": game.view_format_move(view, move),
                            "action": action_of(game, move)}
        if parts is not None:
            choice.update(parts(game, view.observation, move))
        out.append(choice)
    return out

