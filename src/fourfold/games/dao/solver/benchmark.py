"""The Dao table's figures for docs/solutions.md: build, store and load times, and counts."""

from __future__ import annotations

import os
import tempfile
import time
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.games.dao.solver.build import build_table
from fourfold.games.dao.solver.figures import by_distance, summarize, symmetry_classes
from fourfold.games.dao.solver.index import LOSS, WIN, _game
from fourfold.games.dao.solver.lookup import solve
from fourfold.games.dao.solver.storage import full_table, hold_table


def benchmark() -> dict[str, Any]:
    """Build the table twice from scratch in a fresh temporary cache (the first build may
    include numba's compilation; the second is the pure build), store it, reload it
    through the cache (checking the stored hash), and return the figures of
    docs/solutions.md. The hook for ``fourfold bench`` and benchmarks/bench_solve_dao.py."""
    saved = os.environ.get("FOURFOLD_CACHE")
    try:
        with tempfile.TemporaryDirectory() as cache:
            os.environ["FOURFOLD_CACHE"] = cache
            t0 = time.perf_counter()
            build_table()
            first = time.perf_counter() - t0
            packed, info = build_table()
            t0 = time.perf_counter()
            hold_table(None)
            stored = full_table()  # nothing cached: builds once more, and stores
            store_seconds = time.perf_counter() - t0
            hold_table(None)
            t0 = time.perf_counter()
            loaded = full_table()
            load_seconds = time.perf_counter() - t0
            hold_table(None)
            if not ((loaded == packed).all() and (stored == packed).all()):
                raise FourfoldError("the Dao table read back from the cache differs from"
                                    " the one built")
    finally:
        if saved is None:
            os.environ.pop("FOURFOLD_CACHE", None)
        else:
            os.environ["FOURFOLD_CACHE"] = saved
    summary = summarize(packed)
    game = _game()
    start = game.initial_state()
    hold_table(packed)  # for the start's move values below
    solution = solve(game, start)
    assert solution is not None
    return {
        "first_build_seconds": round(first, 2),
        "build_seconds": round(info.seconds, 2),
        "build_and_store_seconds": round(store_seconds, 2),
        "load_seconds": round(load_seconds, 4),
        "levels": info.levels,
        "table_bytes": int(packed.nbytes),
        "start_value": solution.value.value,
        "start_moves": [[game.format_move(start, m.move), m.value.value, m.distance]
                        for m in solution.moves],
        "positions": summary.positions,
        "invalid_indices": summary.invalid,
        "wins": summary.wins,
        "losses": summary.losses,
        "draws": summary.draws,
        "ended": summary.ended,
        "longest_win_plies": summary.longest_win,
        "longest_win_examples": list(summary.longest_win_positions),
        "wins_by_distance": by_distance(packed, WIN),
        "losses_by_distance": by_distance(packed, LOSS),
        "up_to_symmetry": symmetry_classes(packed),
    }
