"""Brute-force forced wins and losses in Ice Dao (readable rules only), for the
solver and bench tests."""

from __future__ import annotations

from typing import Any

import fourfold
from fourfold.core.outcome import Result

GAME = fourfold.load("icedao")


def bf_win(state: Any, n: int) -> bool:
    """The side to move forces a win within ``n`` of its moves (readable rules only)."""
    for move in GAME.legal_moves(state):
        child = GAME.next_state(state, move)
        outcome = GAME.outcome(child)
        if outcome is not None:
            if outcome.result is Result.WIN and outcome.winner == state.to_play:
                return True
            continue
        if n > 1 and bf_lose(child, n - 1):
            return True
    return False


def bf_lose(state: Any, n: int) -> bool:
    """Every move of the side to move lets the other side force a win within ``n`` moves."""
    for move in GAME.legal_moves(state):
        child = GAME.next_state(state, move)
        if GAME.outcome(child) is not None or not bf_win(child, n):
            return False
    return True
