"""The commands every game has at the prompt: moves, undo, resign, board, rules, hint, help.

``quit`` (and the end of input) are handled by the loop itself, because they end the
session rather than act on the game. Each command returns whether the position should
be drawn again. A game's ``PlayRules`` may leave some out (``without``) and add its own.
"""

from __future__ import annotations

import textwrap

from fourfold.cli.play.context import Command, PlayContext
from fourfold.cli.play.errors import PlayError
from fourfold.cli.play.hint import hint
from fourfold.core.spec import Utility
from fourfold.render.presenter import WIDTH
from fourfold.table import TableError

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?")
YES = ("y", "yes")


def _moves(ctx: PlayContext, arg: str) -> bool:
    view = ctx.view()
    if ctx.game.info.spec.perfect_information:
        lines = ctx.presenter.list_moves(ctx.game, view.observation)
    else:
        names = ctx.table.legal_moves(ctx.seat)
        lines = [f"{len(names)} legal moves:", *textwrap.wrap(
            "  ".join(names), WIDTH, initial_indent="  ", subsequent_indent="  ")] if names \
            else ["No legal moves for you now."]
    for line in lines:
        ctx.say(line)
    return False


def plies_text(text: str) -> str:
    """The table's ``took back N moves`` as the player says it."""
    n = int(text.split()[2])
    return f"Took back {n} ply." if n == 1 else f"Took back {n} plies."


def no_undo(ctx: PlayContext) -> str | None:
    """Why this table never takes a move back, or ``None`` when it may: real-time play,
    or cards face down (then help and the intro do not offer ``undo``)."""
    if ctx.table.real_time:
        return "there is no undo in real-time play"
    if ctx.table.hides_something():
        return ("cards are face down, and taking back a move would show its replies, then"
                " let you try again (ruling: undo only when nothing is hidden)")
    return None


def _undo(ctx: PlayContext, arg: str) -> bool:
    seat = ctx.seat
    try:
        done = ctx.table.offer(seat, "undo")
    except TableError as error:
        if error.reason == "you have no move to take back":
            ctx.say("Nothing to undo: no move has been made at this terminal yet.")
        else:
            ctx.say(f"No undo: {error.reason}.")
        return False
    if done.startswith("took back"):
        ctx.say(plies_text(done))
        return True
    return ask_others(ctx, "undo", f"taking back {ctx.player_label(seat)}'s last move")


def ask_others(ctx: PlayContext, kind: str, what: str) -> bool:
    """Ask every other person at this terminal to accept an offer just made; say the end."""
    for other in sorted(ctx.people - {ctx.seat}):
        if ctx.table.pending_offer() is None:
            break
        answer = ctx.ask(f"{ctx.player_label(other)}, accept {what}? [y/n] ")
        accept = answer is not None and answer.strip().lower() in YES
        result = ctx.table.answer(other, accept)
        if not accept:
            ctx.say(f"{ctx.player_label(other)} declines: play on.")
            return False
        if result.startswith("took back"):
            ctx.say(plies_text(result))
    return True


def confirmed(ctx: PlayContext, warning: str, word: str, kept: str) -> bool:
    """A second word before an act that cannot be taken back and ends the game (as the
    page's second tap): ``warning`` says what it does; ``word`` again, or y, confirms;
    else ``kept`` is said ("Not resigned")."""
    answer = ctx.ask(f"{warning} Type {word} again (or y) to confirm, anything else to"
                     " play on: ")
    if answer is not None and answer.strip().lower() in (*YES, word):
        return True
    ctx.say(f"{kept}: play on.")
    return False


def _resign(ctx: PlayContext, arg: str) -> bool:
    """Give up: in a two-player game the other side wins; a team gives up together."""
    if not confirmed(ctx, f"Resign? {resign_summary(ctx).capitalize()}.", "resign",
                     "Not resigned"):
        return False
    try:
        ctx.table.resign(ctx.seat)
    except TableError as error:
        ctx.say(f"Not resigned: {error.reason}.")
        return False
    return True


def resign_summary(ctx: PlayContext) -> str:
    if ctx.game.info.spec.utility is Utility.COOPERATIVE:
        return "give up: the whole team loses, for everyone"
    return "give up: your opponent wins"


def _board(ctx: PlayContext, arg: str) -> bool:
    return True


def _rules(ctx: PlayContext, arg: str) -> bool:
    info = ctx.game.info
    try:
        text = info.spec.rules_text(info.variant)
    except OSError as exc:
        ctx.say(f"The rules text of {info.name} cannot be read: {exc.strerror or exc}")
        return False
    ctx.say(text.rstrip())
    return False


def _help(ctx: PlayContext, arg: str) -> bool:
    commands = all_commands(ctx)
    ctx.say("Commands:")
    refused = no_undo(ctx) if "undo" in commands else None
    for command in commands.values():
        if command.name == "undo" and refused is not None:
            continue  # said below, with the reason
        summary = resign_summary(ctx) if command.name == "resign" else command.summary
        ctx.say(f"  {command.name:<7} {summary}")
    ctx.say(f"  {'quit':<7} stop now (the record is saved if --save was given)")
    if refused is not None:
        ctx.say(f"No undo in this game: {refused}.")
    ctx.say("How to write a move:")
    for line in ctx.presenter.move_help(ctx.game, ctx.view().observation).splitlines():
        ctx.say(f"  {line}")
    return False


BUILTINS = (
    Command("moves", "list the legal moves", _moves),
    Command("undo", "take back your last move (and the bot's reply to it)", _undo),
    Command("resign", "give up: your opponent wins", _resign),
    Command("board", "show the board again", _board),
    Command("rules", "print the rules of this game and variant", _rules),
    Command("hint", "the value of every legal move for the player to move (needs a solver)",
            hint),
    Command("help", "this help: commands and how to write a move", _help),
)


def all_commands(ctx: PlayContext) -> dict[str, Command]:
    """Built-in commands (less those the game leaves out), then the game's own (which may
    not reuse a built-in name it keeps)."""
    rules = ctx.rules
    commands = {c.name: c for c in BUILTINS if c.name not in rules.without}
    for command in rules.commands:
        if command.name in commands or command.name in QUIT_WORDS + HELP_WORDS:
            raise PlayError(f"{ctx.game.name} command {command.name!r}",
                            "that name is built in; choose another")
        commands[command.name] = command
    return commands


def find_command(ctx: PlayContext, word: str) -> Command | None:
    key = word.lower()
    if key in HELP_WORDS:
        key = "help"
    return all_commands(ctx).get(key)
