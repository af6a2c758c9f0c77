"""Move-generation counts (perft), as RULES.md §4 defines them.

``perft(game, state, d)`` is the number of legal ply sequences of exactly ``d``
plies from ``state``; a finished game contributes nothing deeper.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game


def perft(game: Game[Any, Any], state: Any, depth: int) -> int:
    if depth < 0:
        raise ValueError("perft depth must be >= 0")
    if depth == 0:
        return 1
    moves = game.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(game, game.next_state(state, m), depth - 1) for m in moves)


def perft_table(game: Game[Any, Any], depth: int, state: Any = None) -> list[tuple[int, int]]:
    """``[(1, count1), ..., (depth, count)]`` from ``state`` (default: the start)."""
    start = game.initial_state() if state is None else state
    return [(d, perft(game, start, d)) for d in range(1, depth + 1)]
