"""Warm the compiled code hints use, in the background, as the server starts.

A hint runs the game's solver and its hint bot in a job-pool worker process
(server/jobs.py, server/hints.py). Their numba kernels compile (or load from numba's
cache) on first use, which made the first hint of a server take 9-11 s instead of the
3 s budget (issue 31). At start the server asks a worker process to solve and choose
once, briefly, in every playable ruleset's opening, one ruleset at a time, then every
other worker process to do the same (from numba's cache by then): the kernels are
loaded when the first person asks.

What it costs depends on the cache: a few seconds when the kernels load from it, but
the first start after an install or upgrade compiles them all, which took from about
a minute on an idle machine to over five on a busy one. A range said in advance was
wrong somewhere, so the warm-up says what it did instead: each ruleset whose kernels
were compiled is told on the terminal as it is ready (how many kernels, how long, how
many rulesets of how many), then the whole warm-up's time; a start that only loads
says nothing. (Numba's ``numba:compile`` event, counted in the worker, tells a compile
from a load.)

The warm-up never blocks a request: it runs on a daemon thread of its own, which only
waits on the pool's worker processes (they run below the server's priority). It does
not hold a job slot: a hint asked for meanwhile is queued behind the warm-up in that
worker (no slower than a cold start) and never refused because of it. ``GET
/api/warm-up`` says how far it got (``state``: ``off``, ``running``, ``done`` or
``failed``; ``here``: whether this process's own part, the lobby's bot lists, is
``done``; the rulesets warmed so far, of ``total``; the seconds taken).
``fourfold serve --no-warm-up`` leaves it off (the test servers do, to spare the
processor).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import APIRouter, Request

from fourfold.server.jobs import JobPool

log = logging.getLogger("fourfold.server")

#: seconds each warm-up solve and bot choice may take: enough to load the kernels,
#: not to play well
WARM_SECONDS = 0.05

_warmed_here: list[str] = []
_tried_here: set[tuple[str, str]] = set()
#: numba compilations started in this (worker) process, counted once ``_count_compiles``
#: has run
_compiles = [-1]


def _count_compiles() -> None:
    """Count this process's numba compilations (numba fires ``numba:compile`` only when
    it compiles: a kernel loaded from its cache does not)."""
    if _compiles[0] >= 0:
        return
    from numba.core import event

    class Counter(event.Listener):
        def on_start(self, ev: Any) -> None:
            _compiles[0] += 1

        def on_end(self, ev: Any) -> None:
            pass

    event.register("numba:compile", Counter())  # type: ignore[no-untyped-call]
    _compiles[0] = 0


def rulesets() -> list[tuple[str, str]]:
    """Every playable ruleset, as (game, variant)."""
    from fourfold import game_names, get_spec

    return [(name, variant.name) for name in game_names()
            for variant in get_spec(name).variants if variant.unavailable is None]


def warm_ruleset(name: str, variant: str) -> tuple[int, str | None, float, int]:
    """In a worker process: solve and choose once in the opening of one ruleset (at most
    ``WARM_SECONDS`` each), so that its kernels are compiled or loaded. Returns the
    process id, the ruleset's label (``None``: it has no hints, nothing to warm), the
    seconds it took and how many kernels it compiled (0: all loaded from numba's
    cache); a second call for the same ruleset does nothing."""
    began = time.monotonic()
    _count_compiles()
    compiled = _compiles[0]
    from fourfold import load
    from fourfold.ai import make_bot
    from fourfold.ai.base import Limit
    from fourfold.ai.game_bots import game_bots
    from fourfold.core.errors import FourfoldError
    from fourfold.solve.position import solver_for

    game = load(name, variant)
    label = game.info.label()
    if (name, variant) in _tried_here:
        return os.getpid(), label if label in _warmed_here else None, 0.0, 0
    _tried_here.add((name, variant))
    state = game.initial_state(1)
    seat = next(iter(game.actors(state)), 0)
    view = game.view(state, seat)
    entry = solver_for(game) if game.info.spec.perfect_information else None
    try:
        if entry is not None:
            entry.solve(game, view.observation, WARM_SECONDS)
        bots = game_bots(game)
        bot = make_bot(bots.hint, game, seat, 1, Limit(seconds=WARM_SECONDS))
        if bots.hint_proposes:
            bot.propose(view, float("inf"))
        else:
            bot.choose(view)
    except FourfoldError as error:  # a ruleset without hints: nothing to warm
        log.info("warm-up: %s: %s", label, error)
        return os.getpid(), None, time.monotonic() - began, _compiles[0] - compiled
    _warmed_here.append(label)
    return os.getpid(), label, time.monotonic() - began, _compiles[0] - compiled


def warm_process() -> tuple[int, list[str]]:
    """In a worker process: ``warm_ruleset`` for every playable ruleset. Returns the
    process id and the rulesets warmed."""
    for name, variant in rulesets():
        warm_ruleset(name, variant)
    return os.getpid(), list(_warmed_here)


def _duration(seconds: float) -> str:
    """``48 s`` or ``5 min 12 s``."""
    whole = round(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60} s"


class WarmUp:
    """The server's warm-up: started once from the app's lifespan; ``status()`` for
    ``GET /api/warm-up``."""

    def __init__(self, enabled: bool, say: Callable[[str], object] | None = None) -> None:
        self.enabled = enabled
        #: where progress is told (the server's terminal), when a step compiles
        self.say = say
        self._lock = threading.Lock()
        self._state = "off" if not enabled else "pending"
        self._rulesets: list[str] = []
        self._total: int | None = None
        self._processes: set[int] = set()
        self._seconds: float | None = None
        self._error = ""
        self._here = "none"  # the warm-up of this process (``here``): none, done or failed

    def start(self, jobs: JobPool, here: Callable[[], object] | None = None) -> None:
        """Warm every worker process of ``jobs`` on a daemon thread; returns at once.
        ``here`` is first run on that thread, in this process: what the first visitor
        would otherwise wait for (the lobby's bot lists, ``api.warm_lobby``)."""
        if not self.enabled:
            return
        with self._lock:
            self._state = "running"
        threading.Thread(target=self._run, args=(jobs, here), name="warm-up",
                         daemon=True).start()

    def _tell(self, text: str) -> None:
        if self.say is not None:
            self.say(f"fourfold serve: warm-up: {text}")

    def _run(self, jobs: JobPool, here: Callable[[], object] | None) -> None:
        began = time.monotonic()
        slow = False
        if here is not None:
            try:
                here()
                self._here = "done"
            except Exception:  # the request itself will say what is wrong
                self._here = "failed"
                log.exception("warm-up of this process failed")
        try:
            todo = rulesets()
            with self._lock:
                self._total = len(todo)
            # One ruleset at a time in one worker process: what it compiles is in
            # numba's cache for the others. Each says when it is ready if it was slow
            # (compiled rather than loaded): the first start after an install takes
            # minutes on a busy machine, and a range said in advance was wrong there.
            for done, (name, variant) in enumerate(todo, start=1):
                pid, label, seconds, compiled = jobs.compute(warm_ruleset, name, variant)
                with self._lock:
                    self._processes.add(pid)
                    if label is not None and label not in self._rulesets:
                        self._rulesets.append(label)
                if compiled:
                    if not slow:
                        self._tell("compiling the hint kernels numba's cache did not hold"
                                   " (after an install or upgrade: all of them, minutes on"
                                   " a busy machine); hints wait for it, everything else"
                                   " is answered meanwhile")
                    slow = True
                    self._tell(f"{label or f'{name} {variant}'}: {compiled} kernel(s)"
                               f" compiled in {_duration(seconds)} ({done} of {len(todo)}"
                               f" rulesets, {_duration(time.monotonic() - began)} so far)")
            if jobs.workers > 1:
                # every other worker process loads them (from the cache) at once: each
                # call keeps its process busy, so the pool hands them out one each
                with ThreadPoolExecutor(jobs.workers, thread_name_prefix="warm-up") as threads:
                    answers = list(threads.map(lambda _: jobs.compute(warm_process),
                                               range(jobs.workers)))
                with self._lock:
                    self._processes.update(pid for pid, _ in answers)
        except BaseException as error:  # the pool stopped (shutdown) or a worker died
            with self._lock:
                self._state, self._error = "failed", str(error) or type(error).__name__
            log.warning("warm-up stopped: %s", self._error)
            return
        with self._lock:
            self._seconds = time.monotonic() - began
            self._rulesets.sort()
            self._state = "done"
        if slow:
            self._tell(f"done in {_duration(self._seconds)}: hints are at full speed now")
        log.info("warm-up done in %.1f s: %d ruleset(s) in %d process(es)", self._seconds,
                 len(self._rulesets), len(self._processes))

    def status(self) -> dict[str, Any]:
        with self._lock:
            answer: dict[str, Any] = {"state": self._state, "here": self._here,
                                      "rulesets": sorted(self._rulesets),
                                      "total": self._total,
                                      "processes": len(self._processes),
                                      "seconds": None if self._seconds is None
                                      else round(self._seconds, 2)}
            if self._error:
                answer["error"] = self._error
            return answer


router = APIRouter(prefix="/api")


@router.get("/warm-up", summary="How far the start-up warm-up of the hint kernels got")
def warm_up_status(request: Request) -> dict[str, Any]:
    warm: WarmUp = request.app.state.warmup
    return warm.status()
