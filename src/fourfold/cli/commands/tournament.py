"""``fourfold tournament GAME --bots A,B,C --games N``: a round robin with fitted Elo ratings.

Ratings are relative to the first bot named (the anchor: 0 by definition, no interval);
each other bot's interval is that of its difference from the anchor.

Every game of every pair is its own seeded task of the one task runner, played in
this process, on ``--workers N`` local processes or on the Dask cluster of
``--scheduler ADDRESS``: the same result wherever it is played.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.table import Table

from fourfold.ai import bot_names
from fourfold.analysis.tournament import TournamentResult, play_tournament
from fourfold.cli.commands.match import (
    add_bot_arguments,
    limit_from,
    split_bots,
)
from fourfold.cli.common import add_game_arguments, parse_options
from fourfold.cli.numbers import integer
from fourfold.cli.tasks import add_task_arguments, executor_from
from fourfold.core.errors import ConfigurationError
from fourfold.core.registry import load
from fourfold.distributed.executors import InProcess


def register(sub: Any) -> None:
    p = sub.add_parser("tournament", help="round robin between bots; Elo ratings with intervals")
    add_game_arguments(p, setup=False)
    add_bot_arguments(p)
    p.add_argument("--bots", required=True, metavar="A,B,...",
                   help=f"two or more bot names ({', '.join(bot_names())});"
                        " ratings are relative to the first")
    p.add_argument("--games", type=integer(least=1), default=20, metavar="N",
                   help="games per pair (20)")
    p.add_argument("--json", action="store_true", help="print results and ratings as JSON")
    add_task_arguments(p, "the games", per_core=False)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = load(args.game, args.variant, **parse_options(args.option))
    bots = split_bots(args.bots, 2, None)
    if len(set(bots)) != len(bots):
        raise ConfigurationError("--bots names a bot twice")
    executor = executor_from(args, InProcess())
    result = play_tournament(game, bots, args.games, args.seed, limit_from(args),
                             args.max_plies, executor=executor, progress=not args.json)
    return _show(game, args, result)


def _show(game: Any, args: argparse.Namespace, result: TournamentResult) -> int:
    if args.json:
        print(json.dumps({"game": game.info.label(), **result.summary()}))
        return 0
    console = Console()
    games = Table(title=f"{game.info.label()}: {args.games} games per pair")
    for column in ("A", "B", "A wins", "draws", "A losses", "A score (95%)"):
        games.add_column(column)
    for m in result.matches:
        low, high = m.interval
        games.add_row(m.a, m.b, str(m.wins), str(m.draws), str(m.losses),
                      f"{m.score:.3f} ({low:.3f}-{high:.3f})")
    console.print(games)
    ratings = Table(title=f"Elo {result.ratings.scale()} (Bradley-Terry maximum likelihood)")
    for column in ("bot", "Elo", "95% interval"):
        ratings.add_column(column)
    for name, elo, low, high in result.ratings.table():
        ratings.add_row(name, f"{elo:+.0f}", f"{low:+.0f} to {high:+.0f}")
    console.print(ratings)
    return 0
