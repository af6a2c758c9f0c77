"""``fourfold solve GAME ...``: solve a position of a game that has a solver.

Games with special arguments are sub-commands listed in ``SOLVERS`` (game name ->
how to add its arguments, and how to run it): Quatrefoil's shortest solution,
or with ``--public`` its optimum when the team acts on public information only.
Every other game is a sub-command with the same arguments,

    fourfold solve GAME [--variant V] [--option K=V] [--setup POS | --record FILE [--game N]]
                        [--seconds S] [--json]

answered by the game's two-player position solver (``fourfold.solve.position``,
``solver_for``): the value for the side to move, the plies to the end, and every
legal move with its value and distance, best first. A game without a solver, or
a solve that does not finish within ``--seconds``, is a clear one-line error.

Quarto and Folio also take ``--split``: the solve is cut into independent subtree
tasks (each move, at the start each opening give; with ``--replies`` each reply to
it) run by the one task runner (``--workers`` local processes, else the Dask cluster of
``--scheduler``),
journaled to ``--journal FILE`` so that the same command run again resumes
(``fourfold.distributed.split``, docs/distributed.md).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fourfold.cli.common import parse_options
from fourfold.cli.numbers import integer, path, seconds, text
from fourfold.cli.paths import check_folder, check_writable, read_text
from fourfold.cli.records import add_game_number_argument, check_no_game_number, replay
from fourfold.cli.tasks import add_task_arguments
from fourfold.core.errors import ConfigurationError, FourfoldError, NotationError


@dataclass(frozen=True)
class SolverCommand:
    """How ``fourfold solve GAME`` reads its arguments and prints its answer."""

    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# -- Quatrefoil ---------------------------------------------------------------------------

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
    from fourfold.solve.quatrefoil_public import public_optimum

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
    from fourfold.solve.quatrefoil import action_names, solve

    if args.public:
        if args.start is not None or args.solution is not None:
            raise ConfigurationError("--public averages over every deal; drop --start and"
                                     " --solution")
        return _quatrefoil_public_run(args)
    if args.start is None or args.solution is None:
        raise ConfigurationError("fourfold solve quatrefoil needs --start and --solution"
                                 " (or --public)")
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
    print(f"{format_arrangement(start)} -> {format_arrangement(solution)}: "
          f"{len(actions)} actions ({moves} move{'s' if moves != 1 else ''}, then stack)")
    print(" ".join(actions))
    return 0


SOLVERS: dict[str, SolverCommand] = {
    "quatrefoil": SolverCommand(
        "shortest action sequence from an arrangement to a solution",
        _quatrefoil_arguments,
        _quatrefoil_run,
    ),
}


# -- two-player games: the position solvers of fourfold.solve.position ---------------------

DEFAULT_SECONDS = 60.0


def _position_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", "-v", default=None, type=text("a variant name"),
                   help="variant name (default: the first)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="K=V",
                   help="a game option (repeatable)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--setup", default=None, metavar="POSITION",
                       type=text("a position string"),
                       help="solve this position string (default: the start)")
    where.add_argument("--record", type=path("a file name"), default=None, metavar="FILE",
                       help="solve the position at the end of this game record")
    add_game_number_argument(p)
    p.add_argument("--seconds", type=seconds(), default=None, metavar="S",
                   help=f"give up after this long (default {DEFAULT_SECONDS:g}; with --split:"
                        " the limit of each task, default none)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    _split_arguments(p)


def _split_arguments(p: argparse.ArgumentParser) -> None:
    from fourfold.distributed.split import BEAT_CHOICES

    s = p.add_argument_group("split solves (Quarto, Folio; docs/distributed.md)")
    s.add_argument("--split", action="store_true",
                   help="solve each move (at the start: each opening give) as its own task"
                        " on a Dask cluster; win/draw/loss only")
    s.add_argument("--replies", action="store_true",
                   help="with --split: solve each reply to a move as its own task")
    s.add_argument("--move", action="append", default=None, metavar="MOVE", type=text("a move"),
                   help="with --split: solve only this move, e.g. the give Rs (repeatable)")
    s.add_argument("--beat", default=None, choices=BEAT_CHOICES,
                   help="with --split: only test whether each move beats -1 or 0 for the side"
                        " to move (one null-window search); auto: first one value, then"
                        " test the others against the best so far")
    s.add_argument("--journal", type=path("a file name"), default=None, metavar="FILE",
                   help="with --split: keep finished tasks in FILE (JSON lines); the same"
                        " command run again resumes from them")
    s.add_argument("--stop-after", type=seconds(), default=None, metavar="S",
                   help="with --split: stop every task S seconds from now (run again to go on)")
    s.add_argument("--table-dir", type=path("a folder name"), default=None, metavar="DIR",
                   help="with --split: a task stopped by its limit saves its table in DIR and"
                        " loads it when run again")
    s.add_argument("--table-bits", type=integer(least=4, most=32), default=22, metavar="B",
                   help="with --split: 2**B table entries of 24 bytes per task (22: 100 MB)")
    add_task_arguments(s, "the tasks", per_core=True)


def _position(args: argparse.Namespace) -> tuple[Any, Any]:
    """The configured game and the state to solve (with its history, from a record)."""
    from fourfold.core.registry import get_spec, load

    name = get_spec(args.solve_game).name
    if args.record is None:
        check_no_game_number(args, "--record")
        game = load(name, args.variant, **parse_options(args.option))
        return game, game.parse_position(args.setup) if args.setup else game.initial_state()
    if args.variant is not None or args.option:
        raise ConfigurationError("--record gives the variant and options; drop --variant and"
                                 " --option")
    match = replay(args.record, args.game_number, read_text(args.record, "the record"))
    if match.game.name != name:
        raise ConfigurationError(f"{args.record} is a game of {match.game.name}, not {name}")
    return match.game, match.state


def _distance_text(value: Any, distance: int | None) -> str:
    from fourfold.solve.position import Value

    if value is Value.UNKNOWN:
        return "not proven"
    if distance is None or value is Value.DRAW:
        return str(value.value)
    return f"{value.value} in {distance} pl{'y' if distance == 1 else 'ies'}"


def _position_run(args: argparse.Namespace) -> int:
    from fourfold.solve.position import SOLVERS, solver_for

    game, state = _position(args)
    if args.split:
        return _split_run(args, game, state)
    split_only = [name for name, given in (
        ("--replies", args.replies), ("--move", args.move), ("--beat", args.beat),
        ("--journal", args.journal), ("--stop-after", args.stop_after),
        ("--table-dir", args.table_dir), ("--scheduler", args.scheduler),
        ("--workers", args.workers)) if given]
    if split_only:
        raise ConfigurationError(f"{split_only[0]} goes with --split")
    if args.seconds is None:
        args.seconds = DEFAULT_SECONDS
    entry = solver_for(game)
    if entry is None:
        have = ", ".join(sorted(SOLVERS)) or "none"
        raise ConfigurationError(f"no position solver for {game.info.label()}"
                                 f" (games with one: {have})")
    solution = entry.solve(game, state, args.seconds)
    if solution is None:
        unit = "second" if args.seconds == 1 else "seconds"
        raise FourfoldError(f"{game.info.label()}: no answer within {args.seconds:g} {unit}."
                            f" Solver: {entry.summary}")
    position = game.format_position(state)
    mover = state_mover(game, state)
    if args.json:
        print(json.dumps({
            "game": game.name,
            "variant": game.info.variant,
            "options": game.info.option_strings(),
            "position": position,
            "to_move": mover,
            "value": solution.value.value,
            "distance": solution.distance,
            "exact": entry.exact,
            "solver": entry.summary,
            "moves": [{"move": game.format_move(state, m.move), "value": m.value.value,
                       "distance": m.distance} for m in solution.moves],
            "nodes": solution.nodes,
            "seconds": round(solution.seconds, 3),
        }))
        return 0
    print(f"{game.info.label()}: {position}")
    outcome = game.outcome(state)
    if outcome is not None:
        names = tuple(game.player_name(p) for p in range(game.num_players))
        print(f"The game is over. {outcome.describe(names)}")
        return 0
    print(f"{mover} to move: {_distance_text(solution.value, solution.distance)}")
    if not entry.exact:
        print(f"(bounded solver: {entry.summary})")
    width = max((len(game.format_move(state, m.move)) for m in solution.moves), default=0)
    print(f"{len(solution.moves)} legal moves, best first:")
    for m in solution.moves:
        text = game.format_move(state, m.move)
        print(f"  {text:<{width}}  {_distance_text(m.value, m.distance)}")
    return 0


def _split_run(args: argparse.Namespace, game: Any, state: Any) -> int:
    from fourfold.distributed.split import (
        SplitOptions,
        open_journal,
        plan_split,
        run_split,
        split_json,
        split_lines,
        task_line,
    )
    from fourfold.games.placement.game import PlacementGame

    if not isinstance(game, PlacementGame):
        raise ConfigurationError(f"--split solves Quarto and Folio positions, not {game.name}")
    if args.journal is not None:
        check_writable(args.journal, "the journal")
        if args.journal.exists():
            read_text(args.journal, "the journal")
    if args.table_dir is not None:
        check_folder(args.table_dir, "the table folder", create=True)
    journal = open_journal(args.journal, game, state)
    plan = plan_split(game, state, args.replies, journal)
    options = SplitOptions(
        replies=args.replies,
        only=None if args.move is None else tuple(args.move),
        beat=args.beat,
        table_bits=args.table_bits,
        limit=args.seconds,
        stop_after=args.stop_after,
        table_dir=None if args.table_dir is None else str(args.table_dir),
        scheduler=args.scheduler,
        workers=args.workers,
        progress=not args.json,
    )
    if not args.json:
        done = sum(1 for m in plan.classes() if m.settled())
        print(f"{game.info.label()}: {plan.position}")
        print(f"{len(plan.moves)} moves, {len(plan.classes())} up to symmetry"
              f" ({done} settled already)", flush=True)
    run_split(plan, options, None if args.json
              else lambda key, result: print(task_line(key, result), flush=True))
    if args.json:
        print(json.dumps(split_json(plan)))
    else:
        print("\n".join(split_lines(plan)))
    return 1 if plan.stopped else 0


def state_mover(game: Any, state: Any) -> str:
    """The name of the side to move (``to_move`` is None once the game is over)."""
    player = game.to_move(state)
    if player is None:
        player = getattr(state, "to_play", 0)
    return str(game.player_name(player))


def register(sub: Any) -> None:
    from fourfold.core.registry import game_names, get_spec

    p = sub.add_parser("solve", help="solve a position: the value of every move (two-player"
                       " games with a solver) or Quatrefoil's shortest solution")
    games = p.add_subparsers(dest="solve_game", metavar="GAME", required=True)
    for name, solver in SOLVERS.items():
        g = games.add_parser(name, help=solver.help)
        solver.add_arguments(g)
        g.set_defaults(run=solver.run)
    for name in game_names():
        spec = get_spec(name)
        if name in SOLVERS or spec.num_players != 2:
            continue
        g = games.add_parser(name, aliases=list(spec.aliases),
                             help=f"{spec.title}: the value of a position and of every move")
        _position_arguments(g)
        g.set_defaults(run=_position_run)
