"""``fourfold render GAME [--variant V] [--option K=V] [--setup POS | --record F] [--seat N]
[--game N] [-o FILE.svg]``: write one SVG picture of a position.

Without ``--setup`` or ``--record`` the picture is the start. With ``--record`` it is
the end of the recorded game, with its last move marked (and a declared ending,
such as a resignation, shown); ``--game N`` picks one game of a file holding several.
``--seat N`` (1-based) draws what that seat sees; without it a hidden-information game
is drawn as a spectator sees it. The picture goes to standard output unless ``-o``
names a file.
"""

from __future__ import annotations

import argparse
from typing import Any

from fourfold.cli.common import parse_options
from fourfold.cli.numbers import integer, path, text
from fourfold.cli.paths import check_writable, read_text, write_text
from fourfold.cli.records import add_game_number_argument, check_no_game_number, replay
from fourfold.core.errors import ConfigurationError


def register(sub: Any) -> None:
    p = sub.add_parser("render", help="write an SVG picture of a position")
    p.add_argument("game", metavar="GAME", help="folio, quarto, ... (see `fourfold rules`)")
    p.add_argument("--variant", "-v", default=None, type=text("a variant name"),
                   help="variant name (default: the first)")
    p.add_argument("--option", action="append", default=[], metavar="K=V",
                   help="a game option, e.g. line-rule=same-colour-or-size (repeatable)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--setup", default=None, metavar="POSITION",
                       type=text("a position string"),
                       help="draw this position string (default: the start)")
    where.add_argument("--record", type=path("a file name"), default=None, metavar="FILE",
                       help="draw the end of this game record, its last move marked")
    add_game_number_argument(p)
    p.add_argument("--seat", type=integer(least=1), default=None, metavar="N",
                   help="draw what seat N (1-based) sees (default: a spectator's view)")
    p.add_argument("--size", type=integer(least=16, most=10_000), default=None, metavar="PX",
                   help="rendered width in pixels (default: the natural size)")
    p.add_argument("-o", "--output", type=path("a file name"), default=None, metavar="FILE.svg",
                   help="write the picture here instead of to standard output")
    p.set_defaults(run=run)


def _picture(args: argparse.Namespace) -> str:
    from fourfold.core.registry import get_spec, load
    from fourfold.render.svg import draw_svg

    name = get_spec(args.game).name
    last = None
    declared = None
    if args.record is None:
        check_no_game_number(args, "--record")
        game = load(name, args.variant, **parse_options(args.option))
        state = game.parse_position(args.setup) if args.setup else game.initial_state()
    else:
        if args.variant is not None or args.option:
            raise ConfigurationError("--record gives the variant and options; drop --variant"
                                     " and --option")
        match = replay(args.record, args.game_number, read_text(args.record, "the record"))
        game = match.game
        if game.name != name:
            raise ConfigurationError(f"{args.record} is a game of {game.name}, not {name}")
        state = match.state
        last = match.moves[-1] if match.moves else None
        declared = match.declared
    seat = None
    if args.seat is not None:
        if not 1 <= args.seat <= game.num_players:
            raise ConfigurationError(f"--seat must be 1 to {game.num_players} for {name}")
        seat = args.seat - 1
    view = game.revealed_view(state, seat) if declared else game.view(state, seat)
    return str(draw_svg(game, view, last_move=last, outcome=declared, size=args.size))


def run(args: argparse.Namespace) -> int:
    if args.output is not None:
        check_writable(args.output, "the picture")
    svg = _picture(args)
    if args.output is None:
        print(svg)
        return 0
    write_text(args.output, svg + "\n", "the picture")
    return 0
