"""Ice Dao's fast positions for the proof-number search (``fourfold.solve.pns``).

A position is ``(board, side)``: the 25 squares' stack codes of the bounded solver
(``fourfold.games.icedao.solver``: its tables and rays) and the side to move. Each
side's squares are kept as a bit mask while moves are generated, so a win at once is
a test of the lines through the target square. The certificates are checked with the
readable rules, never with this.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game
from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.solver import (
    _SLOT,
    HOLDS,
    SQUARES,
    TOP_COLOUR,
    TOP_SIZE,
    WITHOUT_TOP,
    Board,
    ProofSearch,
)
from fourfold.games.icedao.state import IceDaoState

Position = tuple[Board, int]
#: (origin, target, mask of the mover's squares after the move) per slide
Slide = tuple[int, int, int]


class IceDaoPositions:
    """``fourfold.solve.pns.hooks.Positions`` for Ice Dao."""

    def __init__(self, game: IceDaoGame) -> None:
        search = ProofSearch(game)
        self.rays = search.rays
        self.lines_through = search.lines_through

    def key(self, position: Position) -> bytes:
        board, side = position
        return bytes(board) + bytes((side,))

    def side(self, position: Position) -> int:
        return position[1]

    def _slides(self, board: Board, side: int) -> tuple[list[Slide], bool]:
        """Every slide of ``side`` and whether it has a zero-square move (pass)."""
        mask = 0
        for sq in range(SQUARES):
            if HOLDS[board[sq]][side]:
                mask |= 1 << sq
        slides: list[Slide] = []
        can_pass = False
        for s in range(SQUARES):
            code = board[s]
            if TOP_COLOUR[code] != side:
                continue
            z = TOP_SIZE[code]
            left = mask if HOLDS[WITHOUT_TOP[code]][side] else mask & ~(1 << s)
            for ray in self.rays[s]:
                t = s
                for q in ray:
                    if TOP_SIZE[board[q]] <= z:
                        break
                    t = q
                if t == s:
                    can_pass = True
                else:
                    slides.append((s, t, left | (1 << t)))
        return slides, can_pass

    def _wins(self, slide: Slide) -> bool:
        after = slide[2]
        return any(after & line == line for line in self.lines_through[slide[1]])

    def wins_at_once(self, position: Position) -> bool:
        board, side = position
        slides, _ = self._slides(board, side)
        tops = self._other_tops(board, side)
        return any(self._wins(m) or self._stuck_after(board, side, m, tops) for m in slides)

    @staticmethod
    def _other_tops(board: Board, side: int) -> int:
        return sum(1 for code in board if TOP_COLOUR[code] == 1 - side)

    @staticmethod
    def _stuck_after(board: Board, side: int, slide: Slide, tops: int) -> bool:
        """Whether the other side has no top piece after ``slide`` (``tops``: its top
        pieces before; a full set never runs out, a set-up may)."""
        s, t, _ = slide
        other = 1 - side
        tops -= TOP_COLOUR[board[t]] == other
        tops += TOP_COLOUR[WITHOUT_TOP[board[s]]] == other
        return tops == 0

    def successors(self, position: Position) -> list[tuple[Position, bool]]:
        board, side = position
        slides, can_pass = self._slides(board, side)
        tops = self._other_tops(board, side)
        out: list[tuple[Position, bool]] = []
        for slide in slides:
            s, t, _ = slide
            new = list(board)
            z = TOP_SIZE[board[s]]
            new[s] = WITHOUT_TOP[board[s]]
            new[t] = board[t] + _SLOT[z] * (side + 1)
            won = self._wins(slide) or self._stuck_after(board, side, slide, tops)
            out.append(((tuple(new), 1 - side), won))
        if can_pass:
            out.append(((board, 1 - side), False))
        return out


def positions(game: Game[Any, Any]) -> IceDaoPositions:
    assert isinstance(game, IceDaoGame)
    return IceDaoPositions(game)


def position_of(game: Game[Any, Any], state: IceDaoState) -> Position:
    return ProofSearch.key_of(state)
