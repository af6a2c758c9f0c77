"""``fourfold bots``: the bots and what each level plays (docs/bots.md has the measurements)."""

from __future__ import annotations

import argparse
from typing import Any

from fourfold.ai import bot_names
from fourfold.ai.levels import GAME_LEVELS, LEVELS, level_for
from fourfold.cli.common import bots_for
from fourfold.core.registry import get_spec, load

DESCRIPTIONS = {
    "random": "uniformly random legal moves",
    "greedy": "wins at once when it can; never hands the opponent an immediate win it can avoid",
    "alphabeta": "negamax alpha-beta, iterative deepening, transposition table (200,000 nodes)",
    "mcts": "UCT Monte Carlo tree search with greedy playouts (2,000 iterations)",
    "perfect": "exact play where a solver finishes (Dao; Quarto and Folio from mid-game),"
    " else level 5",
    "freeform": "Folio freeform: places on fitting grids, challenges exactly when it wins",
    "quatrefoil": "Quatrefoil seat: tracks the deals consistent with what it saw (also"
    " reads its team-mates' actions)",
    "optimal": "Quatrefoil team policy: a public agent prescribes one action per card pair;"
    " measured exactly over every deal against a proven bound (docs/solutions.md)",
}


def register(sub: Any) -> None:
    p = sub.add_parser("bots", help="list the bots and what levels 1-5 are")
    p.add_argument("game", nargs="?", metavar="GAME",
                   help="show the levels of this game (GAME or GAME/VARIANT)")
    p.set_defaults(run=run)


def level_key(text: str) -> str:
    """``GAME`` or ``GAME/VARIANT`` checked against the registry (unknown ones are refused
    with the valid names, as every command does), in the form ``GAME_LEVELS`` keys use."""
    name, _, variant = text.partition("/")
    spec = get_spec(name)
    if not variant:
        return spec.name
    return f"{spec.name}/{spec.variant(variant.strip().lower()).name}"


def run(args: argparse.Namespace) -> int:
    key = level_key(args.game) if args.game else None
    game = None
    if key is not None:
        name, _, variant = key.partition("/")
        game = load(name, variant or None)
    where = f"for {key}" if key else "(use with `fourfold match` and `fourfold tournament`)"
    print(f"Bots {where}:")
    playing = bot_names() if game is None else bots_for(game)
    for name in playing:
        if name.startswith("level"):
            continue
        print(f"  {name:<10} {DESCRIPTIONS.get(name, '')}".rstrip())
    print()
    games = [key] if key else [None, *GAME_LEVELS]
    for g in games:
        title = f"Levels for {g}" if g else "Levels (every two-player game unless listed below)"
        print(title + ":")
        name, _, variant = (g or "").partition("/")
        for n in LEVELS:
            spec = level_for(name, n, variant or None)
            print(f"  level{n}     {spec.describe()}")
        print()
    print("Budgets are per move and count nodes or iterations, so seeded matches replay"
          " exactly;\n--movetime caps the time as well.")
    return 0
