"""Ice Dao (Ryan McGuire): slide pyramids over larger ones; four in a line wins (RULES.md §2).

A side moves one of its pieces that is on top of a stack, in one of eight
directions, as far as it goes: it stops at the edge, or just before a square
whose top piece is the same size or smaller (the top piece of a stack is its
smallest, so "every piece there is larger" means "the top piece is larger").
All zero-square moves are the one move ``pass``. After a move, four of the
mover's pieces on four consecutive squares of a row, column or diagonal win;
a piece counts whether or not it is covered. A position that occurs for the
third time with the same side to move is a draw.
"""

from __future__ import annotations

from fourfold.core.errors import NotationError
from fourfold.core.outcome import Outcome
from fourfold.core.spec import GameInfo
from fourfold.games.icedao.pieces import (
    COLOUR_NAMES,
    COLOURS,
    COPIES,
    SIZE_NAMES,
    Stack,
    colour,
    describe,
    make,
    parse_stack,
    size,
    stack_name,
)
from fourfold.games.icedao.state import IceDaoState
from fourfold.games.sliding.game import SlidingGame, SlidingMove
from fourfold.games.sliding.geometry import NUM_DIRECTIONS, Square
from fourfold.games.sliding.moves import Pass, Slide
from fourfold.games.sliding.positions import EMPTY, format_layout, parse_layout

IceDaoMove = SlidingMove

SIDE = 5
LINE_LENGTH = 4

#: Start layouts by option value, without the side to move (RULES.md §2; the original
#: diagram is lost, so this is a ruling and a named option).
START_LAYOUTS = {
    "crossed": "Gl,Bs,Gm,Bs,Gl/.,.,Bm,.,./.,.,.,.,./.,.,Gm,.,./Bl,Gs,Bm,Gs,Bl",
}
FIRST_PLAYERS = ("blue", "green")


class IceDaoGame(SlidingGame[IceDaoState]):
    """Ice Dao on a 5x5 board, Blue (seat 0) against Green (seat 1)."""

    allow_pass = True

    def __init__(self, info: GameInfo) -> None:
        super().__init__(info, SIDE)
        first = FIRST_PLAYERS.index(info.options["first"])
        self.lines = self.board.lines(LINE_LENGTH)
        self.line_masks = tuple(sum(1 << sq for sq in line) for line in self.lines)
        self.lines_through = tuple(
            tuple(i for i, line in enumerate(self.lines) if sq in line)
            for sq in range(self.board.num_squares)
        )
        self.start = self.parse_position(f"{START_LAYOUTS[info.options['start']]} {COLOURS[first]}")

    def player_name(self, player: int) -> str:
        return COLOUR_NAMES[player]

    # -- rules ------------------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> IceDaoState:
        return self.start

    def outcome(self, state: IceDaoState) -> Outcome | None:
        mover = 1 - state.to_play
        if state.line is not None:
            return Outcome.win(mover, f"four in a line on {self.board.describe_line(state.line)}")
        if state.stuck:
            return Outcome.win(
                mover,
                f"{COLOUR_NAMES[state.to_play]} has no piece on top of a stack and cannot move",
            )
        return self.drawn(state)

    def stop(self, state: IceDaoState, origin: Square, direction: int) -> Square:
        """The last square before one whose top piece is no larger than the mover, or the
        edge (the top piece of a stack is its smallest)."""
        board = state.board
        moving = size(board[origin][-1])
        last = origin
        for sq in self.board.rays[origin][direction]:
            there = board[sq]
            if there and size(there[-1]) <= moving:
                break
            last = sq
        return last

    def legal_moves(self, state: IceDaoState) -> list[IceDaoMove]:
        """Slides by origin square (a1 first) and direction (north first, clockwise),
        then ``pass`` when any top piece of the side to move has a zero-square move."""
        if self.outcome(state) is not None:
            return []
        board = state.board
        moves: list[IceDaoMove] = []
        can_pass = False
        for origin, stack in enumerate(board):
            if not stack or colour(stack[-1]) != state.to_play:
                continue
            for direction in range(NUM_DIRECTIONS):
                if self.stop(state, origin, direction) == origin:
                    can_pass = True
                else:
                    moves.append(Slide(origin, direction))
        if can_pass:
            moves.append(Pass())
        return moves

    def next_state(self, state: IceDaoState, move: IceDaoMove) -> IceDaoState:
        board = state.board
        line = target = None
        if isinstance(move, Slide):
            target = self.stop(state, move.origin, move.direction)
            squares = list(board)
            piece = squares[move.origin][-1]
            squares[move.origin] = squares[move.origin][:-1]
            squares[target] = squares[target] + (piece,)
            board = tuple(squares)
            # The mover had no line before (or the game would be over) and only the
            # target gained a piece of theirs, so a new line runs through the target.
            line = self._line(board, state.to_play, self.lines_through[target])
        return IceDaoState(
            board,
            1 - state.to_play,
            line,
            state.plies + 1,
            (*state.history, state.key),
            target,
        )

    def _line(
        self, board: tuple[Stack, ...], side: int, candidates: tuple[int, ...] | None = None
    ) -> tuple[Square, ...] | None:
        """A line of four squares each holding a piece of ``side`` (covered or not)."""
        mask = 0
        for sq, stack in enumerate(board):
            if any(colour(p) == side for p in stack):
                mask |= 1 << sq
        for i in range(len(self.lines)) if candidates is None else candidates:
            if mask & self.line_masks[i] == self.line_masks[i]:
                return self.lines[i]
        return None

    # -- messages -----------------------------------------------------------------------------
    def has_piece(self, state: IceDaoState, square: Square) -> bool:
        return bool(state.board[square])

    def not_yours(self, state: IceDaoState, square: Square) -> str | None:
        where = self.board.name(square)
        stack = state.board[square]
        if not stack:
            return f"{where} is empty"
        top = stack[-1]
        if colour(top) == state.to_play:
            return None
        mine = [p for p in stack if colour(p) == state.to_play]
        if mine:
            return (f"{where} has no piece of yours on top: your {describe(mine[-1])} there is"
                    f" under the {describe(top)}, and only top pieces move")
        return f"{where} has no piece of yours on top (the top piece is the {describe(top)})"

    def moving_name(self, state: IceDaoState, origin: Square) -> str:
        return f"the {SIZE_NAMES[size(state.board[origin][-1])]} on {self.board.name(origin)}"

    def blocking(self, state: IceDaoState, origin: Square, square: Square) -> str:
        moving = SIZE_NAMES[size(state.board[origin][-1])]
        return (f"{self.board.name(square)} holds a {describe(state.board[square][-1])}, which"
                f" is not larger than a {moving}")

    # -- position strings -----------------------------------------------------------------------
    def parse_position(self, text: str) -> IceDaoState:
        squares, to_play = parse_layout(
            text, self.board, COLOURS, self._read_square, f"{START_LAYOUTS['crossed']} B"
        )
        board = tuple(squares)

        def fail(reason: str) -> NotationError:
            return NotationError("position", text, reason)

        for c in range(len(COLOURS)):
            for s in range(len(SIZE_NAMES)):
                piece = make(c, s)
                count = sum(stack.count(piece) for stack in board)
                if count > COPIES:
                    raise fail(
                        f"{count} {SIZE_NAMES[s]} {COLOUR_NAMES[c]} pieces on the board; each side"
                        f" has only {COPIES} of each size"
                    )
        own = self._line(board, to_play)
        if own is not None:
            raise fail(
                f"{COLOUR_NAMES[to_play]}, to move, already has four in a line on"
                f" {self.board.describe_line(own)}; a line ends the game on the move that makes"
                " it, and the other side's moves cannot make or break it"
            )
        return IceDaoState(board, to_play, self._line(board, 1 - to_play))

    @staticmethod
    def _read_square(text: str) -> Stack:
        if text == EMPTY:
            return ()
        if not text:
            raise ValueError("empty; write . for an empty square")
        return parse_stack(text)

    def format_position(self, state: IceDaoState) -> str:
        return format_layout(
            self.board, [stack_name(s) for s in state.board], COLOURS[state.to_play]
        )
