"""Time the exact placement solver on random seeded positions (never run by the tests).

For each game and each number of pieces placed, play ``--positions`` random
games (seeded; the random player never wins at once nor hands over a winning
piece when it can avoid it, so positions are not trivially decided) up to that
many pieces with a piece in hand, and solve each one:

* ``value``: win/draw/loss for the player to move (two null-window searches);
* ``exact``: also the distance to the end (``--exact``).

Each solve gets a fresh transposition table, allocated before the clock starts
(positions and solves are those of ``fourfold.bench.solvers``, which
``fourfold bench --solvers`` runs on fixed sets). Prints one line per position
(value, distance, nodes, seconds) and a summary per N; ``--limit`` caps the
seconds per solve (a position that hits it is reported as ``limit``).

    .venv/bin/python benchmarks/bench_solve_placement.py quarto --placed 8 6 4
    .venv/bin/python benchmarks/bench_solve_placement.py folio --variant fixed-grid \\
        --line-rule same-colour-or-size --placed 8 6 --exact
    .venv/bin/python benchmarks/bench_solve_placement.py quarto --empty --limit 3600
    .venv/bin/python benchmarks/bench_solve_placement.py quarto --empty --replies \\
        --reply 'a1 TLQF' --reply 'b1 TDRH' --table-bits 27
    .venv/bin/python benchmarks/bench_solve_placement.py folio --variant fixed-grid \\
        --line-rule same-colour-or-size --empty --give Gs --limit 5000 --table-bits 28 \\
        --table-file /work/tables/same-b.npy    # run again to go on where it stopped
    .venv/bin/python benchmarks/bench_solve_placement.py folio --variant fixed-grid \\
        --line-rule same-colour-or-size --empty --give Rm --give Gl --beat 0   # once Rs draws
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import fourfold
from fourfold.bench.solvers import machine_text
from fourfold.core.errors import FourfoldError
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.solver import SolveLimitReached, Solver
from fourfold.games.placement.solver.table_file import load_table, save_table
from fourfold.games.placement.solver_bench import random_position, solve_fresh, warm_up
from fourfold.games.placement.state import PlacementState, Ply


def box(state: PlacementState) -> str:
    """``box=WxH `` for games whose 4x4 area floats (the span of the pieces), else ``""``."""
    if not state.board:
        return ""
    xs = [c[0] for c, _ in state.board]
    ys = [c[1] for c, _ in state.board]
    return f"box={max(xs) - min(xs) + 1}x{max(ys) - min(ys) + 1} "


def solve_start(
    game: PlacementGame,
    limit: float | None,
    table_bits: int,
    only: list[str] | None = None,
    replies: bool = False,
    only_replies: list[str] | None = None,
    table_file: str | None = None,
    beat: int | None = None,
) -> int:
    """The start position, one opening give at a time (gives equal under the piece
    symmetries are solved once), printing each as it is proven: win/draw/loss only.
    ``only`` names the gives to solve (one process per give runs them in parallel).
    With ``replies`` each give is solved one reply (placement and next give) at a time,
    replies equal under the symmetries once; ``only_replies`` names the replies to solve.
    With ``table_file`` the table is loaded from that file if it exists and saved to it
    at the end, also when the limit stops the solve, so a later run goes on from there.
    With ``beat`` (a value for the giver already reached by some give) each give is only
    tested for beating it, one null-window search instead of two: the start's value needs
    no more, and a give that beats it settles the start at once."""
    from fourfold.games.placement.solver import solver_for

    solver = solver_for(game, table_bits)
    if table_file is None:
        return _solve_start(game, solver, limit, only, replies, only_replies, beat)
    if Path(table_file).exists():
        began = time.perf_counter()
        load_table(solver, table_file)
        print(f"# table loaded from {table_file} ({time.perf_counter() - began:.1f}s)", flush=True)
    try:
        return _solve_start(game, solver, limit, only, replies, only_replies, beat)
    finally:
        began = time.perf_counter()
        save_table(solver, table_file)
        print(f"# table saved to {table_file} ({time.perf_counter() - began:.1f}s)", flush=True)


def _solve_start(
    game: PlacementGame,
    solver: Solver,
    limit: float | None,
    only: list[str] | None,
    replies: bool,
    only_replies: list[str] | None,
    beat: int | None,
) -> int:
    start = game.initial_state()
    seen: dict[tuple[int, int], int | None] = {}
    best = -2 if beat is None else beat
    began = time.perf_counter()

    def left() -> float | None:
        return None if limit is None else limit - (time.perf_counter() - began)

    for move, name in _named_moves(game, start, "--give", only):
        child = game.next_state(start, move)
        key = solver.key(child)
        if only is not None and name not in only:
            continue
        if key in seen:
            print(f"give {name}: same as an earlier give up to symmetry", flush=True)
            continue
        try:
            if replies:
                value = solve_replies(game, solver, child, name, left, only_replies)
            elif beat is not None:
                solver.start(left(), None)
                # the placer's score is below -beat exactly when the give beats ``beat``
                beaten = solver.search(child, -beat - 1, -beat) < -beat
                print(f"give {name}: value {'>' if beaten else '<='} {beat:+d} for the giver"
                      f" (player 2), {solver.nodes} nodes, {solver.elapsed():.1f}s", flush=True)
                seen[key] = None
                if beaten:
                    print(f"# start position: the giver's value exceeds {beat:+d}", flush=True)
                    return 0
                continue
            else:
                solver.start(left(), None)
                value = -solver.exact(child, False)
        except SolveLimitReached as exc:
            print(f"give {name}: limit after {exc.nodes} nodes, {exc.seconds:.1f}s", flush=True)
            return 1
        seen[key] = value
        if value is None:
            continue
        best = max(best, value)
        effort = "" if replies else f", {solver.nodes} nodes, {solver.elapsed():.1f}s"
        print(f"give {name}: value {value:+d} for the giver (player 2){effort}", flush=True)
    total = time.perf_counter() - began
    if only is not None or only_replies is not None:
        print(f"# {len(seen)} give(s) solved ({total:.1f}s in all)", flush=True)
        return 0
    word = {1: "second player wins", 0: "draw", -1: "first player wins"}[best]
    given = "" if beat is None else f", given a give worth {beat:+d} to the giver"
    print(f"# start position: {word}{given} ({total:.1f}s in all)", flush=True)
    return 0


def solve_replies(
    game: PlacementGame,
    solver: Solver,
    given: PlacementState,
    give: str,
    left: Callable[[], float | None],
    only: list[str] | None,
) -> int | None:
    """The value of an opening give for its giver, from the value of every reply to it
    (the placer picks the reply worst for the giver); ``None`` when ``only`` leaves
    some replies out. Prints each reply's value as it is proven."""
    seen: dict[tuple[int, int], int] = {}
    worst = 2
    nodes = 0
    began = time.perf_counter()
    for reply, name in _named_moves(game, given, "--reply", only):
        child = game.next_state(given, reply)
        key = solver.key(child)
        if key in seen or (only is not None and name not in only):
            continue
        solver.start(left(), None)
        value = solver.exact(child, False)
        seen[key] = value
        worst = min(worst, value)
        nodes += solver.nodes
        print(f"give {give} reply {name}: value {value:+d} for the giver (player 2),"
              f" {solver.nodes} nodes, {solver.elapsed():.1f}s", flush=True)
    print(f"# give {give}: {len(seen)} reply class(es) solved, {nodes} nodes,"
          f" {time.perf_counter() - began:.1f}s", flush=True)
    return None if only is not None else worst


def _named_moves(
    game: PlacementGame, state: PlacementState, option: str, only: list[str] | None
) -> list[tuple[Ply, str]]:
    """The legal moves with their names; an error if ``only`` (the names ``option`` was
    given) names a move that is not legal here."""
    moves = [(m, game.format_move(state, m)) for m in game.legal_moves(state)]
    legal = [name for _, name in moves]
    unknown = [n for n in only or [] if n not in legal]
    if unknown:
        shown = ", ".join(legal[:12]) + (f", ... ({len(legal)} in all)" if len(legal) > 12 else "")
        raise FourfoldError(f"{option} {unknown[0]!r} is not a legal move here;"
                            f" the moves are: {shown}")
    return moves


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except FourfoldError as exc:
        print(f"bench_solve_placement: error: {exc}", file=sys.stderr)
        return 2


def _main(argv: list[str] | None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=["quarto", "folio"])
    p.add_argument("--variant", default=None)
    p.add_argument("--line-rule", default=None)
    p.add_argument("--placed", type=int, nargs="*", default=[8, 6, 4])
    p.add_argument("--positions", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--exact", action="store_true", help="also find the distance to the end")
    p.add_argument("--limit", type=float, default=None, help="seconds per solve")
    p.add_argument("--table-bits", type=int, default=22)
    p.add_argument("--empty", action="store_true", help="solve the start position")
    p.add_argument("--give", action="append", default=None, metavar="PIECE",
                   help="with --empty: solve only this opening give (repeatable)")
    p.add_argument("--replies", action="store_true",
                   help="with --empty: solve each give one reply class at a time")
    p.add_argument("--reply", action="append", default=None, metavar="MOVE",
                   help="with --replies: solve only this reply, e.g. 'a1 TLQF' (repeatable)")
    p.add_argument("--beat", type=int, default=None, choices=[-1, 0], metavar="VALUE",
                   help="with --empty: test each give only for beating VALUE for the giver"
                        " (-1 or 0), e.g. 0 once a give is known to draw")
    p.add_argument("--table-file", default=None, metavar="PATH",
                   help="with --empty: load the table from PATH (.npy) if it exists, and"
                        " save it there at the end or at the limit, to go on later")
    args = p.parse_args(argv)

    options = {"line_rule": args.line_rule} if args.line_rule else {}
    game = fourfold.load(args.game, args.variant, **options)
    assert isinstance(game, PlacementGame)
    floating = args.game == "folio" and game.info.variant in ("standard", "no-grid")
    print(f"# {game.info.label()} on {machine_text()}", flush=True)
    if args.empty:
        return solve_start(game, args.limit, args.table_bits, args.give,
                           args.replies or args.reply is not None, args.reply,
                           args.table_file, args.beat)
    cases: list[tuple[int, int, PlacementState]] = []
    for n in args.placed:
        for i in range(args.positions):
            seed = args.seed + 1000 * n + i
            cases.append((n, seed, random_position(game, n, seed)))
    warm_up(game)  # load the compiled code before timing anything
    times: dict[int, list[float]] = {}
    for n, seed, state in cases:
        cpu = time.process_time()  # this process's CPU seconds (the machine may be shared)
        try:
            result, seconds = solve_fresh(game, state, distance=args.exact, limit=args.limit,
                                          table_bits=args.table_bits)
        except SolveLimitReached as exc:
            print(f"N={n:2d} seed={seed} limit after {exc.nodes} nodes {exc.seconds:.1f}s"
                  f"  {game.format_position(state)}", flush=True)
            continue
        times.setdefault(n, []).append(seconds)
        best = game.format_move(state, result.best_move)
        span = box(state) if floating else ""
        print(
            f"N={n:2d} seed={seed} {span}value={result.value:+d} distance={result.distance}"
            f" best={best} nodes={result.nodes} seconds={seconds:.3f}"
            f" cpu={time.process_time() - cpu:.3f}  {game.format_position(state)}",
            flush=True,
        )
    for n, ts in sorted(times.items(), reverse=True):
        print(f"# N={n}: {len(ts)} solved, mean {statistics.mean(ts):.3f}s, max {max(ts):.3f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
