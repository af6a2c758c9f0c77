"""``fourfold review RECORD [--game N] [--seconds S] [--iterations K] [--json]``: the
perfect-play review of a recorded game (docs/review.md).

For every ply: the mover's value before and after the move (``fourfold solve``'s
vocabulary), its label (best, good, inaccuracy, mistake, blunder) and the best moves,
then a value chart. Where the game's solver cannot answer a position within
``--seconds`` a bounded search estimates it, and the review says so on that ply. A game
with its own review (``GameSolvers.review``, e.g. a cooperative game's: what each action
cost) gives that instead; the time options do not apply to it.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from fourfold.cli.numbers import integer, path, seconds
from fourfold.cli.paths import read_text
from fourfold.cli.records import add_game_number_argument, replay


def register(sub: Any) -> None:
    from fourfold.analysis.review.assess import DEFAULT_ITERATIONS
    from fourfold.analysis.review.review import DEFAULT_SECONDS

    p = sub.add_parser("review", help="perfect-play review of a recorded game: every move's"
                                      " value, label and the best moves (a game with its own"
                                      " review: what it measures, e.g. each action's cost)")
    p.add_argument("record", metavar="RECORD", type=path("a file name"),
                   help="a game record file (as `fourfold match --records` or `play` write)")
    add_game_number_argument(p)
    p.add_argument("--seconds", type=seconds(), default=DEFAULT_SECONDS, metavar="S",
                   help=f"the solver's time per position before an estimate takes over"
                        f" (default {DEFAULT_SECONDS:g})")
    p.add_argument("--iterations", type=integer(least=1, most=10_000_000),
                   default=DEFAULT_ITERATIONS, metavar="K",
                   help=f"search iterations of an estimate (default {DEFAULT_ITERATIONS:,})")
    p.add_argument("--seed", type=integer(), default=0, metavar="S",
                   help="seed of the estimates' search (0)")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from fourfold.analysis.review.own import own_review
    from fourfold.analysis.review.review import check_reviewable, review

    match = replay(args.record, args.game_number, read_text(args.record, "the record"))
    own = own_review(match.game)
    if own is not None:  # a cooperative game's own review (no per-ply values to search)
        body = own.review(match)
        if args.json:
            print(json.dumps(body))
            return 0
        from rich.console import Console

        own.show(body, Console(highlight=False))
        return 0
    check_reviewable(match)
    progress = None
    if not args.json and sys.stderr.isatty():
        def progress(done: int, total: int) -> None:
            print(f"\rreviewing ply {done} of {total}", end="", file=sys.stderr, flush=True)
    found = review(match, seconds=args.seconds, iterations=args.iterations, seed=args.seed,
                   progress=progress)
    if progress is not None:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(found.to_json()))
        return 0
    from fourfold.analysis.review.text import show

    show(found, match)
    return 0
