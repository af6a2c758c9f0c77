"""A Quarto or Folio solve split into independent subtree tasks (``fourfold solve --split``).

The position's value for the side to move is the best over its moves (at the
start of Folio or Quarto, the opening gives) of the opponent's value after each,
negated; optionally each move's value is itself the worst over its replies (a
placement and the next give). Moves, and replies of one move, that are equal under
the solver's symmetries share one subtree. Each subtree is a task: the exact
placement solver (``fourfold.games.placement.solver``) on one position, with a fresh
transposition table of its own, so its value and its node count are the same on
any worker and in any order. The root's value is combined from the tasks' values:
negamax over moves and replies.

Tasks answer either *the value* (win, draw or loss; two null-window searches) or
*a test*: is the value at least ``t``? (one null-window search). Once some move is
known to reach ``V`` for the side to move, the root only needs, of each other move,
whether it beats ``V`` (``--beat``, as ``benchmarks/bench_solve_placement.py``
does by hand). Every answer is a pair of bounds ``low <= value <= high``, so exact
values, tests and replies all combine the same way.

A journal (``fourfold.distributed.journal``) keeps every finished task: run the
same command again and only the others run. A task stopped by its limit can save
its table (``table_dir``) and go on from it next time.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.outcome import Result
from fourfold.distributed.config import GameConfig
from fourfold.distributed.journal import Journal
from fourfold.distributed.runner import run_tasks
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.state import PlacementState
from fourfold.solve.position import BEAT_CHOICES


@dataclass(frozen=True)
class SplitTask:
    """Solve one subtree: the position reached from ``position`` by the moves ``path``.

    ``test=None`` asks for the value (for the side to move there); ``test=t`` only
    whether the value is at least ``t``. ``limit`` caps the task's seconds and
    ``deadline`` (``time.time()``) the whole run's; with ``table_dir`` a task stopped
    by either saves its table there and a later run of the same task loads it.
    """

    game: GameConfig
    position: str
    path: tuple[str, ...]
    test: int | None
    table_bits: int
    limit: float | None = None
    deadline: float | None = None
    table_dir: str | None = None

    @property
    def key(self) -> str:
        return task_key(self.path, self.test)


def task_key(path: Sequence[str], test: int | None) -> str:
    """The journal's name of a task: ``Rs``, ``Rl / d4 Ys``, ``Gs >= 0?``."""
    where = " / ".join(path)
    return where if test is None else f"{where} >= {test}?"


def solve_task(task: SplitTask) -> dict[str, Any]:
    """Run one task (on a worker): bounds on the value for the side to move there.

    ``{"low", "high", "nodes", "seconds"}`` when finished (``low == high`` for a value);
    ``{"stopped": True, "nodes", "seconds"}`` when the limit or deadline came first.
    """
    from fourfold.games.placement.solver import SolveLimitReached
    from fourfold.games.placement.solver.table_file import load_table, save_table

    game = task.game.load()
    assert isinstance(game, PlacementGame)
    state = game.parse_position(task.position)
    for name in task.path:
        state = game.next_state(state, game.parse_move(state, name))
    limit = task.limit
    if task.deadline is not None:
        left = task.deadline - time.time()
        if left <= 0:
            return {"stopped": True, "nodes": 0, "seconds": 0.0}
        limit = left if limit is None else min(limit, left)
    solver = fresh_solver(game, task.table_bits)
    table = None if task.table_dir is None else Path(task.table_dir) / table_name(task.key)
    if table is not None and table.exists():
        load_table(solver, table)
    solver.start(limit, None)
    try:
        if task.test is None:
            low = high = solver.exact(state, False)
        else:
            # scores are positive for a win and 0 for a draw: "value >= t" is "score >= t"
            score = solver.search(state, task.test - 1, task.test)
            low, high = (task.test, 1) if score >= task.test else (-1, task.test - 1)
    except SolveLimitReached as exc:
        if table is not None:
            table.parent.mkdir(parents=True, exist_ok=True)
            save_table(solver, table)
        return {"stopped": True, "nodes": exc.nodes, "seconds": round(exc.seconds, 3)}
    if table is not None and table.exists():
        table.unlink()
        table.with_name(table.name + ".json").unlink(missing_ok=True)
    return {"low": low, "high": high, "nodes": solver.nodes,
            "seconds": round(solver.elapsed(), 3)}


_SOLVERS: dict[tuple[Any, ...], Any] = {}


def fresh_solver(game: PlacementGame, table_bits: int) -> Any:
    """A solver as new (empty table, no move history), so that a task's node count does not
    depend on the tasks its worker ran before; its piece and line tables are built once
    per worker process (that takes half a second)."""
    from fourfold.games.placement.solver import Solver
    from fourfold.games.placement.solver import floating as fl
    from fourfold.games.placement.solver import kernel as k4
    from fourfold.games.placement.solver.tables import ruleset_of

    ruleset = ruleset_of(game)
    key = (*ruleset, table_bits)
    solver = _SOLVERS.get(key)
    if solver is None:
        _SOLVERS.clear()  # one table in memory per worker
        solver = _SOLVERS[key] = Solver(*ruleset, table_bits=table_bits)
        return solver
    k4.clear_table(solver.work)
    solver.work.history[:] = 0
    solver.float_work = fl.new_float_work(solver.float_tables, len(ruleset[2]))
    return solver


def table_name(key: str) -> str:
    """A file name for a task's saved table."""
    return re.sub(r"[^A-Za-z0-9=,._-]+", "_", key).strip("_") + ".npy"


def finished(result: dict[str, Any]) -> bool:
    return not result.get("stopped", False)


# -- the tree of moves and replies ----------------------------------------------------------

@dataclass
class Branch:
    """A move (or a reply) and what is known of its value for the root's side to move."""

    name: str
    path: tuple[str, ...]
    same_as: str | None = None  # an earlier move equal to this one under the symmetries
    terminal: int | None = None  # the value when the move ends the game
    replies: list[Branch] | None = None
    results: dict[str, dict[str, Any]] = field(default_factory=dict)  # task key -> result

    def bounds(self, flip: bool) -> tuple[int, int]:
        """``(low, high)`` for the root's side to move; ``flip``: the side to move after this
        branch is the root's opponent (a move), else the root's side (a reply)."""
        if self.terminal is not None:
            return self.terminal, self.terminal
        low, high = -1, 1
        for r in self.results.values():
            if "low" in r:
                a, b = (-r["high"], -r["low"]) if flip else (r["low"], r["high"])
                low, high = max(low, a), min(high, b)
        if self.replies:
            replies = [r.bounds(False) for r in self.replies if r.same_as is None]
            low = max(low, min(a for a, _ in replies))
            high = min(high, min(b for _, b in replies))
        return low, high

    def settled(self) -> bool:
        low, high = self.bounds(True)
        return low == high


@dataclass
class SplitPlan:
    """The root, its moves (and replies), and the journal of finished tasks."""

    game: PlacementGame
    position: str
    mover: str
    moves: list[Branch]
    journal: Journal | None
    stopped: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def classes(self) -> list[Branch]:
        return [m for m in self.moves if m.same_as is None]

    def bounds(self) -> tuple[int, int]:
        """The root's value for its side to move: the best over its moves."""
        known = [m.bounds(True) for m in self.classes()]
        return max(a for a, _ in known), max(b for _, b in known)

    def value(self) -> int | None:
        low, high = self.bounds()
        return low if low == high else None


def plan_split(
    game: PlacementGame,
    state: PlacementState,
    replies: bool,
    journal: Journal | None,
) -> SplitPlan:
    """The root's moves up to symmetry (and each one's replies), with journaled results."""
    from fourfold.games.placement.solver import Solver
    from fourfold.games.placement.solver.tables import ruleset_of

    if game.outcome(state) is not None:
        raise FourfoldError("the game is over; there is nothing to solve")
    keys = Solver(*ruleset_of(game), table_bits=4)  # canonical keys only: a tiny table
    mover = game.to_move(state)
    assert mover is not None

    def terminal_value(child: PlacementState) -> int | None:
        outcome = game.outcome(child)
        if outcome is None:
            return None
        if outcome.result is Result.WIN:
            return 1 if outcome.winner == mover else -1
        return 0

    def branches(at: PlacementState, prefix: tuple[str, ...]) -> list[Branch]:
        seen: dict[tuple[int, int], str] = {}
        out = []
        for move in game.legal_moves(at):
            name = game.format_move(at, move)
            child = game.next_state(at, move)
            branch = Branch(name, (*prefix, name), terminal=terminal_value(child))
            if branch.terminal is None:
                key = keys.key(child)
                if key in seen:
                    branch.same_as = seen[key]
                else:
                    seen[key] = name
            out.append(branch)
        return out

    moves = branches(state, ())
    for move in moves:
        if replies and move.terminal is None and move.same_as is None:
            child = game.next_state(state, game.parse_move(state, move.name))
            move.replies = branches(child, move.path)
    plan = SplitPlan(game, game.format_position(state), game.player_name(mover), moves, journal)
    plan_load(plan)
    return plan


def _all_branches(plan: SplitPlan) -> list[Branch]:
    out = []
    for m in plan.classes():
        out.append(m)
        out += [r for r in m.replies or [] if r.same_as is None]
    return out


def plan_load(plan: SplitPlan) -> None:
    """Attach every journaled result to its branch."""
    if plan.journal is None:
        return
    for branch in _all_branches(plan):
        for test in (None, 0, 1):
            key = task_key(branch.path, test)
            if key in plan.journal:
                branch.results[key] = plan.journal.get(key)


def _apply(plan: SplitPlan, tasks: Sequence[SplitTask], results: Sequence[dict[str, Any]]
           ) -> None:
    by_path = {b.path: b for b in _all_branches(plan)}
    for task, result in zip(tasks, results, strict=True):
        if finished(result):
            by_path[task.path].results[task.key] = result
        else:
            plan.stopped.append((task.key, result))


@dataclass(frozen=True)
class SplitOptions:
    """How to run a split solve: which moves, which question, where, for how long."""

    replies: bool = False
    only: tuple[str, ...] | None = None  # moves to solve (names); None: all
    beat: str | None = None  # None: values; "-1"/"0": test against it; "auto"
    table_bits: int = 22
    limit: float | None = None  # seconds per task
    stop_after: float | None = None  # seconds for the whole run
    table_dir: str | None = None
    scheduler: str | None = None
    workers: int | None = None
    progress: bool = True


def run_split(plan: SplitPlan, options: SplitOptions,
              on_task: Callable[[str, dict[str, Any]], None] | None = None) -> SplitPlan:
    """Run the plan's tasks until every wanted move is valued (``beat=None``) or, with
    ``beat``, the root is settled (in rounds, for ``"auto"``), or a task is stopped.
    ``on_task(key, result)`` is called as each task finishes or stops."""
    if options.beat is not None and options.replies:
        raise ConfigurationError("--beat tests whole moves; it cannot be used with --replies")
    if options.beat is not None and options.beat not in BEAT_CHOICES:
        raise ConfigurationError(f"--beat takes one of {', '.join(BEAT_CHOICES)}")
    config = GameConfig.of(plan.game)
    deadline = None if options.stop_after is None else time.time() + options.stop_after
    names = [m.name for m in plan.moves]
    for name in options.only or ():
        if name not in names:
            shown = ", ".join(names[:12]) + (f", ... ({len(names)} in all)"
                                             if len(names) > 12 else "")
            raise ConfigurationError(f"--move {name!r} is not a legal move here;"
                                     f" the moves are: {shown}")
    wanted = [m for m in plan.classes() if options.only is None or m.name in options.only
              or any(o in options.only for o in _aliases(plan, m))]

    def task(path: tuple[str, ...], test: int | None) -> SplitTask:
        return SplitTask(config, plan.position, path, test, options.table_bits,
                         options.limit, deadline, options.table_dir)

    while options.beat is None or plan.value() is None:  # values: every wanted move's
        open_moves = [m for m in wanted if not m.settled()]
        if not open_moves:
            break
        tasks: list[SplitTask] = []
        if options.beat is None:
            for m in open_moves:
                if m.replies is None:
                    tasks.append(_value_task(m, task))
                else:
                    tasks += [task(r.path, None) for r in m.replies
                              if r.same_as is None and r.terminal is None
                              and r.bounds(False)[0] != r.bounds(False)[1]]
        else:
            low, _ = plan.bounds()
            exact = any(m.settled() for m in plan.classes())
            if options.beat == "auto" and not exact and low == -1:
                tasks.append(task(open_moves[0].path, None))  # a first value to beat
            else:
                target = low if options.beat == "auto" else int(options.beat)
                # a move beats ``target`` when the opponent's value after it is below -target
                for m in open_moves:
                    a, b = m.bounds(True)
                    if a <= target < b:
                        tasks.append(task(m.path, -target))
        if not tasks:
            break
        results = run_tasks(solve_task, tasks, keys=[t.key for t in tasks],
                            scheduler=options.scheduler, workers=options.workers,
                            progress=options.progress, journal=plan.journal,
                            finished=finished, description="subtrees",
                            on_result=_reporter(tasks, on_task))
        _apply(plan, tasks, results)
        if plan.stopped or options.beat != "auto":
            break
    return plan


def _value_task(move: Branch, task: Callable[[tuple[str, ...], int | None], SplitTask]
                ) -> SplitTask:
    """The task that settles a move's value: its value, or, when a test already bounds it,
    the one test left (the opponent's value after the move is in ``[-1, 0]`` or ``[0, 1]``)."""
    low, high = move.bounds(True)
    if (low, high) == (-1, 1):
        return task(move.path, None)
    # the opponent's value is in [-high, -low], an interval of two values: test its top
    return task(move.path, -low)


def _reporter(tasks: Sequence[SplitTask],
              on_task: Callable[[str, dict[str, Any]], None] | None
              ) -> Callable[[int, dict[str, Any]], None] | None:
    if on_task is None:
        return None
    report = on_task
    return lambda i, result: report(tasks[i].key, result)


def _aliases(plan: SplitPlan, branch: Branch) -> list[str]:
    return [m.name for m in plan.moves if m.same_as == branch.name]


def journal_job(game: PlacementGame, position: str) -> dict[str, Any]:
    """What a split solve's journal belongs to: the ruleset and the root position."""
    config = GameConfig.of(game)
    return {"job": "fourfold solve --split", "game": config.name, "variant": config.variant,
            "options": dict(config.options), "position": position}


def open_journal(path: str | os.PathLike[str] | None, game: PlacementGame,
                 state: PlacementState) -> Journal | None:
    if path is None:
        return None
    return Journal(Path(path), journal_job(game, game.format_position(state)))


# -- the answer -----------------------------------------------------------------------------

WORDS = {1: "+1 (win)", 0: "0 (draw)", -1: "-1 (loss)"}


def bounds_text(low: int, high: int) -> str:
    if low == high:
        return f"value {WORDS[low]}"
    if low == -1 and high == 1:
        return "not settled"
    return f"at least {WORDS[low]}" if high == 1 else f"at most {WORDS[high]}"


def task_line(key: str, result: dict[str, Any]) -> str:
    """One finished or stopped task, for the terminal as it arrives (values for the side to
    move in the task's position)."""
    effort = f"{result['nodes']:,} nodes, {result['seconds']:.1f} s"
    if not finished(result):
        return f"task {key}: stopped after {effort}"
    return f"task {key}: {bounds_text(result['low'], result['high'])} for the side to move" \
        f" there, {effort}"


def _effort(results: dict[str, dict[str, Any]]) -> tuple[int, float]:
    return (sum(r.get("nodes", 0) for r in results.values()),
            sum(r.get("seconds", 0.0) for r in results.values()))


def branch_json(branch: Branch, flip: bool) -> dict[str, Any]:
    low, high = branch.bounds(flip)
    out: dict[str, Any] = {"move": branch.name, "low": low, "high": high}
    if branch.same_as is not None:
        out["same_as"] = branch.same_as
    if branch.terminal is not None:
        out["ends_game"] = True
    if branch.results:
        out["tasks"] = {k: branch.results[k] for k in sorted(branch.results)}
    if branch.replies is not None:
        out["replies"] = [branch_json(r, False) for r in branch.replies]
    return out


def split_json(plan: SplitPlan) -> dict[str, Any]:
    """The answer as JSON: the root's bounds and every move's (values for the root's side)."""
    low, high = plan.bounds()
    nodes = 0
    seconds = 0.0
    for b in _all_branches(plan):
        n, s = _effort(b.results)
        nodes, seconds = nodes + n, seconds + s
    return {
        "game": plan.game.name,
        "variant": plan.game.info.variant,
        "options": plan.game.info.option_strings(),
        "position": plan.position,
        "to_move": plan.mover,
        "value": plan.value(),
        "low": low,
        "high": high,
        "moves": [branch_json(m, True) for m in plan.moves],
        "stopped": [{"task": k, **r} for k, r in plan.stopped],
        "nodes": nodes,
        "seconds": round(seconds, 3),
    }


def split_lines(plan: SplitPlan) -> list[str]:
    """The answer in words, one line per move class (and reply class), for the terminal."""
    state = plan.game.parse_position(plan.position)
    word = "give" if state.hand is None else "move"
    who = f"for {plan.mover}"
    lines = []
    for m in plan.moves:
        if m.same_as is not None:
            lines.append(f"{word} {m.name}: same as {m.same_as} up to symmetry")
            continue
        low, high = m.bounds(True)
        if m.terminal is not None:
            lines.append(f"{word} {m.name}: ends the game, value {WORDS[m.terminal]} {who}")
            continue
        own = dict(m.results)
        for r in m.replies or []:
            own.update(r.results)
        nodes, seconds = _effort(own)
        effort = f", {nodes:,} nodes, {seconds:.1f} s" if own else ""
        lines.append(f"{word} {m.name}: {bounds_text(low, high)} {who}{effort}")
        for r in m.replies or []:
            if r.same_as is not None:
                continue
            a, b = r.bounds(False)
            n, s = _effort(r.results)
            extra = f", {n:,} nodes, {s:.1f} s" if r.results else ""
            ends = " (ends the game)" if r.terminal is not None else ""
            lines.append(f"  reply {r.name}: {bounds_text(a, b)} {who}{ends}{extra}")
    for key, stop in plan.stopped:
        if stop["nodes"] == 0:
            lines.append(f"stopped: {key} not started before the deadline (run again to go on)")
        else:
            lines.append(f"stopped: {key} after {stop['nodes']:,} nodes,"
                         f" {stop['seconds']:.1f} s (run again to go on)")
    lines.append(root_line(plan, word))
    return lines


def root_line(plan: SplitPlan, word: str) -> str:
    """The root's value, and how many move classes are valued or bounded."""
    low, high = plan.bounds()
    classes = plan.classes()
    exact = sum(1 for m in classes if m.settled())
    if low == high:
        result = {1: "win", 0: "draw", -1: "loss"}[low]
        no_better = sum(1 for m in classes if not m.settled() and m.bounds(True)[1] <= low)
        rest = f", {no_better} shown to do no better" if no_better else ""
        return (f"{plan.mover} to move: {result} ({exact} of {len(classes)} {word} classes"
                f" valued{rest})")
    bounded = sum(1 for m in classes if not m.settled() and m.bounds(True) != (-1, 1))
    return (f"{plan.mover} to move: {bounds_text(low, high)}; of {len(classes)} {word}"
            f" classes, {exact} valued, {bounded} bounded")
