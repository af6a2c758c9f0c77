"""A second core for the early positions: a helper process taking searches from a shared queue.

An exact value takes two null-window searches of the same position, "at least a
draw?" (window ``(-1, 0)``) and "a win?" (``(0, 1)``), and the second is the best
over the mover's moves (``paired``). None needs another's answer to be right, so
``paired`` lays them out as one list of searches that this process and a helper
process (its own solver and transposition table) both work through: each takes the
next search not yet taken (``take``: a counter in shared memory), runs it and takes
the next, until none is left or ``stop_taking``. The helper reports each answer as
it finishes (``answers``), so that neither side waits for the other to hand out
work: the time is close to half the sum of the searches, however unequal they are.

The helper is a spawned process (no fork of a process that may hold threads) that
lives for one ``solve_position`` call. It is used only where a search is long enough
to repay its start (a second or two to import and load the compiled kernels):
positions with at most ``HELPER_MAX_PLACED`` pieces on a fixed 4x4 board, in a
process that may have children and on a machine with at least two cores.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
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


#: one search of a list: a position string and the window
Search = tuple[str, int, int]
#: what the helper reports of one search: its index in the list, its score (``None`` when
#: the time limit came first) and its nodes
Answer = tuple[int, int | None, int]


def take_next(counter: Any) -> int:
    """The shared counter's value, counted up by one (both processes take searches so)."""
    with counter.get_lock():
        index = int(counter.value)
        counter.value = index + 1
    return index


class SearchHelper:
    """One helper process for a ruleset: ``start`` a list of searches, ``take`` from it here
    too, and read the helper's ``answers``."""

    def __init__(self, config: tuple[str, str, tuple[tuple[str, str], ...]], table_bits: int):
        ctx = multiprocessing.get_context("spawn")
        self._next = ctx.Value("q", 0)  # the index of the next search to take
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(child, config, table_bits, self._next),
                                 daemon=True)
        self._proc.start()
        child.close()
        self._busy = False

    def start(self, searches: list[Search], deadline: float | None) -> None:
        """Work through ``searches`` with this process; ``deadline`` is a ``time.time()``
        after which the helper's searches stop with no score."""
        assert not self._busy
        with self._next.get_lock():
            self._next.value = 0
        self._conn.send((searches, deadline))
        self._busy = True

    def take(self) -> int:
        """The index of the next search no one has taken (it is this process's now); past
        the end of the list when none is left."""
        return take_next(self._next)

    def stop_taking(self) -> None:
        """Leave the rest of the list: neither side takes another search (the helper ends
        the one it is in, if any)."""
        with self._next.get_lock():
            self._next.value = 1 << 60

    @property
    def busy(self) -> bool:
        """Whether the helper is still working through the list."""
        return self._busy

    def answers(self, wait: bool = False) -> list[Answer]:
        """The helper's answers since the last call (with ``wait``, at least one unless it
        has finished the list). Raises ``FourfoldError`` if it failed or died."""
        out: list[Answer] = []
        while self._busy and (self._conn.poll() or (wait and not out)):
            try:
                reply = self._conn.recv()
            except (EOFError, OSError):
                self.close()
                raise FourfoldError("the solver's helper process stopped unexpectedly") from None
            if reply[0] == "error":
                self.close()
                raise FourfoldError(f"the solver's helper process failed: {reply[1]}")
            if reply[0] == "end":
                self._busy = False
            else:
                _, index, score, nodes = reply
                out.append((index, score, nodes))
        return out

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
           table_bits: int, next_index: Any) -> None:
    """The helper's loop: build the game and a solver, then work through each list of
    searches it is sent until told to stop. Ctrl-C is for the parent (which stops the
    helper), not for the helper."""
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
        searches, deadline = job
        try:
            while True:
                index = take_next(next_index)
                if index >= len(searches):
                    break
                position, alpha, beta = searches[index]
                seconds = None if deadline is None else max(deadline - time.time(), 0.001)
                solver.start(seconds, None)
                try:
                    score: int | None = solver.search(game.parse_position(position), alpha, beta)
                except SolveLimitReached:
                    score = None
                conn.send(("answer", index, score, solver.nodes))
            conn.send(("end",))
        except Exception as exc:  # reported to the parent as one line
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            return
