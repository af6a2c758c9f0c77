"""``fourfold play [GAME] [--variant V] [--option K=V] [--vs human|BOT] ...``: play at the terminal.

Without GAME (and without --load) numbered menus offer the games, their variants, the
opponent (a person or a bot and its level) and the seat. The session runs on a
``fourfold.table.Table``: the game's own runner when it has one (the ``terminal``
part of its bundle, ``fourfold.cli.play.rules``), otherwise the generic turn loop.
"""

from __future__ import annotations

import argparse
from typing import Any

from fourfold.ai import bot_names
from fourfold.cli.common import parse_options
from fourfold.cli.numbers import integer, path, real, text
from fourfold.cli.play import menu
from fourfold.cli.play.console import Console
from fourfold.cli.play.loop import run_turns
from fourfold.cli.play.setup import FIRST_CHOICES, HUMAN, PlayRequest, build_session
from fourfold.cli.play.terminal import Terminal
from fourfold.cli.records import add_game_number_argument
from fourfold.core.errors import ConfigurationError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game at the terminal, against a bot or another person",
        description="Play at the terminal. Without GAME, choose from a menu. At the prompt "
        "type a move in the game's notation, or help, moves, undo, hint, board, rules, quit.",
    )
    p.add_argument("game", nargs="?", metavar="GAME", help="folio, quarto, ... (omit for a menu)")
    p.add_argument("--variant", "-v", default=None, type=text("a variant name"),
                   help="variant name (default: the first)")
    p.add_argument(
        "--option", "-o", action="append", default=[], metavar="K=V",
        help="a game option, e.g. line-rule=same-colour-or-size (repeatable)",
    )
    p.add_argument(
        "--vs", default=None, metavar="OPPONENT", type=text("a bot name or human"),
        help=f"{HUMAN} (two people at one terminal) or a bot: {', '.join(bot_names())}"
        " (default: random; quatrefoil in Quatrefoil; with --load, the recorded bots)",
    )
    p.add_argument("--seed", type=integer(), default=None, metavar="N",
                   help="seed for the bot (and for games with a random deal)")
    p.add_argument(
        "--first", choices=FIRST_CHOICES, default=None,
        help="me: you take the first seat (Player 1; in Folio and Quarto Player 2 opens by"
        " giving Player 1 a piece); them: the second seat (default: me)",
    )
    p.add_argument("--seat", type=integer(least=1), default=None, metavar="N",
                   help="the seat you take, 1 to the number of players (Quatrefoil: 1-4);"
                   " chosen before any screen is drawn")
    p.add_argument("--clock", default=None, metavar="MINUTES+SECONDS",
                   type=text("a clock like 5+3"),
                   help="a clock per player in two-player games, e.g. 5+3 (5 minutes, plus 3"
                   " seconds a move) or 90s+0; who runs out of time loses")
    p.add_argument("--pace", type=real(least=0, most=60, unit="seconds"), default=None,
                   metavar="SECONDS",
                   help="real-time play: the bots' mean seconds per action (default: the"
                   " game's own, as its rules say)")
    p.add_argument("--load", type=path("a file name"), default=None, metavar="RECORD",
                   help="replay this record file and go on from where it stopped")
    add_game_number_argument(p)
    p.add_argument("--save", type=path("a file name"), default=None, metavar="RECORD",
                   help="write the game record here when the game ends or you quit")
    p.set_defaults(run=run)


def _first(first: str | None, seat: int | None) -> str:
    """``--first`` (default ``me``); refused when ``--seat`` names another seat, rather
    than one of the two silently winning."""
    if first is not None and seat is not None and seat != FIRST_CHOICES.index(first) + 1:
        raise ConfigurationError(f"--first {first} is seat {FIRST_CHOICES.index(first) + 1},"
                                 f" but --seat says {seat}: give one of them")
    return first or "me"


def run(args: argparse.Namespace) -> int:
    first = _first(args.first, args.seat)
    console = Console(Terminal())
    request = PlayRequest(
        game=args.game or "",
        variant=args.variant,
        options=parse_options(args.option),
        vs=args.vs,
        seed=args.seed,
        first=first,
        seat=args.seat,
        load=args.load,
        save=args.save,
        clock=args.clock,
        pace=args.pace,
        game_number=args.game_number,
    )
    if args.game is None and args.load is None:
        try:
            chosen = menu.choose(console, request)
        except KeyboardInterrupt:
            console.terminal.say()
            return 0
        if chosen is None:
            return 0
        request = chosen
    session = build_session(request, console)
    runner = session.rules.runner or run_turns
    return runner(session)
