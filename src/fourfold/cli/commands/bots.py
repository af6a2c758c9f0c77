"""``fourfold bots``: the bots and what each level plays (docs/bots.md has the measurements)."""

from __future__ import annotations

import argparse
from typing import Any

from fourfold.ai import bot_names, bots_for
from fourfold.ai.game_bots import every_game_bots
from fourfold.ai.levels import LEVELS, level_for
from fourfold.core.registry import get_spec, load

#: the generic bots; a game's own bots describe themselves (``fourfold.ai.game_bots``)
DESCRIPTIONS = {
    "random": "uniformly random legal moves",
    "greedy": "wins at once when it can; never hands the opponent an immediate win it can avoid",
    "alphabeta": "negamax alpha-beta, iterative deepening, transposition table (200,000 nodes)",
    "mcts": "UCT Monte Carlo tree search with greedy playouts (2,000 iterations)",
    "perfect": "exact play where the game's exact solver finishes in time (docs/solutions.md),"
    " else level 5",
}


def describe(name: str) -> str:
    """One line on a bot: the generic ones' here, a game's own from its ``bots`` part."""
    if name in DESCRIPTIONS:
        return DESCRIPTIONS[name]
    for _, _, bots in every_game_bots():
        if name in bots.named:
            return bots.named[name].description
    return ""


def games_with_levels() -> list[str]:
    """``GAME`` or ``GAME/VARIANT`` for each ruleset whose levels differ from ``LEVELS``:
    the game's name when every variant shares its ``bots`` part, else each variant's."""
    keys: list[str] = []
    for spec, variant, bots in every_game_bots():
        if not bots.levels:
            continue
        shared = spec.extensions.bots is not None and (
            spec.extensions_for(variant).bots == spec.extensions.bots)
        key = spec.name if shared else f"{spec.name}/{variant}"
        if key not in keys:
            keys.append(key)
    return keys


def register(sub: Any) -> None:
    p = sub.add_parser("bots", help="list the bots and what levels 1-5 are")
    p.add_argument("game", nargs="?", metavar="GAME",
                   help="show the levels of this game (GAME or GAME/VARIANT)")
    p.set_defaults(run=run)


def level_key(text: str) -> str:
    """``GAME`` or ``GAME/VARIANT`` checked against the registry (unknown ones are refused
    with the valid names, as every command does), as ``GAME`` or ``GAME/VARIANT``."""
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
        print(f"  {name:<10} {describe(name)}".rstrip())
    print()
    games = [key] if key else [None, *games_with_levels()]
    for g in games:
        title = f"Levels for {g}" if g else "Levels (every two-player game unless listed below)"
        print(title + ":")
        name, _, variant = (g or "").partition("/")
        for n in LEVELS:
            spec = level_for(name, n, variant or None) if name else LEVELS[n]
            print(f"  level{n}     {spec.describe()}")
        print()
    print("Budgets are per move and count nodes or iterations, so seeded matches replay"
          " exactly;\n--movetime caps the time as well.")
    return 0
