"""A lemma of Ice Dao's rules for certificates: the fewest moves a side needs to win.

*Lemma.* Let H be the squares holding a piece of side A (covered or not). A wins only
(a) when after its move four squares of H make a line of four, or (b) when after its
move the other side has no piece on top. Each move of A carries one of A's pieces
from one square to another, so it adds at most one square to H; a move of the other
side leaves H as it is (rules.md, "Ruling (lines for the opponent, or for both)").
So a line L with k squares of H needs at least 4 - k more moves of A. And (b) never
happens while the other side has a small piece on the board: pieces only land on
larger ones, so nothing ever covers a small, which stays on top. Hence, if the other
side has a small on the board, A needs at least ``min over L of (4 - |L & H|)`` moves
to win, and a claim *A cannot win within n moves* holds at once when that is more
than n.

The certificate checker (``fourfold.solve.certificates``) applies this lemma to
certificates that name it (``"bound": "icedao-lines"``), computed here from the
readable state (its stacks and the game's lines), never from a search or a kernel.
"""

from __future__ import annotations

from typing import Any

from fourfold.games.icedao.pieces import colour, size

NAME = "icedao-lines"
LINE = 4
SMALL = 0


def moves_needed(game: Any, state: Any, side: int) -> int:
    """The fewest moves ``side`` needs to win from ``state`` by the lemma (1 when the
    lemma says nothing: the other side has no small on the board)."""
    held = set()
    other_small = False
    for square, stack in enumerate(state.board):
        for piece in stack:
            if colour(piece) == side:
                held.add(square)
            elif size(piece) == SMALL:
                other_small = True
    if not other_small:
        return 1
    return min(LINE - sum(1 for square in line if square in held) for line in game.lines)
