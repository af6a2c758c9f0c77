"""``python -m fourfold.solve.pns GAME SIDE MOVES TABLE [--setup P] [--seconds S] [--pieces K]``

Runs up to K pieces of at most S seconds each of the claim *SIDE (a seat number)
forces a win within MOVES of its moves* from the game's start (or ``--setup``), on
the table file TABLE, resuming from it; prints each piece's report. Meant for
``nohup`` in the background; every piece saves the table before the next starts.
"""

from __future__ import annotations

import argparse
import sys

from fourfold.core.errors import FourfoldError
from fourfold.core.registry import load
from fourfold.solve.pns.pieces import Piece, run_piece


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m fourfold.solve.pns")
    p.add_argument("game")
    p.add_argument("side", type=int)
    p.add_argument("moves", type=int)
    p.add_argument("table")
    p.add_argument("--setup")
    p.add_argument("--seconds", type=float, default=1200.0)
    p.add_argument("--pieces", type=int, default=1)
    args = p.parse_args(argv)
    try:
        game = load(args.game)
        position = args.setup or game.format_position(game.initial_state())
        piece = Piece(game.name, position, args.side, args.moves, args.table, args.seconds)
        for _ in range(args.pieces):
            report = run_piece(piece)
            print(report, flush=True)
            if report.status != "open":
                break
    except FourfoldError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
