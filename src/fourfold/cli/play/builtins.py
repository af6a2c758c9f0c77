"""The commands every game has at the prompt: moves, undo, board, rules, hint, help.

``quit`` (and the end of input) are handled by the loop itself, because they
end the session rather than act on the game. Each command returns whether the
board should be shown again.
"""

from __future__ import annotations

from fourfold.cli.play.errors import PlayError
from fourfold.cli.play.session import plies_to_undo
from fourfold.render.presenter import Command, PlayContext
from fourfold.solve.position import Value, solver_for

QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?")
#: how long ``hint`` lets a solver think
HINT_SECONDS = 5.0


def _moves(ctx: PlayContext, arg: str) -> bool:
    for line in ctx.presenter.list_moves(ctx.game, ctx.match.state):
        ctx.say(line)
    return False


def _undo(ctx: PlayContext, arg: str) -> bool:
    n = plies_to_undo(ctx.match, ctx.is_human)
    if n == 0:
        ctx.say("Nothing to undo: no move has been made at this terminal yet.")
        return False
    ctx.match.undo(n)
    ctx.say(f"Took back {n} ply." if n == 1 else f"Took back {n} plies.")
    return True


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


def _value_text(value: Value, distance: int | None) -> str:
    if value is Value.UNKNOWN:
        return "not proven either way"
    if value is Value.DRAW or distance is None:
        return str(value.value)
    return f"{value.value} in {distance} pl{'y' if distance == 1 else 'ies'}"


def _hint(ctx: PlayContext, arg: str) -> bool:
    game, state = ctx.game, ctx.match.state
    player = ctx.match.to_move
    if player is None:
        ctx.say("No hint: the game is over.")
        return False
    entry = solver_for(game)
    if entry is None:
        ctx.say(f"No hint: {game.info.spec.title} has no solver, so move values are not"
                " known here.")
        return False
    solution = entry.solve(game, state, HINT_SECONDS)
    if solution is None:
        ctx.say(f"No hint: the {game.info.spec.title} solver found no answer within"
                f" {HINT_SECONDS:g} seconds ({entry.summary}).")
        return False
    name = game.player_name(player)
    ctx.say(f"{name} to move: {_value_text(solution.value, solution.distance)}"
            + ("" if entry.exact else f" (bounded solver: {entry.summary})"))
    names = [game.format_move(state, m.move) for m in solution.moves]
    width = max(map(len, names), default=0)
    for text, m in zip(names, solution.moves, strict=True):
        ctx.say(f"  {text:<{width}}  {_value_text(m.value, m.distance)}")
    return False


def _help(ctx: PlayContext, arg: str) -> bool:
    commands = all_commands(ctx)
    ctx.say("Commands:")
    for command in commands.values():
        ctx.say(f"  {command.name:<7} {command.summary}")
    ctx.say(f"  {'quit':<7} stop now (the record is saved if --save was given)")
    ctx.say("How to write a move:")
    for line in ctx.presenter.move_help(ctx.game, ctx.match.state).splitlines():
        ctx.say(f"  {line}")
    return False


BUILTINS = (
    Command("moves", "list the legal moves", _moves),
    Command("undo", "take back your last move (and the bot's reply to it)", _undo),
    Command("board", "show the board again", _board),
    Command("rules", "print the rules of this game and variant", _rules),
    Command("hint", "the value of every legal move for the player to move (needs a solver)",
            _hint),
    Command("help", "this help: commands and how to write a move", _help),
)


def all_commands(ctx: PlayContext) -> dict[str, Command]:
    """Built-in commands, then the game's own (which may not reuse a built-in name)."""
    commands = {c.name: c for c in BUILTINS}
    for command in ctx.presenter.extra_commands:
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
