"""What Ice Dao and classic Dao share: a piece slides as far as it goes.

``SlidingGame`` holds the board geometry, the ``FROM-TO`` move notation (read
against the position, see ``moves``), the explanations of slides the rules
refuse, the dense actions (origin square x direction, then ``pass`` where the
game has it) and the draws by repetition and length cap. Each game says what
blocks a piece (``stop``), who may move what stands on a square
(``not_yours``) and how to name pieces in messages.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar, Protocol, TypeVar

from fourfold.core.errors import FourfoldError, checked_action
from fourfold.core.game import PerfectInformation
from fourfold.core.outcome import Outcome
from fourfold.core.spec import GameInfo
from fourfold.games.sliding.geometry import NUM_DIRECTIONS, Square, board_of_size
from fourfold.games.sliding.limits import repetition_or_cap
from fourfold.games.sliding.moves import (
    PASS_TEXT,
    Pass,
    Slide,
    check_slide_fields,
    read_move_text,
)

SlidingMove = Slide | Pass


class SlidingPosition(Protocol):
    """What the shared rules read from a state."""

    @property
    def to_play(self) -> int: ...

    @property
    def plies(self) -> int: ...

    @property
    def repetitions(self) -> int: ...


S = TypeVar("S", bound=SlidingPosition)


class SlidingGame(PerfectInformation[S, SlidingMove]):
    """A two-player game on a square board where a piece slides as far as it goes."""

    #: whether the zero-square moves exist, as the one move ``pass``
    allow_pass: ClassVar[bool] = False

    def __init__(self, info: GameInfo, size: int) -> None:
        super().__init__(info)
        self.board = board_of_size(size)
        self.max_plies: int | None = info.options["max-plies"]

    # -- what each game defines ---------------------------------------------------------------
    @abstractmethod
    def stop(self, state: S, origin: Square, direction: int) -> Square:
        """Where the piece moving from ``origin`` stops in ``direction`` (maybe ``origin``)."""

    @abstractmethod
    def has_piece(self, state: S, square: Square) -> bool:
        """Whether a piece stands on ``square``."""

    @abstractmethod
    def not_yours(self, state: S, square: Square) -> str | None:
        """Why the side to move has no piece to move on ``square``, or ``None``."""

    @abstractmethod
    def moving_name(self, state: S, origin: Square) -> str:
        """The piece that would move, for messages: ``the medium on c4``."""

    @abstractmethod
    def blocking(self, state: S, origin: Square, square: Square) -> str:
        """Why ``square`` stops the piece from ``origin``: ``c3 is occupied``."""

    # -- rules shared by both -----------------------------------------------------------------
    def to_move(self, state: S) -> int | None:
        return None if self.outcome(state) is not None else state.to_play

    def drawn(self, state: S) -> Outcome | None:
        """The draw by the third occurrence of a position, or by the length cap."""
        return repetition_or_cap(
            state.repetitions, state.plies, self.max_plies, self.player_name(state.to_play)
        )

    def illegal_reason(self, state: S, move: SlidingMove) -> str | None:
        if isinstance(move, Pass):
            if not self.allow_pass:
                return "there is no pass in this game: a piece must move at least one square"
            if move in self.legal_moves(state):
                return None
            return ("none of your top pieces is blocked in any direction, so there is no"
                    " zero-square move (pass)")
        if not isinstance(move, Slide):
            return f"{move!r} is not a move of {self.info.spec.title}"
        bad = check_slide_fields(move, self.board)
        if bad is not None:
            return bad
        bad = self.not_yours(state, move.origin)
        if bad is not None:
            return bad
        mover = self.moving_name(state, move.origin)
        way = move.direction_name
        stop = self.stop(state, move.origin, move.direction)
        why = self.why_stop(state, move.origin, move.direction)
        if stop == move.origin:
            rule = (" (a zero-square move is the move pass)" if self.allow_pass
                    else "; a piece must move at least one square")
            return f"{mover} cannot move {way} at all, because {why}{rule}"
        if move.written is not None and move.written != stop:
            name = self.board.name
            ray = self.board.rays[move.origin][move.direction]
            if ray.index(move.written) < ray.index(stop):
                return (f"{mover} cannot stop on {name(move.written)}: moving {way} it slides on"
                        f" to {name(stop)}, as a piece always goes as far as it can ({why})")
            return (f"{mover} cannot stop on {name(move.written)}: moving {way} it slides to"
                    f" {name(stop)}, because {why}")
        return None

    def why_stop(self, state: S, origin: Square, direction: int) -> str:
        """Why a piece sliding from ``origin`` stops where it does."""
        ray = self.board.rays[origin][direction]
        stop = self.stop(state, origin, direction)
        after = ray.index(stop) + 1 if stop != origin else 0
        if after == len(ray):
            return "it reaches the edge of the board"
        return self.blocking(state, origin, ray[after])

    # -- notation -------------------------------------------------------------------------------
    def parse_move(self, state: S, text: str) -> SlidingMove:
        read = read_move_text(text, self.board, allow_pass=self.allow_pass)
        if isinstance(read, Pass):
            return read
        origin, target = read
        direction = self.board.direction_between(origin, target)
        assert direction is not None  # read_move_text refuses moves off a straight line
        if self.has_piece(state, origin) and self.stop(state, origin, direction) == target:
            return Slide(origin, direction)
        return Slide(origin, direction, target)

    def format_move(self, state: S, move: SlidingMove) -> str:
        if isinstance(move, Pass):
            return PASS_TEXT
        bad = check_slide_fields(move, self.board)
        if bad is not None:
            raise FourfoldError(bad)
        name = self.board.name
        if move.written is not None:
            return f"{name(move.origin)}-{name(move.written)}"
        if not self.has_piece(state, move.origin):
            raise FourfoldError(f"{name(move.origin)} is empty: nothing to slide")
        stop = self.stop(state, move.origin, move.direction)
        if stop == move.origin:
            where = name(move.origin)
            raise FourfoldError(f"the piece on {where} cannot move {move.direction_name}")
        return f"{name(move.origin)}-{name(stop)}"

    def describe_move(self, state: S, move: SlidingMove) -> str:
        """Notation, or ``c3 north`` for a slide that notation cannot write."""
        try:
            return self.format_move(state, move)
        except FourfoldError:
            if isinstance(move, Slide) and check_slide_fields(move, self.board) is None:
                return f"{self.board.name(move.origin)} {move.direction_name}"
            return repr(move)

    # -- dense actions: origin square x direction, then pass -----------------------------------
    @property
    def num_actions(self) -> int:
        return self.board.num_squares * NUM_DIRECTIONS + (1 if self.allow_pass else 0)

    def encode(self, move: SlidingMove) -> int:
        if isinstance(move, Pass) and self.allow_pass:
            return self.num_actions - 1
        if not isinstance(move, Slide):
            raise FourfoldError(f"cannot encode {move!r}: no such move in {self.info.spec.title}")
        bad = check_slide_fields(move, self.board)
        if bad is not None:
            raise FourfoldError(f"cannot encode {move!r}: {bad}")
        if move.written is not None:
            raise FourfoldError(
                f"cannot encode {self.board.name(move.origin)}-{self.board.name(move.written)}:"
                " the piece does not stop there, so it is no move of the game"
            )
        return move.origin * NUM_DIRECTIONS + move.direction

    def decode(self, action: int) -> SlidingMove:
        checked_action(action, self.num_actions)
        if self.allow_pass and action == self.num_actions - 1:
            return Pass()
        origin, direction = divmod(action, NUM_DIRECTIONS)
        return Slide(origin, direction)
