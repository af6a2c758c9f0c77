"""``fourfold bots``: the bots and what each level plays (docs/bots.md has the measurements)."""

from __future__ import annotations

import argparse
from typing import Any

from fourfold.ai import bot_names
from fourfold.ai.levels import GAME_LEVELS, LEVELS, level_for

DESCRIPTIONS = {
    "random": "uniformly random legal moves",
    "greedy": "wins at once when it can; never hands the opponent an immediate win it can avoid",
    "alphabeta": "negamax alpha-beta, iterative deepening, transposition table (200,000 nodes)",
    "mcts": "UCT Monte Carlo tree search with greedy playouts (2,000 iterations)",
    "perfect": "exact play where a solver finishes (Dao; Quarto and Folio from mid-game),"
    " else level 5",
    "freeform": "Folio freeform: places on fitting grids, challenges exactly when it wins",
    "quatrefoil": "Quatrefoil seat: tracks the deals consistent with what it saw",
}


def register(sub: Any) -> None:
    p = sub.add_parser("bots", help="list the bots and what levels 1-5 are")
    p.add_argument("game", nargs="?", metavar="GAME", help="show the levels of this game")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    print("Bots (use with `fourfold match` and `fourfold tournament`):")
    for name in bot_names():
        if name in DESCRIPTIONS:
            print(f"  {name:<10} {DESCRIPTIONS[name]}")
        elif not name.startswith("level"):
            print(f"  {name}")
    print()
    games = [args.game] if args.game else [None, *GAME_LEVELS]
    for g in games:
        title = f"Levels for {g}" if g else "Levels (every two-player game unless listed below)"
        print(title + ":")
        for n in LEVELS:
            spec = level_for(g or "", n)
            print(f"  level{n}     {spec.describe()}")
        print()
    print("Budgets are per move and count nodes or iterations, so seeded matches replay"
          " exactly;\n--movetime caps the time as well.")
    return 0
