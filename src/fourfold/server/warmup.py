"""Warm the compiled code hints use, in the background, as the server starts.

A hint runs the game's solver and its hint bot in a job-pool worker process
(server/jobs.py, server/hints.py). Their numba kernels compile (or load from numba's
cache) on first use, which made the first hint of a server take 9-11 s instead of the
3 s budget (issue 31). At start the server asks each worker process to solve and
choose once, briefly, in every playable ruleset's opening: the kernels are then
loaded when the first person asks.

The warm-up never blocks a request: it runs on a daemon thread of its own, which only
waits on the pool's worker processes (they run below the server's priority). It does
not hold a job slot: a hint asked for meanwhile is queued behind the warm-up in that
worker (no slower than a cold start) and never refused because of it. ``GET
/api/warm-up`` says how far it got (``state``: ``off``, ``running``, ``done`` or
``failed``; ``here``: whether this process's own part, the lobby's bot lists, is
``done``; the rulesets warmed; the seconds taken). ``fourfold serve --no-warm-up``
leaves it off (the test servers do, to spare the processor).
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


def warm_process() -> tuple[int, list[str]]:
    """In a worker process: solve and choose once in every playable ruleset's opening
    (at most ``WARM_SECONDS`` each), so that the kernels are compiled or loaded.
    Returns the process id and the rulesets warmed; a second call does nothing."""
    if _warmed_here:
        return os.getpid(), list(_warmed_here)
    from fourfold import game_names, get_spec, load
    from fourfold.ai import make_bot
    from fourfold.ai.base import Limit
    from fourfold.ai.game_bots import game_bots
    from fourfold.core.errors import FourfoldError
    from fourfold.solve.position import solver_for

    for name in game_names():
        for variant in get_spec(name).variants:
            if variant.unavailable is not None:
                continue
            game = load(name, variant.name)
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
                log.info("warm-up: %s: %s", game.info.label(), error)
                continue
            _warmed_here.append(game.info.label())
    return os.getpid(), list(_warmed_here)


class WarmUp:
    """The server's warm-up: started once from the app's lifespan; ``status()`` for
    ``GET /api/warm-up``."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._lock = threading.Lock()
        self._state = "off" if not enabled else "pending"
        self._rulesets: list[str] = []
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

    def _run(self, jobs: JobPool, here: Callable[[], object] | None) -> None:
        began = time.monotonic()
        if here is not None:
            try:
                here()
                self._here = "done"
            except Exception:  # the request itself will say what is wrong
                self._here = "failed"
                log.exception("warm-up of this process failed")
        try:
            # One call per worker at once: each keeps its process busy for seconds, so
            # the pool hands the others to the other processes.
            with ThreadPoolExecutor(jobs.workers, thread_name_prefix="warm-up") as threads:
                answers = list(threads.map(lambda _: jobs.compute(warm_process),
                                           range(jobs.workers)))
        except BaseException as error:  # the pool stopped (shutdown) or a worker died
            with self._lock:
                self._state, self._error = "failed", str(error) or type(error).__name__
            log.warning("warm-up stopped: %s", self._error)
            return
        with self._lock:
            self._seconds = time.monotonic() - began
            self._processes = {pid for pid, _ in answers}
            self._rulesets = sorted({label for _, labels in answers for label in labels})
            self._state = "done"
        log.info("warm-up done in %.1f s: %d ruleset(s) in %d process(es)", self._seconds,
                 len(self._rulesets), len(self._processes))

    def status(self) -> dict[str, Any]:
        with self._lock:
            answer: dict[str, Any] = {"state": self._state, "here": self._here,
                                      "rulesets": list(self._rulesets),
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
