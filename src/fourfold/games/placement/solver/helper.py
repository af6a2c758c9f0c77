"""A second core for the early positions: a helper process that runs one null-window search.

An exact value takes two null-window searches of the same position, "at least a
draw?" (window ``(-1, 0)``) and "a win?" (``(0, 1)``); the solver runs them one after
the other. From the empty Quarto board each takes minutes, and neither needs the
other's answer to be right, so ``Solver.exact`` can hand the first to a helper
process (its own solver and transposition table) while it runs the second, then
combine the two scores exactly as if they had run in turn: the value is the same,
the nodes are the sum of both, and the time is the longer of the two.

The helper is a spawned process (no fork of a process that may hold threads) that
lives for one ``solve_position`` call and answers one search at a time over a pipe.
It is used only where a search is long enough to repay its start (a second or two
to import and load the compiled kernels): positions with at most
``HELPER_MAX_PLACED`` pieces on a fixed 4x4 board, in a process that may have
children and on a machine with at least two cores.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from multiprocessing.connection import Connection
from typing import Any

from fourfold.core.errors import FourfoldError

HELPER_MAX_PLACED = 2  # positions with more pieces placed are searched in this process


def helper_allowed() -> bool:
    """Whether this process may start a helper: two cores or more (those this process may
    run on), and not itself a daemonic worker (which may not have children)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return cores >= 2 and not multiprocessing.current_process().daemon


class SearchHelper:
    """One helper process for a ruleset; ``submit`` a search, then ``result`` it."""

    def __init__(self, config: tuple[str, str, tuple[tuple[str, str], ...]], table_bits: int):
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(child, config, table_bits), daemon=True)
        self._proc.start()
        child.close()
        self._busy = False

    def submit(self, position: str, alpha: int, beta: int, seconds: float | None) -> None:
        """Start searching ``position`` (a position string) in ``(alpha, beta)``."""
        assert not self._busy
        self._conn.send((position, alpha, beta, seconds))
        self._busy = True

    def ready(self) -> bool:
        """Whether the search submitted has answered (``result`` would not wait)."""
        return self._busy and self._conn.poll()

    def result(self) -> tuple[int | None, int, float]:
        """``(score, nodes, seconds)`` of the search submitted; ``score`` is ``None`` when its
        limit came first. Raises ``FourfoldError`` if the helper failed or died."""
        assert self._busy
        try:
            reply = self._conn.recv()
        except (EOFError, OSError):
            self.close()
            raise FourfoldError("the solver's helper process stopped unexpectedly") from None
        self._busy = False
        if reply[0] == "error":
            self.close()
            raise FourfoldError(f"the solver's helper process failed: {reply[1]}")
        _, score, nodes, seconds = reply
        return score, nodes, seconds

    def close(self) -> None:
        """Stop the helper, also in the middle of a search (its table goes with it)."""
        if self._proc.is_alive():
            if self._busy:
                self._proc.terminate()
            else:
                try:
                    self._conn.send(None)
                except (BrokenPipeError, OSError):
                    self._proc.terminate()
        self._proc.join(timeout=5)
        if self._proc.is_alive():  # pragma: no cover - a helper that ignores both
            self._proc.kill()
            self._proc.join()
        self._conn.close()
        self._busy = False


def _serve(conn: Connection, config: tuple[str, str, tuple[tuple[str, str], ...]],
           table_bits: int) -> None:
    """The helper's loop: build the game and a solver, then answer searches until told to
    stop. Ctrl-C is for the parent (which stops the helper), not for the helper."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        from fourfold.core.registry import load
        from fourfold.games.placement.game import PlacementGame
        from fourfold.games.placement.solver.solver import SolveLimitReached, Solver
        from fourfold.games.placement.solver.tables import ruleset_of

        name, variant, options = config
        game: Any = load(name, variant, **dict(options))
        assert isinstance(game, PlacementGame)
        pieces, geometry, counts = ruleset_of(game)
        solver = Solver(pieces, geometry, counts, table_bits)
    except Exception as exc:  # reported to the parent as one line
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
        return
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        position, alpha, beta, seconds = job
        try:
            state = game.parse_position(position)
            solver.start(seconds, None)
            try:
                score: int | None = solver.search(state, alpha, beta)
            except SolveLimitReached:
                score = None
            conn.send(("done", score, solver.nodes, solver.elapsed()))
        except Exception as exc:  # reported to the parent as one line
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            return
