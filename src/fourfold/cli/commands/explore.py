"""``fourfold explore GAME [--variant V] [--option K=V] [--position P | --record F [--game N]]
[--seconds S] [--json]``: every legal move of a position of a solved game with its value
and distance, coloured like GamesmanUni (win green, draw yellow, loss red)
(docs/review.md). With ``--record`` the position is the end of the recorded game, with
its history (which repetition rules read)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from fourfold.cli.numbers import seconds
from fourfold.cli.position import add_position_arguments, chosen_position

DEFAULT_SECONDS = 60.0


def register(sub: Any) -> None:
    p = sub.add_parser("explore", help="every legal move of a solved game's position, with"
                                       " its value and distance")
    p.add_argument("game", metavar="GAME", help="dao, quarto, folio ... (a game with a solver)")
    add_position_arguments(p, "--position", "P", "explore")
    p.add_argument("--seconds", type=seconds(), default=DEFAULT_SECONDS, metavar="S",
                   help=f"give up after this long (default {DEFAULT_SECONDS:g}; the first"
                        " Dao position may build its table)")
    p.add_argument("--json", action="store_true", help="print the moves as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from fourfold.solve.explore import COLOURS, distance_text, explore

    game, state = chosen_position(args, args.game, args.position)
    found = explore(game, state, args.seconds)
    if args.json:
        print(json.dumps(found.to_json()))
        return 0
    console = Console(highlight=False)
    mover = game.player_name(game.to_move(state) or 0)
    solution = found.solution
    console.print(f"{game.info.label()}: {game.format_position(state)}")
    console.print(Text(f"{mover} to move: {distance_text(solution)}"
                       + ("" if solution.detail is None else f". {solution.detail}"),
                       style=COLOURS[solution.value]))
    if not found.exact:
        console.print("(a bounded solver: 'not proven' moves are neither proven won nor lost)")
    grid = Table(title=f"{len(solution.moves)} legal moves, best first", title_justify="left")
    grid.add_column("move")
    grid.add_column("value for the mover")
    for m in solution.moves:
        value = distance_text(m) + ("" if m.detail is None else f" ({m.detail})")
        grid.add_row(Text(game.format_move(state, m.move), style=COLOURS[m.value]),
                     Text(value, style=COLOURS[m.value]))
    console.print(grid)
    return 0
