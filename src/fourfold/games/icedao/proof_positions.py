"""Ice Dao's fast positions for the proof-number search (``fourfold.solve.pns``).

A position is ``(board, side)``: the 25 squares' stack codes of the bounded solver
(``fourfold.games.icedao.solver``, whose move generator this reuses) and the side to
move. The certificates are checked with the readable rules, never with this.
"""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game
from fourfold.games.icedao.game import IceDaoGame
from fourfold.games.icedao.solver import Board, ProofSearch
from fourfold.games.icedao.state import IceDaoState

Position = tuple[Board, int]


class IceDaoPositions:
    """``fourfold.solve.pns.hooks.Positions`` for Ice Dao."""

    def __init__(self, game: IceDaoGame) -> None:
        self.search = ProofSearch(game)

    def key(self, position: Position) -> bytes:
        board, side = position
        return bytes(board) + bytes((side,))

    def side(self, position: Position) -> int:
        return position[1]

    def successors(self, position: Position) -> list[tuple[Position, bool]]:
        board, side = position
        search = self.search
        out: list[tuple[Position, bool]] = []
        for new, _, target in search.moves(board, side):
            if new is None:
                out.append(((board, 1 - side), False))
                continue
            won = search.wins_now(new, side, target) or search.stuck(new, 1 - side)
            out.append(((new, 1 - side), won))
        return out


def positions(game: Game[Any, Any]) -> IceDaoPositions:
    assert isinstance(game, IceDaoGame)
    return IceDaoPositions(game)


def position_of(game: Game[Any, Any], state: IceDaoState) -> Position:
    return ProofSearch.key_of(state)
