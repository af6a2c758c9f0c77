"""Dao's ``puzzles`` part: certified by the generic certifier (Dao is solved), themed
with the sliding motifs (``pin``, ``double threat``)."""

from __future__ import annotations

from typing import Any

from fourfold.games.sliding.puzzle_themes import sliding_themes
from fourfold.puzzles.hooks import PuzzleHooks


def _owner(state: Any, square: int) -> int | None:
    owner: int | None = state.board[square]
    return owner


PUZZLES = PuzzleHooks(themes=sliding_themes(_owner))
