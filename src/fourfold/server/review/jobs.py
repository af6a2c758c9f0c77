"""Reviews of finished games, run in the bounded job pool (server/jobs.py).

A two-player game of perfect information that ends is reviewed at once: the table
calls ``Reviews.finished``, which starts the work, one worker-process job per ply
(``review.work``), and stores the review with the game (``review.store``). A game
with its own review (``analysis.review.own``) gets it in one job. A review
that could not start then (the pool was full, or the server stopped) starts when it is
first asked for. Hidden information: a review is only of a finished game, whose record
hides nothing (a game with hidden cards has turned them all face up); and a review runs
only while its table stays finished at the version it reviews, so it never runs while a
game is live there.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from fourfold.analysis.review import Ply, Review
from fourfold.analysis.review.own import own_review
from fourfold.analysis.review.review import settled
from fourfold.core.match import Match
from fourfold.server.jobs import JobPool, JobRefused
from fourfold.server.live import LiveTable
from fourfold.server.review.store import ReviewStore
from fourfold.server.review.work import best_line, own_body, review_one
from fourfold.server.specs import BOT
from fourfold.solve.position import solver_for

log = logging.getLogger("fourfold.server")
#: MCTS iterations of an estimate where the solver has no answer (the terminal's 4,000
#: halved: the server's pool is shared with hints)
ITERATIONS = 2_000
#: the estimates' seed: a finished game hides nothing, so a fixed seed tells nothing
SEED = 0
#: reviews started by games ending (not by a request) running at once: the pool is
#: shared with hints, which a burst of finished games must not crowd out
AUTOMATIC = 1
#: labels after which the best line is worked out and shown
MISTAKES = ("mistake", "blunder")


class Stopped(Exception):
    """The table moved on (a new game) while its review was running."""


class Reviews:
    """Starts, tracks and serves the reviews of one server's finished tables."""

    def __init__(self, jobs: JobPool, store: ReviewStore, seconds: float) -> None:
        self.jobs = jobs
        self.store = store
        #: solver time per position
        self.seconds = seconds
        #: called on the job's thread with each stored review's plies (puzzle mining)
        self.miner: Callable[[LiveTable, Match[Any, Any, Any], tuple[Ply, ...]], int] | None \
            = None
        self._progress: dict[str, dict[str, int]] = {}
        self._lock = threading.Lock()

    @staticmethod
    def refusal(live: LiveTable) -> str | None:
        """Why ``live``'s game gets no review, or ``None``."""
        game = live.game
        if own_review(game) is not None:
            return None
        if game.num_players != 2 or not game.info.spec.perfect_information:
            return f"a review covers two-player games of perfect information and games" \
                   f" with their own review, not {game.info.label()}"
        return None

    def finished(self, live: LiveTable) -> None:
        """The table's game has ended: start its review, if a person played in it and no
        other review started this way is running (else, and when the pool is full, the
        first request for it starts it)."""
        if live.table.outcome is None or self.refusal(live) is not None:
            return
        if all(seat.kind == BOT for seat in live.seats):
            return
        with self._lock:
            if len(self._progress) >= AUTOMATIC:
                return
        try:
            self._start(live)
        except JobRefused as error:
            log.info("review of table %s not started now: %s", live.id, error.reason)

    def status(self, live: LiveTable, owners: Iterable[str] = ()) -> tuple[int, dict[str, Any]]:
        """``(status, body)``: 200 with the review (or why there is none), 202 while it
        is worked out, 409 before the game ends. Starting it charges ``owners`` (the
        asking client: one review, hint or analysis at a time) and may raise
        ``JobRefused``."""
        table = live.table
        if table.outcome is None:
            return 409, {"type": "refused", "status": 409,
                         "error": "a review opens once the game is over"}
        reason = self.refusal(live)
        if reason is not None:
            return 200, {"type": "review", "id": live.id, "status": "unavailable",
                         "reason": reason}
        stored = self.store.get(live.id)
        if stored is not None and stored[0] == table.version:
            body: dict[str, Any] = json.loads(stored[1])
            return 200, body
        progress = self._start(live, owners)
        return 202, {"type": "review", "id": live.id, "status": "pending", **progress}

    def stored(self, live: LiveTable) -> dict[str, Any] | None:
        """The stored review of the table's final version, if any."""
        stored = self.store.get(live.id)
        if stored is None or stored[0] != live.table.version or live.table.outcome is None:
            return None
        body: dict[str, Any] = json.loads(stored[1])
        return body

    def _start(self, live: LiveTable, owners: Iterable[str] = ()) -> dict[str, int]:
        """The progress of the table's review, started now (in the job pool's lane for
        long jobs, charged to ``owners`` too) if it is not running."""
        with self._lock:
            progress = self._progress.get(live.id)
            if progress is not None:
                return dict(progress)
            table = live.table
            version = table.version
            match = Match.from_record(table.referee_record())  # finished: hides nothing
            fresh = {"done": 0, "total": len(match.moves)}
            self.jobs.submit(["review:" + live.id, *owners],
                             lambda: self._run(live, version, match, fresh), long=True)
            self._progress[live.id] = fresh
            return dict(fresh)

    def _run(self, live: LiveTable, version: int, match: Match[Any, Any, Any],
             progress: dict[str, int]) -> None:
        try:
            stored = self.store.get(live.id)
            if stored is not None and stored[0] == version:  # reviewed by another instance
                return
            if own_review(match.game) is not None:
                self._check(live, version)
                body = self.jobs.compute(own_body, match)
                progress["done"] = progress["total"]
                body.update(type="review", id=live.id, status="ready", version=version)
                self._check(live, version)
                self.store.save(live.id, version, json.dumps(body))
                return
            body, plies = self._review(live, version, match, progress)
            self.store.save(live.id, version, json.dumps(body))
            if self.miner is not None:
                self._check(live, version)
                self.miner(live, match, plies)
        except Stopped:
            log.info("review of table %s stopped: the table moved on", live.id)
        except JobRefused as error:  # a worker process died: asked again, it starts again
            log.warning("review of table %s stopped: %s", live.id, error.reason)
        except Exception as error:  # the database failed (full?): asked again, it starts again
            text = str(error).strip()
            log.error("review of table %s not saved: %s", live.id,
                      text.splitlines()[0] if text else type(error).__name__)
        finally:
            with self._lock:
                self._progress.pop(live.id, None)

    def _check(self, live: LiveTable, version: int) -> None:
        table = live.table
        if table.version != version or table.outcome is None:
            raise Stopped

    def _review(self, live: LiveTable, version: int, match: Match[Any, Any, Any],
                progress: dict[str, int]) -> tuple[dict[str, Any], tuple[Ply, ...]]:
        game = match.game
        plies = []
        for index in range(len(match.moves)):
            self._check(live, version)
            plies.append(self.jobs.compute(review_one, match, index, self.seconds,
                                           ITERATIONS, SEED))
            progress["done"] = index + 1
        outcome = match.outcome
        entry = solver_for(game)
        review = Review(
            game=game.name, variant=game.info.variant, options=game.info.option_strings(),
            players=tuple(game.player_name(p) for p in range(game.num_players)),
            result=None if outcome is None else outcome.score(game.num_players),
            solver=None if entry is None else entry.summary, seconds=self.seconds,
            iterations=ITERATIONS, plies=tuple(settled(plies)))
        body = review.to_json()
        first = None
        for ply, item in zip(review.plies, body["plies"], strict=True):
            item["line"] = []
            if ply.label in MISTAKES and ply.best:
                if first is None:
                    first = ply.ply
                if ply.source == "solver":
                    self._check(live, version)
                    item["line"] = self.jobs.compute(best_line, game,
                                                     match.states[ply.ply - 1], ply.best[0],
                                                     self.seconds)
                else:  # an estimate's best move, alone: no line is proven
                    item["line"] = [ply.best[0]]
        body.update(type="review", id=live.id, status="ready", version=version,
                    first_mistake=first)
        return body, review.plies
