"""``python -m fourfold.solve.pns GAME SIDE MOVES TABLE [--setup P] [--seconds S] [--pieces K]``

Runs up to K pieces of at most S seconds each of the claim *SIDE (a seat number)
forces a win within MOVES of its moves* from the game's start (or ``--setup``), on
the table file TABLE, resuming from it; prints each piece's report. Meant for
``nohup`` in the background; every piece saves the table before the next starts.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from fourfold.cli.numbers import integer, seconds, text
from fourfold.core.errors import FourfoldError
from fourfold.core.registry import load
from fourfold.solve.pns.pieces import Piece, PieceReport, run_piece


class _Parser(argparse.ArgumentParser):
    """A bad argument is one line (and where to read more), not the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def main(argv: list[str] | None = None) -> int:
    p = _Parser(prog="python -m fourfold.solve.pns",
                                description="Proof-number search pieces of one claim, on a"
                                            " table file that each piece resumes from.")
    p.add_argument("game", type=text("a game name"))
    p.add_argument("side", type=integer(least=0), help="the attacker's seat number (0, 1)")
    p.add_argument("moves", type=integer(least=1, most=255),
                   help="the claim: the attacker forces a win within this many of its moves")
    p.add_argument("table", type=text("a file name"), help="the table file (SQLite)")
    p.add_argument("--setup", type=text("a position"), metavar="POSITION",
                   help="from this position instead of the start")
    p.add_argument("--seconds", type=seconds(), default=1200.0, metavar="S",
                   help="the most each piece runs (default 1200)")
    p.add_argument("--pieces", type=integer(least=1), default=1, metavar="K",
                   help="run up to K pieces, one after another (default 1)")
    args = p.parse_args(argv)
    try:
        game = load(args.game)
        position = args.setup or game.format_position(game.initial_state())
        piece = Piece(game.name, position, args.side, args.moves, args.table, args.seconds)
        for i in range(args.pieces):
            report = run_piece(piece)
            print(report_line(i + 1, report), flush=True)
            if report.status != "open":
                break
    except FourfoldError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


_STATUS = {"proven": "proven", "disproven": "disproven (refuted)",
           "open": "still open (run again to go on)"}


def report_line(number: int, report: PieceReport) -> str:
    """One piece's report as a line: the claim's status, this piece's and the total work."""
    return (f"piece {number}: {_STATUS.get(report.status, report.status)}; this piece"
            f" {report.nodes:,} nodes in {report.seconds:.1f} s; in all {report.total_nodes:,}"
            f" nodes in {report.total_seconds:.1f} s; {report.entries:,} table entries")


if __name__ == "__main__":
    raise SystemExit(main())
