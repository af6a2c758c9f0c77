"""Puzzles mined from the server's own finished games (issue 32), after their review.

A reviewed position whose mover had exactly one best move by the solver (a win, or a
draw only one move keeps) is a candidate. A game certified by its own bounded search
(its ``puzzles`` part's ``certify``: Ice Dao, which no solver answers exactly) proves
only short lines, which a review's values do not point at, so its candidates are the
positions nearest the game's end instead. The game's solver then certifies each as the
terminal's miner does (``fourfold.puzzles.certify``: a unique solution at every step
and a win in N, or the only move that does not lose), in a worker process of the job
pool. Certified puzzles join the puzzle page's (``PuzzleStore.add_mined``). Only public
tables' games are mined (a private table's positions stay with its players), and at
most ``PER_GAME`` candidates per game are tried, the last ones first.
"""

from __future__ import annotations

import logging
from typing import Any

from fourfold.analysis.review import Ply
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.puzzles.certify import certify
from fourfold.puzzles.hooks import hooks_for
from fourfold.server.jobs import JobPool
from fourfold.server.live import LiveTable
from fourfold.server.puzzles.catalog import puzzle_id
from fourfold.server.puzzles.store import PuzzleStore

log = logging.getLogger("fourfold.server")
#: candidate positions certified per finished game at most
PER_GAME = 4


def candidates(plies: tuple[Ply, ...], game: Game[Any, Any]) -> list[int]:
    """The plies (from 1) whose position before the move may be a puzzle, last first."""
    if hooks_for(game).certify is not None:  # a bounded search's short lines: the end
        return [p.ply for p in plies][::-1][:PER_GAME]
    found = [p.ply for p in plies if p.source == "solver" and p.before.exact
             and p.before.value in ("win", "draw") and len(p.best) == 1]
    return found[::-1][:PER_GAME]


class Miner:
    def __init__(self, jobs: JobPool, store: PuzzleStore, seconds: float) -> None:
        self.jobs = jobs
        self.store = store
        self.seconds = seconds

    def mine(self, live: LiveTable, match: Match[Any, Any, Any], plies: tuple[Ply, ...]
             ) -> int:
        """Certify the game's candidates and keep the puzzles; how many were kept.
        Called on a job's thread, after the game's review."""
        if live.private:
            return 0
        kept = 0
        for ply in candidates(plies, match.game):
            found = self.jobs.compute(certify, match.game, match.states[ply - 1],
                                      self.seconds)
            if found is not None and self.store.add_mined(puzzle_id(found), found, live.id):
                kept += 1
        if kept:
            log.info("table %s: %d puzzle(s) mined", live.id, kept)
        return kept
