"""``fourfold perft GAME [--variant V] [--option K=V ...] N`` (RULES.md §4)."""

from __future__ import annotations

import argparse
from typing import Any

from fourfold.cli.common import add_game_arguments, game_from_args
from fourfold.cli.numbers import integer
from fourfold.core.perft import perft


def register(sub: Any) -> None:
    p = sub.add_parser("perft", help="count legal ply sequences of each depth from the start")
    add_game_arguments(p)
    p.add_argument("depth", type=integer(least=1), metavar="N",
                   help="deepest depth to count (>= 1)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game, start = game_from_args(args)
    for depth in range(1, args.depth + 1):
        print(f"{depth} {perft(game, start, depth)}", flush=True)
    return 0
