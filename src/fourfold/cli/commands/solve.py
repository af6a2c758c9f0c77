"""``fourfold solve GAME ...``: solve a position of a game that has a solver.

Each game's solvers come from its extension bundle (the part ``solver``, a
``fourfold.solve.position.GameSolvers``). A game with a command of its own
(``GameSolvers.command``) gets it as its sub-command, with its own arguments.
Every other two-player game is a sub-command with the same arguments,

    fourfold solve GAME [--variant V] [--option K=V] [--setup POS | --record FILE [--game N]]
                        [--seconds S] [--json]

answered by the game's two-player position solver (``fourfold.solve.position``,
``solver_for``): the value for the side to move, the plies to the end, and every
legal move with its value and distance, best first. A game without a solver, or
a solve that does not finish within ``--seconds``, is a clear one-line error.

Games whose solvers say so (``GameSolvers.split``: Quarto and Folio) also take
``--split``: the solve is cut into independent subtree tasks (each move, at the start
each opening give; with ``--replies`` each reply to it) run by the one task runner
(``--workers`` local processes, else the Dask cluster of ``--scheduler``), journaled
to ``--journal FILE`` so that the same command run again resumes
(the module a game's ``GameSolvers.split`` names, docs/distributed.md).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from fourfold.cli.numbers import integer, path, seconds, text
from fourfold.cli.paths import check_folder, check_writable, read_text
from fourfold.cli.position import add_position_arguments, chosen_position
from fourfold.cli.tasks import add_task_arguments
from fourfold.core.errors import ConfigurationError, FourfoldError

# -- two-player games: the position solvers of fourfold.solve.position ---------------------

DEFAULT_SECONDS = 60.0


def _position_arguments(p: argparse.ArgumentParser) -> None:
    add_position_arguments(p, "--setup", "POSITION", "solve")
    p.add_argument("--seconds", type=seconds(), default=None, metavar="S",
                   help=f"give up after this long (default {DEFAULT_SECONDS:g}; with --split:"
                        " the limit of each task, default none). Without it, a bounded solver"
                        " answers at once from the game's stored proof certificates when they"
                        " cover the position")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    _split_arguments(p)


def _split_arguments(p: argparse.ArgumentParser) -> None:
    from fourfold.solve.position import BEAT_CHOICES

    s = p.add_argument_group("split solves (games whose solver splits; docs/distributed.md)")
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


def _distance_text(value: Any, distance: int | None) -> str:
    from fourfold.solve.position import Value

    if value is Value.UNKNOWN:
        return "not proven"
    if distance is None or value is Value.DRAW:
        return str(value.value)
    return f"{value.value} in {distance} pl{'y' if distance == 1 else 'ies'}"


def _position_run(args: argparse.Namespace) -> int:
    from fourfold.solve.position import solver_for

    game, state = chosen_position(args, args.solve_game, args.setup)
    if args.split:
        return _split_run(args, game, state)
    split_only = [name for name, given in (
        ("--replies", args.replies), ("--move", args.move), ("--beat", args.beat),
        ("--journal", args.journal), ("--stop-after", args.stop_after),
        ("--table-dir", args.table_dir), ("--scheduler", args.scheduler),
        ("--workers", args.workers)) if given]
    if split_only:
        raise ConfigurationError(f"{split_only[0]} goes with --split")
    entry = solver_for(game)
    if entry is None:
        have = ", ".join(sorted(games_with_position_solvers())) or "none"
        raise ConfigurationError(f"no position solver for {game.info.label()}"
                                 f" (games with one: {have})")
    solution = None
    if args.seconds is None and not entry.exact:
        if _stored_bound_run(args, game, state):
            return 0
        # a bounded solver with no limit: its stored answers, refined by a short search
        # (Ice Dao's: to 3 moves); if that proves nothing, the search with the default limit
        solution = entry.solve(game, state, None)
    if args.seconds is None:
        args.seconds = DEFAULT_SECONDS
    if solution is None:
        solution = entry.solve(game, state, args.seconds)
    if solution is None:
        if not entry.exact and _stored_bound_run(args, game, state):
            return 0
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
            "moves": [_move_json(game, state, m) for m in solution.moves],
            "nodes": solution.nodes,
            "seconds": round(solution.seconds, 3),
            **_bounded_json(game, state, solution),
        }))
        return 0
    print(f"{game.info.label()}: {position}")
    outcome = game.outcome(state)
    if outcome is not None:
        names = tuple(game.player_name(p) for p in range(game.num_players))
        print(f"The game is over. {outcome.describe(names)}")
        return 0
    print(f"{mover} to move: {_distance_text(solution.value, solution.distance)}"
          + ("" if solution.detail is None else f". {solution.detail}"))
    if not entry.exact:
        print(f"(bounded solver: {entry.summary}"
              + ("" if solution.source is None else f"; this answer: {solution.source}") + ")")
    width = max((len(game.format_move(state, m.move)) for m in solution.moves), default=0)
    print(f"{len(solution.moves)} legal moves, best first:")
    for m in solution.moves:
        text = game.format_move(state, m.move)
        value = _distance_text(m.value, m.distance)
        print(f"  {text:<{width}}  {value}" + ("" if m.detail is None else f" ({m.detail})"))
    return 0


def _move_json(game: Any, state: Any, m: Any) -> dict[str, Any]:
    out = {"move": game.format_move(state, m.move), "value": m.value.value,
           "distance": m.distance}
    return out if m.detail is None else {**out, "detail": m.detail}


def _bounded_json(game: Any, state: Any, solution: Any) -> dict[str, Any]:
    """A bounded solver's extra keys: where the answer comes from, what it proves beyond
    the value, the winner, within how many plies, and the first move of the best line."""
    from fourfold.solve.position import Value

    if solution.source is None and solution.detail is None:
        return {}
    out: dict[str, Any] = {"source": solution.source, "detail": solution.detail}
    if solution.value in (Value.WIN, Value.LOSS):
        mover = game.to_move(state)
        winner = mover if solution.value is Value.WIN else 1 - mover
        out["winner"] = game.player_name(winner)
        best = solution.moves[0] if solution.moves else None
        out["win_within"] = solution.distance
        out["best_move"] = (game.format_move(state, best.move)
                            if best is not None and solution.value is Value.WIN else None)
    return out


def _stored_bound_run(args: argparse.Namespace, game: Any, state: Any) -> bool:
    """Answer at once from the game's committed certificates (``fourfold.solve.pns``)
    where they prove no value but bound both sides: the value unknown and the plies
    within which neither side can force a win. False when they prove a value (the
    solver's entry answers it) or no such bound."""
    from fourfold.solve.pns.stored import stored_bound, stored_value
    from fourfold.solve.position import Value

    if stored_value(game, state) is not None:
        return False
    bound = stored_bound(game, state)
    if bound is None:
        return False
    plies = bound.no_forced_win_within()
    names = [game.player_name(p) for p in range(game.num_players)]
    if args.json:
        print(json.dumps({
            "game": game.name,
            "variant": game.info.variant,
            "options": game.info.option_strings(),
            "position": bound.position,
            "to_move": state_mover(game, state),
            "value": Value.UNKNOWN.value,
            "no_forced_win_within": plies,
            "no_forced_win_moves": dict(zip(names, bound.no_win_moves, strict=True)),
            "source": "stored proof certificates (docs/solutions.md)",
        }))
        return True
    print(f"{game.info.label()}: {bound.position}")
    print(f"{state_mover(game, state)} to move: value unknown. Neither side can force a win"
          f" within {plies} plies (stored proof certificates):")
    for name, n in zip(names, bound.no_win_moves, strict=True):
        print(f"  {name} cannot force a win within {n} of its moves")
    return True


def _split_run(args: argparse.Namespace, game: Any, state: Any) -> int:
    import importlib

    from fourfold.core.registry import get_spec
    from fourfold.solve.position import game_solvers, solver_for

    solvers = game_solvers(game)
    if solvers is None or not solvers.split or solver_for(game) is None:
        titles = [get_spec(name).title for name in games_with_split_solves()]
        have = " and ".join([", ".join(titles[:-1]), titles[-1]] if len(titles) > 1 else titles)
        raise ConfigurationError(f"--split solves {have or 'no game'} positions, not"
                                 f" {game.name}")
    if args.journal is not None:
        check_writable(args.journal, "the journal")
        if args.journal.exists():
            read_text(args.journal, "the journal")
    if args.table_dir is not None:
        check_folder(args.table_dir, "the table folder", create=True)
    split = importlib.import_module(solvers.split)
    journal = split.open_journal(args.journal, game, state)
    plan = split.plan_split(game, state, args.replies, journal)
    options = split.SplitOptions(
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
    split.run_split(plan, options, None if args.json
                    else lambda key, result: print(split.task_line(key, result), flush=True))
    if args.json:
        print(json.dumps(split.split_json(plan)))
    else:
        print("\n".join(split.split_lines(plan)))
    return 1 if plan.stopped else 0


def state_mover(game: Any, state: Any) -> str:
    """The name of the side to move (``to_move`` is None once the game is over)."""
    player = game.to_move(state)
    if player is None:
        player = getattr(state, "to_play", 0)
    return str(game.player_name(player))


def _bundle_solvers(name: str) -> Any:
    """The ``GameSolvers`` a registered game's bundle names (game level), or ``None``."""
    from fourfold.core.extensions import resolve
    from fourfold.core.registry import get_spec

    reference = get_spec(name).extensions.solver
    return None if reference is None else resolve(reference)


def games_with_position_solvers() -> list[str]:
    from fourfold.core.registry import game_names

    return [name for name in game_names()
            if (found := _bundle_solvers(name)) is not None and found.positions]


def games_with_split_solves() -> list[str]:
    from fourfold.core.registry import game_names

    return [name for name in game_names()
            if (found := _bundle_solvers(name)) is not None and found.split]


def register(sub: Any) -> None:
    from fourfold.core.registry import game_names, get_spec

    p = sub.add_parser("solve", help="solve a position: the value of every move (two-player"
                       " games with a solver), or a game's own solve command")
    games = p.add_subparsers(dest="solve_game", metavar="GAME", required=True)
    for name in game_names():
        spec = get_spec(name)
        solvers = _bundle_solvers(name)
        command = None if solvers is None else solvers.command
        if command is not None:
            g = games.add_parser(name, aliases=list(spec.aliases), help=command.help)
            command.add_arguments(g)
            g.set_defaults(run=command.run)
            continue
        if spec.num_players != 2:
            continue
        g = games.add_parser(name, aliases=list(spec.aliases),
                             help=f"{spec.title}: the value of a position and of every move")
        _position_arguments(g)
        g.set_defaults(run=_position_run)
