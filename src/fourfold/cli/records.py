"""Record files named on the command line (``render --record``, ``solve --record``,
``play --load``), one game of them chosen with ``--game N``.

``fourfold match --records`` writes every game of a match into one file, so a record
file may hold several games. Without ``--game`` a file of one game is read as it is,
and a file of several is refused in one line that says how many it holds and which
numbers are valid.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from fourfold.cli.numbers import integer
from fourfold.core.errors import FourfoldError, RecordError
from fourfold.core.record import Record, parse_records


def add_game_number_argument(p: Any) -> None:
    p.add_argument("--game", dest="game_number", type=integer(least=1), default=None,
                   metavar="N", help="which game of a record file holding several"
                                     " (as `fourfold match --records` writes them), from 1")


def _games(n: int) -> str:
    return "1 game" if n == 1 else f"{n} games"


def choose(records: list[Record], number: int | None, path: Path) -> Record:
    """Game ``number`` (1-based) of the file's records, or its only one."""
    n = len(records)
    if number is None:
        if n > 1:
            raise FourfoldError(f"{path} holds {n} games: choose one with --game N"
                                f" (1 to {n})")
        return records[0]
    if not 1 <= number <= n:
        valid = "--game 1" if n == 1 else f"1 to {n}"
        raise FourfoldError(f"--game {number}: {path} holds {_games(n)} ({valid})")
    return records[number - 1]


def read_record(path: Path, number: int | None, text: str) -> Record:
    """The chosen record of a file whose ``text`` has been read; a fault names the file."""
    try:
        records = parse_records(text)
    except RecordError as error:
        raise FourfoldError(f"{path}: {error}") from None
    return choose(records, number, path)


def replay(path: Path, number: int | None, text: str) -> Any:
    """The ``Match`` of the chosen record, replayed (a bad ply names the file)."""
    from fourfold.core.match import Match

    record = read_record(path, number, text)
    try:
        return Match.from_record(record)
    except RecordError as error:
        raise FourfoldError(f"{path}: {error}") from None


def check_no_game_number(args: argparse.Namespace, flag: str) -> None:
    """``--game`` picks a game of a record file, so it goes with ``flag`` only."""
    if getattr(args, "game_number", None) is not None:
        raise FourfoldError(f"--game N picks a game of a record file: it goes with {flag}")
