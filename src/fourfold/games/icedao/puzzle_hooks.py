"""Ice Dao's ``puzzles`` part: puzzles certified by the bounded proof search
(``puzzle_certify``), themed with the sliding motifs (``pin``, ``double threat``).

Light on purpose: the search is imported by the first certification.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game
from fourfold.games.icedao.pieces import colour
from fourfold.games.sliding.puzzle_themes import sliding_themes
from fourfold.puzzles.hooks import Certified, PuzzleHooks


def _certify(game: Game[Any, Any], state: Any, seconds: float) -> Certified | None:
    from fourfold.games.icedao.puzzle_certify import certify

    return certify(game, state, seconds)


def _owner(state: Any, square: int) -> int | None:
    stack = state.board[square]
    return colour(stack[-1]) if stack else None


PUZZLES = PuzzleHooks(certify=_certify, themes=sliding_themes(_owner))
