"""The rules of noughts and crosses: a complete game defined outside Fourfold's tree.

States are immutable; ``apply`` (inherited) is pure. A move is the index of a cell,
0 (a1) to 8 (c3), counted along rank 1 first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fourfold.core.errors import FourfoldError, NotationError
from fourfold.core.game import PerfectInformation
from fourfold.core.outcome import Outcome

SIDE = 3
CELLS = SIDE * SIDE
MARKS = ("X", "O")
EMPTY = "."
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)


def cell_name(cell: int) -> str:
    return f"{'abc'[cell % SIDE]}{cell // SIDE + 1}"


@dataclass(frozen=True)
class NoughtsState:
    """The marks on the board (``None``: empty) and the seat to move."""

    board: tuple[int | None, ...] = (None,) * CELLS
    to_play: int = 0


@dataclass(frozen=True)
class Mark:
    """Put the mover's mark on ``cell``."""

    cell: int


class NoughtsGame(PerfectInformation[NoughtsState, Mark]):
    """Noughts and crosses: X (seat 0) against O (seat 1)."""

    def player_name(self, player: int) -> str:
        return MARKS[player]

    # -- rules ------------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> NoughtsState:
        return NoughtsState()

    def line_of(self, state: NoughtsState) -> tuple[int, tuple[int, int, int]] | None:
        """The seat with a full line, and the line."""
        for line in LINES:
            owner = state.board[line[0]]
            if owner is not None and all(state.board[c] == owner for c in line):
                return owner, line
        return None

    def outcome(self, state: NoughtsState) -> Outcome | None:
        won = self.line_of(state)
        if won is not None:
            owner, line = won
            cells = "-".join(cell_name(c) for c in line)
            return Outcome.win(owner, f"three {MARKS[owner]} in a line, {cells}")
        if all(mark is not None for mark in state.board):
            return Outcome.draw("the board is full with no line of three")
        return None

    def to_move(self, state: NoughtsState) -> int | None:
        return None if self.outcome(state) is not None else state.to_play

    def legal_moves(self, state: NoughtsState) -> Sequence[Mark]:
        if self.outcome(state) is not None:
            return []
        return [Mark(c) for c in range(CELLS) if state.board[c] is None]

    def illegal_reason(self, state: NoughtsState, move: Mark) -> str | None:
        if not 0 <= move.cell < CELLS:
            return f"there is no cell {move.cell}"
        owner = state.board[move.cell]
        if owner is not None:
            return f"{cell_name(move.cell)} already holds an {MARKS[owner]}"
        return None

    def next_state(self, state: NoughtsState, move: Mark) -> NoughtsState:
        board = list(state.board)
        board[move.cell] = state.to_play
        return NoughtsState(tuple(board), 1 - state.to_play)

    # -- notation ---------------------------------------------------------------------
    def parse_move(self, state: NoughtsState, text: str) -> Mark:
        word = text.strip().lower()
        if len(word) != 2 or word[0] not in "abc" or word[1] not in "123":
            raise NotationError("move", text, "name a cell from a1 to c3")
        return Mark("abc".index(word[0]) + SIDE * (int(word[1]) - 1))

    def format_move(self, state: NoughtsState, move: Mark) -> str:
        if not 0 <= move.cell < CELLS:
            raise FourfoldError(f"there is no cell {move.cell}")
        return cell_name(move.cell)

    def parse_position(self, text: str) -> NoughtsState:
        """``X.O/.X./... O``: ranks 3 to 1, then the mark to move."""
        parts = text.strip().split()
        if len(parts) != 2:
            raise NotationError("position", text, "write the ranks, a space, then X or O to move")
        ranks = parts[0].split("/")
        if len(ranks) != SIDE or any(len(r) != SIDE for r in ranks):
            raise NotationError("position", text, "write three ranks of three cells, 3 to 1")
        board: list[int | None] = []
        for rank in reversed(ranks):
            for char in rank.upper():
                if char == EMPTY:
                    board.append(None)
                elif char in MARKS:
                    board.append(MARKS.index(char))
                else:
                    raise NotationError("position", text, f"{char!r} is not ., X or O")
        mover = parts[1].upper()
        if mover not in MARKS:
            raise NotationError("position", text, f"{parts[1]!r} to move is not X or O")
        xs, os = board.count(0), board.count(1)
        if xs - os not in (0, 1):
            raise NotationError("position", text, f"X has {xs} marks and O {os}; X moves first")
        if MARKS.index(mover) != xs - os:
            raise NotationError("position", text, f"with {xs} X and {os} O it is "
                                f"{MARKS[xs - os]}'s turn, not {mover}'s")
        return NoughtsState(tuple(board), MARKS.index(mover))

    def format_position(self, state: NoughtsState) -> str:
        ranks = [
            "".join(EMPTY if m is None else MARKS[m] for m in state.board[r * SIDE:(r + 1) * SIDE])
            for r in reversed(range(SIDE))
        ]
        return f"{'/'.join(ranks)} {MARKS[state.to_play]}"

    # -- dense actions ------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return CELLS

    def encode(self, move: Mark) -> int:
        return move.cell

    def decode(self, action: int) -> Mark:
        if not 0 <= action < CELLS:
            raise FourfoldError(f"action {action} is out of range 0..{CELLS - 1}")
        return Mark(action)
