"""``fourfold puzzle [GAME] [--file F] [--number N | --seed S] [--tries K]``: play a
puzzle in the terminal, with tries, a hint and the solution (docs/puzzles.md).

The puzzle comes from ``--file`` (the JSON of ``fourfold puzzles --json``) or from the
starter set shipped in the package, of GAME or of every game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from fourfold.cli.numbers import integer, path
from fourfold.cli.paths import read_text
from fourfold.core.errors import FourfoldError


def register(sub: Any) -> None:
    p = sub.add_parser("puzzle", help="play a puzzle in the terminal (tries, hint, solution)")
    p.add_argument("game", metavar="GAME", nargs="?", default=None,
                   help="only puzzles of this game (default: any)")
    p.add_argument("--file", type=path("a file name"), default=None, metavar="FILE",
                   help="puzzles from this file (`fourfold puzzles --json` output)"
                        " instead of the starter set")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--number", type=integer(least=1), default=None, metavar="N",
                       help="play puzzle N of the list (from 1)")
    which.add_argument("--seed", type=integer(), default=None, metavar="S",
                       help="pick the puzzle with this seed (default: at random)")
    p.add_argument("--tries", type=integer(least=1, most=100), default=3, metavar="K",
                   help="wrong moves allowed (3)")
    p.set_defaults(run=run)


def _from_file(args: argparse.Namespace) -> list[Any]:
    from fourfold.puzzles.puzzle import Puzzle

    try:
        data = json.loads(read_text(args.file, "the puzzle file"))
    except json.JSONDecodeError as error:
        raise FourfoldError(f"{args.file}: not JSON ({error.msg}, line {error.lineno})"
                            ) from None
    if not isinstance(data, list):
        raise FourfoldError(f"{args.file}: a puzzle file holds a JSON list of puzzles")
    return [Puzzle.from_json(item, f"{args.file}, puzzle {i + 1}")
            for i, item in enumerate(data)]


def run(args: argparse.Namespace) -> int:
    from fourfold.cli.play.terminal import replace_undecodable
    from fourfold.core.registry import get_spec
    from fourfold.puzzles.session import play
    from fourfold.puzzles.starter import starter

    name = None if args.game is None else get_spec(args.game).name
    puzzles = _from_file(args) if args.file is not None else starter(name)
    if name is not None:
        puzzles = [p for p in puzzles if p.game == name]
    where = str(args.file) if args.file is not None else "the starter set"
    if not puzzles:
        raise FourfoldError(f"{where} has no puzzle{'' if name is None else ' of ' + name}")
    if args.number is not None:
        if args.number > len(puzzles):
            raise FourfoldError(f"--number {args.number}: {where} has {len(puzzles)}"
                                f" puzzle{'s' if len(puzzles) > 1 else ''}"
                                f"{'' if name is None else ' of ' + name}")
        puzzle = puzzles[args.number - 1]
    else:
        puzzle = random.Random(args.seed).choice(puzzles)

    def write(text: str) -> None:
        print(text, flush=True)

    replace_undecodable(sys.stdin)  # a byte that is not text: a move refused, no traceback
    solved = play(puzzle, input, write, colour=sys.stdout.isatty(), tries=args.tries)
    return 0 if solved else 1
