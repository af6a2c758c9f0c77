"""The generic turn loop of ``fourfold play``: bots move, people type moves or commands.

Every bad line gets one friendly line quoting the rules' reason, and the
prompt comes back; a traceback is never shown. ``quit``, end of input and
Ctrl-C end the session (saving the record when asked); so does the end of
the game, after the outcome is printed.
"""

from __future__ import annotations

from fourfold.cli.play.builtins import QUIT_WORDS, find_command
from fourfold.cli.play.errors import PlayError
from fourfold.cli.play.screen import show_position, show_turn
from fourfold.core.errors import FourfoldError, IllegalMoveError, NotationError
from fourfold.core.spec import Utility
from fourfold.render.presenter import PlayContext


def complain(ctx: PlayContext, line: str, error: FourfoldError) -> None:
    """One line saying why ``line`` was not played."""
    if isinstance(error, NotationError):
        ctx.say(f"Cannot read {line!r}: {error.reason}. Type 'help' for how to write a move.")
    elif isinstance(error, IllegalMoveError):
        ctx.say(f"Illegal move {error.move!r}: {error.reason}.")
    else:
        ctx.say(f"Not played: {error}")


def finish(ctx: PlayContext, message: str) -> int:
    """Print how the session ended and save the record if asked."""
    ctx.say(message)
    path = ctx.save()
    if path is not None:
        ctx.say(f"Record saved to {path}")
    return 0


def labels(ctx: PlayContext) -> tuple[str, ...]:
    return tuple(ctx.player_label(p) for p in range(ctx.game.num_players))


def bot_turn(ctx: PlayContext, player: int) -> None:
    """Let the bot of ``player`` move and say what it did."""
    before = ctx.match.state
    move = ctx.bot_move(player)
    notation = ctx.play(move)
    words = ctx.presenter.explain_move(ctx.game, before, move)
    said = f"{ctx.player_label(player)} plays {notation}"
    ctx.say(f"{said}: {words}" if words else said)


def handle_line(ctx: PlayContext, text: str) -> bool:
    """Run a command or play a move typed by a person; return whether to show the board."""
    word, _, rest = text.partition(" ")
    command = find_command(ctx, word)
    if command is not None:
        return command.run(ctx, rest.strip())
    try:
        ctx.play(ctx.game.parse_move(ctx.match.state, text))
    except FourfoldError as error:
        complain(ctx, text, error)
        return False
    return True


def run_turns(ctx: PlayContext) -> int:
    """Play until the game ends or the player quits; return the exit status."""
    together = ctx.game.info.spec.utility is Utility.COOPERATIVE
    ctx.say(f"{ctx.game.info.label()}: " + (" with " if together else " vs ").join(labels(ctx)))
    ctx.say("Type 'help' for commands and how to write a move, 'moves' for the legal moves.")
    show = True
    try:
        while True:
            outcome = ctx.match.outcome
            if outcome is not None:
                show_position(ctx)
                return finish(ctx, f"Game over. {outcome.describe(labels(ctx))}")
            player = ctx.match.to_move
            if player is None:
                raise PlayError(ctx.game.name, "no single player has the turn here; this game "
                                "needs its own session runner (Presenter.session)")
            if not ctx.is_human(player):
                bot_turn(ctx, player)
                show = True
                continue
            if show:
                show_position(ctx)
                show_turn(ctx, player)
            line = ctx.ask(f"{ctx.player_label(player)}> ")
            if line is None or line.strip().lower() in QUIT_WORDS:
                return finish(ctx, "Game left unfinished.")
            show = handle_line(ctx, line.strip()) if line.strip() else False
    except KeyboardInterrupt:  # while a bot thinks; at the prompt Ctrl-C reads as end of input
        ctx.say("")
        return finish(ctx, "Interrupted: game left unfinished.")
