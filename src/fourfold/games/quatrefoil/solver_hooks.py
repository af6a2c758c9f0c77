"""Quatrefoil's ``solver`` part: ``fourfold solve quatrefoil``, its own sub-command.

``--start ARR --solution ARR``: the shortest action sequence from one arrangement to
the solution (``fourfold.games.quatrefoil.solver``); ``--public``: the least expected
number of actions when the team acts on public information only
(``fourfold.games.quatrefoil.solver_public``). The solvers are imported when run.
``review`` names the game's own review (``fourfold review``, the server's reviews):
what each action cost, on public information and with the deal known (``review.py``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from fourfold.core.errors import ConfigurationError, NotationError
from fourfold.solve.position import GameSolvers, SolverCommand


def _quatrefoil_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--start", default=None, metavar="ARR",
                   help="the arrangement now, NW NE SW SE / free token, e.g. RGBY/P")
    p.add_argument("--solution", default=None, metavar="ARR",
                   help="the correct arrangement, written the same way, e.g. YBRG/P")
    p.add_argument("--public", action="store_true",
                   help="instead: the least expected number of actions when every action"
                        " is chosen on public information only (no --start/--solution)")
    p.add_argument("--face-up", default="none", choices=("none", "colour", "position", "all"),
                   help="with --public: the cards face up (default none: the base game)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")


def _quatrefoil_public_run(args: argparse.Namespace) -> int:
    from fourfold.games.quatrefoil.solver_public import public_optimum

    r = public_optimum(args.face_up)
    if args.json:
        print(json.dumps({"game": "quatrefoil", "public": True, "face_up": r.face_up,
                          "value": str(r.value), "decimal": float(r.value),
                          "cases": r.cases, "seconds": round(r.seconds, 3)}))
        return 0
    print(f"optimum on public information (face up: {r.face_up}): {r.value} ="
          f" {float(r.value):.4f} actions on average, over {r.cases:,} equally likely"
          f" cases ({r.seconds:.1f} s)")
    return 0


def _read_arrangement(text: str, what: str) -> Any:
    from fourfold.games.quatrefoil.arrangement import arrangement_error, parse_arrangement_text

    error = arrangement_error(text)
    if error is not None:
        raise NotationError(f"{what} arrangement", text, error[0], error[1])
    return parse_arrangement_text(text)


def _quatrefoil_run(args: argparse.Namespace) -> int:
    from fourfold.games.quatrefoil.arrangement import format_arrangement
    from fourfold.games.quatrefoil.solver import action_names, solve

    if args.public:
        if args.start is not None or args.solution is not None:
            raise ConfigurationError("--public averages over every deal; drop --start and"
                                     " --solution")
        return _quatrefoil_public_run(args)
    if args.start is None or args.solution is None:
        raise ConfigurationError("quatrefoil needs --start and --solution (or --public)")
    start = _read_arrangement(args.start, "start")
    solution = _read_arrangement(args.solution, "solution")
    actions = action_names(solve(start, solution))
    if args.json:
        print(json.dumps({
            "game": "quatrefoil",
            "start": format_arrangement(start),
            "solution": format_arrangement(solution),
            "length": len(actions),
            "actions": actions,
        }))
        return 0
    moves = len(actions) - 1
    count = f"{len(actions)} action{'s' if len(actions) != 1 else ''}"
    print(f"{format_arrangement(start)} -> {format_arrangement(solution)}: "
          f"{count} ({moves} move{'s' if moves != 1 else ''}, then stack)")
    print(" ".join(actions))
    return 0


SOLVERS = GameSolvers(
    command=SolverCommand(
        "shortest action sequence from an arrangement to a solution",
        _quatrefoil_arguments,
        _quatrefoil_run,
    ),
    review="fourfold.games.quatrefoil.review:REVIEW",
)
