"""What the player sees before each turn: the board, history notes, and whose turn it is."""

from __future__ import annotations

from typing import Any

from fourfold.core.match import Match
from fourfold.render.presenter import PlayContext


def last_move(match: Match[Any, Any]) -> Any | None:
    return match.moves[-1] if match.moves else None


def show_position(ctx: PlayContext) -> None:
    """The board (with the last move marked) and any notes the presenter adds."""
    match = ctx.match
    player = match.to_move
    viewer = player if player is not None and ctx.is_human(player) else None
    ctx.say("")
    ctx.say(ctx.presenter.draw(ctx.game, match.state, last_move(match), colour=ctx.colour,
                               viewer=viewer))
    for note in ctx.presenter.notes(match):
        ctx.say(note)


def show_turn(ctx: PlayContext, player: int) -> None:
    """Whose turn it is and what they must do."""
    task = ctx.presenter.describe_turn(ctx.game, ctx.match.state)
    ctx.say(f"{ctx.player_label(player)} to move: {task}")
