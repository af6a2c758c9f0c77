"""``fourfold puzzles GAME [--variant V] [--option K=V] [--count N] [--seed S]
[--seconds S] [--budget S] [--json]``: puzzles mined from seeded self-play, each
certified by the game's solver (docs/puzzles.md). ``--starter`` lists the shipped set.

JSON: ``[{"game", "variant", "options", "position", "solution": [moves], "theme",
"themes", "rating", "goal", "win_in", "bound"}]`` (``bound``: ``null`` for a solved
game, else the moves within which the claims are proven: Ice Dao).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from fourfold.cli.common import parse_options
from fourfold.cli.numbers import integer, seconds, text


def register(sub: Any) -> None:
    p = sub.add_parser("puzzles", help="mine puzzles from self-play, certified by the solver")
    p.add_argument("game", metavar="GAME", help="dao, quarto, folio ... (a game with a solver)")
    p.add_argument("--variant", "-v", default=None, type=text("a variant name"),
                   help="variant name (default: the first)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="K=V",
                   help="a game option (repeatable)")
    p.add_argument("--count", type=integer(least=1, most=10_000), default=10, metavar="N",
                   help="puzzles wanted (10)")
    p.add_argument("--seed", type=integer(), default=0, metavar="S", help="self-play seed (0)")
    p.add_argument("--seconds", type=seconds(most=3_600), default=1.0, metavar="S",
                   help="the solver's time per position (1)")
    p.add_argument("--budget", type=seconds(most=86_400), default=60.0, metavar="S",
                   help="stop mining after this long, with what was found (60)")
    p.add_argument("--games", type=integer(least=1, most=100_000), default=200, metavar="N",
                   help="self-play games at most (200)")
    p.add_argument("--starter", action="store_true",
                   help="list the puzzles shipped in the package instead of mining")
    p.add_argument("--json", action="store_true", help="print the puzzles as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from fourfold.core.registry import load
    from fourfold.puzzles.mine import mine
    from fourfold.puzzles.puzzle import Puzzle
    from fourfold.puzzles.starter import starter

    game = load(args.game, args.variant, **parse_options(args.option))
    if args.starter:
        puzzles = [p for p in starter(game.name) if p.variant == game.info.variant][:args.count]
    else:
        def found(puzzle: Puzzle) -> None:
            if not args.json and sys.stderr.isatty():
                print(f"\rfound {len(puzzles_so_far) + 1}", end="", file=sys.stderr)
            puzzles_so_far.append(puzzle)

        puzzles_so_far: list[Puzzle] = []
        puzzles = mine(game, args.count, args.seed, seconds=args.seconds,
                       budget=args.budget, games=args.games, found=found)
        if not args.json and sys.stderr.isatty():
            print(file=sys.stderr)
        if 0 < len(puzzles) < args.count:
            print(f"found {len(puzzles)} of the {args.count} puzzles asked for within the"
                  f" budget (try a larger --budget or --games)", file=sys.stderr)
    if args.json:
        print(json.dumps([p.to_json() for p in puzzles]))
        return 0
    if not puzzles:
        print(f"No puzzle found for {game.info.label()} (try a larger --budget or --games).")
        return 0
    for i, p in enumerate(puzzles, start=1):
        within = "" if p.bound is None else (
            f" (proven within {p.bound} move{'' if p.bound == 1 else 's'})")
        print(f"{i}. {p.theme}{within}, rating {p.rating}: {p.position}")
        print(f"   solution: {' '.join(p.solution)}")
    return 0
