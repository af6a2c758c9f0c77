"""``fourfold match GAME --bots A,B --games N --seed S``: two bots, sides alternating.

Prints A's wins, draws and losses with the 95% interval of A's score; with
``--json`` prints ``{"wins": .., "draws": .., "losses": .., ...}`` from A's side.
``--records FILE`` writes every game's record (one after another).
Each game is a seeded task of the one task runner: ``--workers N`` plays them on N
local processes, ``--scheduler ADDRESS`` on a Dask cluster, and without either they
are played in this process, all with the same result (docs/distributed.md).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from fourfold.ai import Limit, bot_names
from fourfold.analysis.match import DEFAULT_MAX_PLIES, play_match
from fourfold.analysis.stats import elo_difference
from fourfold.cli.common import add_game_arguments, parse_options
from fourfold.cli.numbers import integer, path, seconds
from fourfold.cli.paths import check_writable, write_text
from fourfold.cli.tasks import add_task_arguments, executor_from
from fourfold.core.errors import ConfigurationError
from fourfold.core.record import format_record
from fourfold.core.registry import load
from fourfold.distributed.executors import InProcess


def register(sub: Any) -> None:
    p = sub.add_parser("match", help="play two bots against each other, sides alternating")
    add_game_arguments(p, setup=False)
    add_bot_arguments(p)
    p.add_argument("--bots", required=True, metavar="A,B",
                   help=f"two bot names ({', '.join(bot_names())})")
    p.add_argument("--games", type=integer(least=1), default=20, metavar="N",
                   help="games to play (20)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--records", type=path("a file name"), metavar="FILE",
                   help="write the game records to FILE")
    add_task_arguments(p, "the games", per_core=False)
    p.set_defaults(run=run)


def add_bot_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=integer(), default=0, metavar="S", help="match seed (0)")
    p.add_argument("--movetime", type=seconds(), default=None, metavar="SEC",
                   help="cap every bot's thinking per move, in seconds")
    p.add_argument("--max-plies", type=integer(least=1), default=DEFAULT_MAX_PLIES, metavar="N",
                   help=f"count a game still going after N plies as a draw ({DEFAULT_MAX_PLIES})")


def limit_from(args: argparse.Namespace) -> Limit | None:
    if args.movetime is None:
        return None
    return Limit(seconds=args.movetime)


def split_bots(text: str, least: int, most: int | None) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if len(names) < least or (most is not None and len(names) > most):
        want = f"exactly {least}" if most == least else f"at least {least}"
        raise ConfigurationError(f"--bots needs {want} names separated by commas, got {text!r}")
    for n in names:
        if n not in bot_names():
            raise ConfigurationError(f"unknown bot {n!r}; valid bots: {', '.join(bot_names())}")
    return names


def check_records_path(path: Path) -> None:
    """Refuse before the first game a records file that could never be written."""
    check_writable(path, "the records")


def write_records(path: Path, records: str) -> None:
    write_text(path, records, "the records")


def run(args: argparse.Namespace) -> int:
    game = load(args.game, args.variant, **parse_options(args.option))
    a, b = split_bots(args.bots, 2, 2)
    limit = limit_from(args)
    if args.records is not None:
        check_records_path(args.records)
    executor = executor_from(args, InProcess())
    result = play_match(game, a, b, args.games, args.seed, limit, args.max_plies,
                        executor=executor, progress=not args.json)
    if args.records is not None:
        write_records(args.records, "\n".join(format_record(g.record) for g in result.games))
    summary = result.summary()
    if args.json:
        summary["game"] = game.info.label()
        print(json.dumps(summary))
        return 0
    low, high = result.interval
    games = "1 game" if result.played == 1 else f"{result.played} games"
    print(f"{game.info.label()}: {a} vs {b}, {games}, sides alternating")
    print(f"{a}: {result.wins} wins, {result.draws} draws, {result.losses} losses")
    print(f"score {result.score:.3f} (95% interval {low:.3f} to {high:.3f});"
          f" Elo difference {elo_difference(result.score):+.0f}"
          f" ({elo_difference(low):+.0f} to {elo_difference(high):+.0f})")
    return 0
