"""What a person sees before each turn: the board from their seat's view, notes, clocks,
and whose turn it is."""

from __future__ import annotations

from fourfold.cli.play.context import PlayContext


def show_position(ctx: PlayContext, seat: int) -> None:
    """The board as ``seat`` may see it (the last move marked), the presenter's notes on
    the history, and the clocks."""
    match = ctx.match
    last = match.moves[-1] if match.moves else None
    ctx.say("")
    if ctx.game.info.spec.perfect_information:
        drawing = ctx.presenter.draw(ctx.game, ctx.table.view(seat).observation, last,
                                     colour=ctx.colour)
    else:  # the presenter draws only ``game.view(state, seat)`` (its contract)
        drawing = ctx.presenter.draw(ctx.game, match.state, last, colour=ctx.colour,
                                     viewer=seat)
    ctx.say(drawing)
    for note in ctx.presenter.notes(match):
        ctx.say(note)
    clocks = ctx.clock_line()
    if clocks:
        ctx.say(clocks)


def show_turn(ctx: PlayContext, seat: int) -> None:
    """Whose turn it is and what they must do."""
    task = ctx.presenter.describe_turn(ctx.game, ctx.table.view(seat).observation)
    ctx.say(f"{ctx.player_label(seat)} to move: {task}")
