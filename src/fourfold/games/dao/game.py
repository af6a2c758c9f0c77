"""Classic Dao: the 4x4 ancestor of Ice Dao (RULES.md §2, "Sibling ruleset").

Each side has four identical pieces. A piece slides in one of eight
directions as far as it can, stopping at the edge or just before any piece,
and must move at least one square. After a move the mover wins with a
*formation*: four in a row or a column, a 2x2 square, or the four corners.
Otherwise, a piece standing in a corner with its three neighbours all held by
the opponent wins for its owner (the trapper loses). A position that occurs
for the third time with the same side to move is a draw.
"""

from __future__ import annotations

from fourfold.core.errors import NotationError
from fourfold.core.outcome import Outcome
from fourfold.core.spec import GameInfo
from fourfold.games.dao.state import SIDE_LETTERS, DaoState
from fourfold.games.sliding.game import SlidingGame, SlidingMove
from fourfold.games.sliding.geometry import NUM_DIRECTIONS, Square
from fourfold.games.sliding.moves import Slide
from fourfold.games.sliding.positions import EMPTY, format_layout, parse_layout

SIDE = 4
PIECES_EACH = 4
START = "O,.,.,X/.,O,X,./.,X,O,./X,.,.,O X"  # X on a1 b2 c3 d4, O on a4 b3 c2 d1


class DaoGame(SlidingGame[DaoState]):
    """Classic Dao on a 4x4 board, X (seat 0, moves first) against O (seat 1)."""

    def __init__(self, info: GameInfo) -> None:
        super().__init__(info, SIDE)
        formations: list[tuple[int, tuple[Square, ...], str]] = []
        for line in self.board.lines(PIECES_EACH, diagonals=False):
            same_rank = len({self.board.coords(sq)[1] for sq in line}) == 1
            kind = "four in a row" if same_rank else "four in a column"
            formations.append((self._mask(line), line, f"{kind}, {self.board.describe_line(line)}"))
        for sq in range(self.board.num_squares):
            x, y = self.board.coords(sq)
            if x < SIDE - 1 and y < SIDE - 1:
                block = (sq, sq + 1, sq + SIDE, sq + SIDE + 1)
                where = self.board.describe_line(block)
                formations.append((self._mask(block), block, f"a 2x2 square, {where}"))
        corners = self.board.corners()
        formations.append((self._mask(corners), corners, "all four corners"))
        self.formations = tuple(formations)
        self.traps = tuple((c, self.board.neighbours(c)) for c in corners)
        self.start = self.parse_position(START)

    @staticmethod
    def _mask(squares: tuple[Square, ...]) -> int:
        return sum(1 << sq for sq in squares)

    def player_name(self, player: int) -> str:
        return SIDE_LETTERS[player]

    # -- rules ------------------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> DaoState:
        return self.start

    def outcome(self, state: DaoState) -> Outcome | None:
        mover = 1 - state.to_play
        if state.formation is not None:
            return Outcome.win(mover, str(state.formation_name))
        if state.trapped is not None:
            owner = state.board[state.trapped]
            assert owner is not None
            return Outcome.win(
                owner,
                f"the {SIDE_LETTERS[owner]} on {self.board.name(state.trapped)} is trapped in its"
                f" corner by three {SIDE_LETTERS[1 - owner]} pieces; the trapper loses",
            )
        return self.drawn(state)

    def stop(self, state: DaoState, origin: Square, direction: int) -> Square:
        """The last empty square before the first piece or the edge."""
        last = origin
        for sq in self.board.rays[origin][direction]:
            if state.board[sq] is not None:
                break
            last = sq
        return last

    def legal_moves(self, state: DaoState) -> list[Slide]:
        """Slides by origin square (a1 first) and direction (north first, clockwise)."""
        if self.outcome(state) is not None:
            return []
        return [
            Slide(origin, direction)
            for origin, owner in enumerate(state.board)
            if owner == state.to_play
            for direction in range(NUM_DIRECTIONS)
            if self.stop(state, origin, direction) != origin
        ]

    def next_state(self, state: DaoState, move: SlidingMove) -> DaoState:
        assert isinstance(move, Slide)  # Dao has no pass: every legal move is a slide
        target = self.stop(state, move.origin, move.direction)
        squares = list(state.board)
        squares[move.origin], squares[target] = None, state.to_play
        board = tuple(squares)
        formation = self._formation(board, state.to_play)
        return DaoState(
            board,
            1 - state.to_play,
            formation[0] if formation else None,
            formation[1] if formation else None,
            None if formation else self._trapped(board),
            state.plies + 1,
            (*state.history, state.key),
            target,
        )

    def _formation(
        self, board: tuple[int | None, ...], side: int
    ) -> tuple[tuple[Square, ...], str] | None:
        mask = sum(1 << sq for sq, owner in enumerate(board) if owner == side)
        for formation_mask, squares, name in self.formations:
            if mask == formation_mask:
                return squares, name
        return None

    def _trapped(self, board: tuple[int | None, ...]) -> Square | None:
        """A corner whose piece has all three neighbours held by the other side."""
        for corner, neighbours in self.traps:
            owner = board[corner]
            if owner is not None and all(board[n] == 1 - owner for n in neighbours):
                return corner
        return None

    # -- messages -----------------------------------------------------------------------------
    def has_piece(self, state: DaoState, square: Square) -> bool:
        return state.board[square] is not None

    def not_yours(self, state: DaoState, square: Square) -> str | None:
        owner = state.board[square]
        if owner is None:
            return f"{self.board.name(square)} is empty"
        if owner != state.to_play:
            letter = SIDE_LETTERS[owner]
            return f"{self.board.name(square)} holds an {letter} piece, not one of yours"
        return None

    def moving_name(self, state: DaoState, origin: Square) -> str:
        return f"the piece on {self.board.name(origin)}"

    def blocking(self, state: DaoState, origin: Square, square: Square) -> str:
        return f"{self.board.name(square)} is occupied"

    # -- position strings -----------------------------------------------------------------------
    def parse_position(self, text: str) -> DaoState:
        squares, to_play = parse_layout(text, self.board, SIDE_LETTERS, self._read_square, START)
        board = tuple(squares)

        def fail(reason: str) -> NotationError:
            return NotationError("position", text, reason)

        for side, letter in enumerate(SIDE_LETTERS):
            count = board.count(side)
            if count != PIECES_EACH:
                raise fail(f"{letter} has {count} pieces; Dao is played with {PIECES_EACH} each")
        mover = 1 - to_play
        own = self._formation(board, to_play)
        if own is not None:
            raise fail(
                f"{SIDE_LETTERS[to_play]}, to move, already has {own[1]}; a formation ends the"
                " game on the move that makes it"
            )
        formation = self._formation(board, mover)
        trapped = None if formation else self._trapped(board)
        if trapped is not None and board[trapped] == mover:
            raise fail(
                f"the {SIDE_LETTERS[mover]} on {self.board.name(trapped)} is trapped by"
                f" {SIDE_LETTERS[to_play]}, who is to move: that trap would have ended the game"
                f" on {SIDE_LETTERS[to_play]}'s own last move"
            )
        return DaoState(
            board,
            to_play,
            formation[0] if formation else None,
            formation[1] if formation else None,
            trapped,
        )

    @staticmethod
    def _read_square(text: str) -> int | None:
        if text == EMPTY:
            return None
        if len(text) == 1 and text.upper() in SIDE_LETTERS:
            return SIDE_LETTERS.index(text.upper())
        raise ValueError(f"{text!r} is not . or a piece letter {' or '.join(SIDE_LETTERS)}")

    def format_position(self, state: DaoState) -> str:
        cells = ["" if p is None else SIDE_LETTERS[p] for p in state.board]
        return format_layout(self.board, cells, SIDE_LETTERS[state.to_play])
