"""Analysis of finished games, as lichess gives after a game: each position's solver
value and best moves, where a solver answers within a bounded time per position.

Only finished games are analysed (every card is face up by then, so nothing hidden is
revealed). The work runs in the server's bounded job pool (server/jobs.py), never on
the event loop nor in the bots' pool: the first request starts it (``202`` with
progress), later ones get the result, which is kept in the database. A client with a
job already running, or a full pool, is refused (429, 503) before any work starts.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable
from typing import Any

from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.server.hub import Hub
from fourfold.server.jobs import JobPool
from fourfold.server.live import LiveTable
from fourfold.solve.position import Solution, Value, preference, solver_for

log = logging.getLogger("fourfold.server")
_progress: dict[str, dict[str, Any]] = {}
_lock = threading.Lock()
#: moves listed per position (the best ones first)
MOVES_SHOWN = 12


def analyse(hub: Hub, live: LiveTable, jobs: JobPool, owners: Iterable[str]
            ) -> tuple[int, dict[str, Any]]:
    """``(status, body)``: 200 with the analysis, 202 while it is computed, 409 during
    a game. Starting the work may raise ``JobRefused`` (429, 503) for ``owners``."""
    table = live.table
    if table.outcome is None:
        return 409, {"type": "refused", "status": 409,
                     "error": "analysis is for finished games"}
    game = live.game
    entry = solver_for(game)
    if entry is None:
        return 200, {"type": "analysis", "id": live.id, "available": False,
                     "reason": f"no solver answers {game.info.label()} positions",
                     "positions": []}
    cached = hub.repo.analysis(live.id)
    if cached is not None and cached[0] == table.version:
        return 200, json.loads(cached[1])
    with _lock:
        progress = _progress.get(live.id)
        if progress is None:
            # a finished game hides nothing: replay the referee's record for the solver
            version = table.version
            match = Match.from_record(table.referee_record())
            states = list(match.states)
            fresh = {"done": 0, "total": len(states)}
            seconds = hub.settings.analysis_seconds
            notation = list(match.notation)

            def work() -> None:
                _run(hub, jobs, live.id, version, game, states, notation, seconds, fresh)

            jobs.submit(owners, work, long=True)  # refused: nothing started or noted
            progress = _progress[live.id] = fresh
    return 202, {"type": "analysis", "id": live.id, "available": True, "complete": False,
                 "done": progress["done"], "total": progress["total"]}


def _moves(game: Game[Any, Any], state: Any, solution: Solution) -> list[dict[str, Any]]:
    return [{"move": game.format_move(state, m.move), "value": m.value.value,
             "distance": m.distance} for m in solution.moves[:MOVES_SHOWN]]


def _position(game: Game[Any, Any], ply: int, state: Any, played: str | None,
              seconds: float) -> dict[str, Any]:
    """One position's values (in a worker process: arguments and answer are pickled)."""
    entry = solver_for(game)
    assert entry is not None
    item: dict[str, Any] = {"ply": ply, "to_move": game.to_move(state), "played": played,
                            "played_value": None, "value": None, "distance": None,
                            "best": [], "moves": []}
    if game.outcome(state) is not None:
        return item
    try:
        solution = entry.solve(game, state, seconds)
    except Exception as error:  # a solver's limit: this position stays open
        item["error"] = str(error)[:200]
        return item
    if solution is not None:
        top = preference(solution.moves[0].value, solution.moves[0].distance) \
            if solution.moves else None
        item.update(
            value=solution.value.value, distance=solution.distance,
            best=[game.format_move(state, m.move) for m in solution.moves
                  if m.value is not Value.UNKNOWN and preference(m.value, m.distance) == top],
            moves=_moves(game, state, solution))
        # the move played, valued even when it is not among the moves listed (a blunder
        # seldom is: they are the best first)
        found = next((m for m in solution.moves
                      if played is not None and game.format_move(state, m.move) == played), None)
        if found is not None:
            item["played_value"] = {"value": found.value.value, "distance": found.distance}
    return item


def _run(hub: Hub, jobs: JobPool, table_id: str, version: int, game: Game[Any, Any],
         states: list[Any], notation: list[str], seconds: float,
         progress: dict[str, Any]) -> None:
    entry = solver_for(game)
    assert entry is not None
    positions = []
    try:
        for ply, state in enumerate(states):
            played = notation[ply] if ply < len(notation) else None
            positions.append(jobs.compute(_position, game, ply, state, played, seconds))
            progress["done"] = ply + 1
        body = {"type": "analysis", "id": table_id, "available": True, "complete": True,
                "solver": entry.summary, "seconds_per_position": seconds,
                "values": "for the player to move", "positions": positions}
        hub.repo.save_analysis(table_id, version, json.dumps(body))
    except Exception as error:  # the database failed (full?): asked again, it starts again
        log.error("analysis of table %s not saved: %s", table_id,
                  str(error).strip().splitlines()[0] if str(error).strip() else error)
    finally:
        with _lock:
            _progress.pop(table_id, None)
