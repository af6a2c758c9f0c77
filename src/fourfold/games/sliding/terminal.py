"""Ice Dao and classic Dao at the terminal: the ``draw`` offer (their ``terminal`` part,
``fourfold.cli.play.rules``; ``resign`` is built in for every game).

A draw by agreement is an offer at the table: a bot never accepts one (play on, or
resign); between two people at this terminal the other person is asked.
"""

from __future__ import annotations

from fourfold.cli.play.builtins import ask_others
from fourfold.cli.play.context import Command, PlayContext
from fourfold.cli.play.rules import PlayRules
from fourfold.table import TableError


def offer_draw(ctx: PlayContext, argument: str) -> bool:
    """Offer a draw to the other side; return whether the game ended in one."""
    try:
        ctx.table.offer(ctx.seat, "draw")
    except TableError as error:
        if "bot" in error.reason:
            other = ctx.player_label(1 - ctx.seat)
            ctx.say(f"{other} declines the draw: bots play on (or type resign).")
        else:
            ctx.say(f"No draw: {error.reason}.")
        return False
    return ask_others(ctx, "draw", "a draw")


DRAW = Command("draw", "offer your opponent a draw by agreement", offer_draw)

#: the ``terminal`` part of Dao and Ice Dao
RULES = PlayRules(commands=(DRAW,))
