"""``fourfold play [GAME] [--variant V] [--option K=V] [--vs human|BOT] ...``: play at the terminal.

Without GAME (and without --load) a numbered menu offers the games and then
their variants. The session is the game's own runner when its presenter has
one, otherwise the generic turn loop.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from fourfold.ai import bot_names
from fourfold.cli.common import parse_options
from fourfold.cli.play import menu
from fourfold.cli.play.loop import run_turns
from fourfold.cli.play.setup import FIRST_CHOICES, HUMAN, PlayRequest, build_session
from fourfold.cli.play.terminal import Terminal


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game at the terminal, against a bot or another person",
        description="Play at the terminal. Without GAME, choose from a menu. At the prompt "
        "type a move in the game's notation, or help, moves, undo, board, rules, quit.",
    )
    p.add_argument("game", nargs="?", metavar="GAME", help="folio, quarto, ... (omit for a menu)")
    p.add_argument("--variant", "-v", default=None, help="variant name (default: the first)")
    p.add_argument(
        "--option", "-o", action="append", default=[], metavar="K=V",
        help="a game option, e.g. line-rule=same-colour-or-size (repeatable)",
    )
    p.add_argument(
        "--vs", default="random", metavar="OPPONENT",
        help=f"{HUMAN} (two people at one terminal) or a bot: {', '.join(bot_names())}"
        " (default: random)",
    )
    p.add_argument("--seed", type=int, default=None, metavar="N",
                   help="seed for the bot (and for games with a random deal)")
    p.add_argument(
        "--first", choices=FIRST_CHOICES, default="me",
        help="me: you take the first seat (Player 1; in Folio and Quarto Player 2 opens by"
        " giving Player 1 a piece); them: the second seat (default: me)",
    )
    p.add_argument("--load", type=Path, default=None, metavar="RECORD",
                   help="replay this record file and go on from where it stopped")
    p.add_argument("--save", type=Path, default=None, metavar="RECORD",
                   help="write the game record here when the game ends or you quit")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    terminal = Terminal()
    game, variant = args.game, args.variant
    if game is None and args.load is None:
        chosen = menu.choose(terminal)
        if chosen is None:
            return 0
        game, variant = chosen
    request = PlayRequest(
        game=game or "",
        variant=variant,
        options=parse_options(args.option),
        vs=args.vs,
        seed=args.seed,
        first=args.first,
        load=args.load,
        save=args.save,
    )
    session = build_session(request, terminal)
    runner = session.presenter.session or run_turns
    return runner(session)
