"""A second core for the early positions: a helper thread taking searches from a shared list.

An exact value takes two null-window searches of the same position, "at least a
draw?" (window ``(-1, 0)``) and "a win?" (``(0, 1)``), and the second is the best
over the mover's moves (``paired``). None needs another's answer to be right, so
``paired`` lays them out as one list of searches that this thread and a helper thread
(its own solver, searching with the same transposition table) both work through:
each takes the next search not yet taken (``take``), runs it and takes the next,
until none is left or ``stop_taking``. The helper reports each answer as it finishes
(``answers``), so that neither side waits for the other to hand out work: the time is
close to half the sum of the searches, however unequal they are.

The compiled searches release the GIL (``kernels.jit.no_refcount_nogil``), so the two
threads search at once, one per core. Sharing the table is what threads give over two
processes: each side finds what the other has proven, as one search finds its own
earlier results, and the table stays in this process's memory with its huge pages
(a table in memory shared between processes gets none here: measured, every node
slower by a fifth). Each row is checked against its key as it is read
(``kernel.find``), so a row the other thread is writing at that moment is no entry
rather than a wrong one.

The helper lives for one ``solve_position`` call. It is used where a search is long
enough to repay it (positions with at most ``HELPER_MAX_PLACED`` pieces on a fixed
4x4 board), on a machine with at least two cores, and not in a worker process of a
pool (``daemon``), whose pool is sized to the cores already.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
import time
from typing import TYPE_CHECKING

from fourfold.core.errors import FourfoldError
from fourfold.games.placement.solver import kernel as k4
from fourfold.games.placement.state import PlacementState

if TYPE_CHECKING:
    from fourfold.games.placement.solver.solver import Solver

HELPER_MAX_PLACED = 2  # positions with more pieces placed are searched by this thread alone


def helper_allowed() -> bool:
    """Whether a helper may run: two cores or more (those this process may run on), and
    not in a daemonic worker process (one of a pool with a core each)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return cores >= 2 and not multiprocessing.current_process().daemon


#: what the helper reports of one search: its index in the list, its score (``None`` when
#: the time limit came first) and its nodes
Answer = tuple[int, int | None, int]


class SearchHelper:
    """One helper thread with its own solver on ``solver``'s table: ``start`` a list of
    positions to search in ``(-1, 0)``, ``take`` from it here too, and read the helper's
    ``answers``."""

    def __init__(self, solver: Solver):
        from fourfold.games.placement.solver.solver import Solver

        pieces, geometry, counts = solver.ruleset
        table_bits = solver.work.tt.shape[0].bit_length() - 1
        self.solver = Solver(pieces, geometry, counts, table_bits, table=solver.work.tt)
        self._lock = threading.Lock()
        self._next = 0  # the index of the next search to take
        self._jobs: queue.SimpleQueue[tuple[list[PlacementState], float | None] | None] = (
            queue.SimpleQueue())
        # answers, then None at the end of the list (or the error that ended it)
        self._answers: queue.SimpleQueue[Answer | Exception | None] = queue.SimpleQueue()
        self._stopping = False
        self._busy = False
        self._thread = threading.Thread(target=self._serve, name="solver helper", daemon=True)
        self._thread.start()

    def start(self, positions: list[PlacementState], deadline: float | None) -> None:
        """Work through ``positions`` with this thread; ``deadline`` is a ``time.time()``
        after which the helper's searches stop with no score."""
        assert not self._busy
        with self._lock:
            self._next = 0
        self._busy = True
        self._jobs.put((positions, deadline))

    def take(self) -> int:
        """The index of the next search no one has taken (it is the caller's now); past
        the end of the list when none is left."""
        with self._lock:
            index = self._next
            self._next = index + 1
        return index

    def stop_taking(self) -> None:
        """Leave the rest of the list: neither side takes another search (the helper ends
        the one it is in, if any)."""
        with self._lock:
            self._next = 1 << 60

    @property
    def busy(self) -> bool:
        """Whether the helper is still working through the list."""
        return self._busy

    def answers(self, wait: bool = False) -> list[Answer]:
        """The helper's answers since the last call (with ``wait``, at least one unless it
        has finished the list). Raises ``FourfoldError`` if its search failed."""
        out: list[Answer] = []
        while self._busy:
            try:
                reply = self._answers.get(block=wait and not out)
            except queue.Empty:
                break
            if isinstance(reply, Exception):
                self._busy = False
                raise FourfoldError(f"the solver's helper failed: {type(reply).__name__}:"
                                    f" {reply}") from reply
            if reply is None:
                self._busy = False
            else:
                out.append(reply)
        return out

    def close(self) -> None:
        """Stop the helper, also in the middle of a search."""
        self._stopping = True
        self.stop_taking()
        # its search stops at its next budget check (``start`` sets the limit afresh,
        # so the thread looks at ``_stopping`` after it)
        self.solver.work.st[k4.NODE_LIMIT] = 1
        self._jobs.put(None)
        self._thread.join()
        self._busy = False

    def _serve(self) -> None:
        from fourfold.games.placement.solver.solver import SolveLimitReached

        solver = self.solver
        while True:
            job = self._jobs.get()
            if job is None:
                return
            positions, deadline = job
            try:
                while True:
                    index = self.take()
                    if index >= len(positions):
                        break
                    seconds = None if deadline is None else max(deadline - time.time(), 0.001)
                    solver.start(seconds, None)
                    if self._stopping:
                        break
                    try:
                        score: int | None = solver.search(positions[index], -1, 0)
                    except SolveLimitReached:
                        score = None
                    self._answers.put((index, score, solver.nodes))
            except Exception as exc:  # told to the searching thread, which raises it
                self._answers.put(exc)
                continue
            self._answers.put(None)
