"""The one protocol every game implements.

States are immutable values and ``apply`` is pure: it returns a new state and
never touches its input. Moves are small frozen values; ``parse_move`` and
``format_move`` are the notation pair; ``encode``/``decode`` give the dense
action numbering that bots, kernels and RL environments share. What a player
(or a bot, or a log written for them) may see is ``view(state, player)``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from fourfold.core.errors import FourfoldError, GameOverError, IllegalMoveError
from fourfold.core.outcome import Outcome
from fourfold.core.spec import GameInfo

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class View:
    """What one player may know. For perfect-information games it is the whole state.

    ``observation`` is game-specific; hidden-information games put a redacted
    value there, built in one place (the game's ``view``).
    """

    player: int
    observation: Any


class Game(ABC, Generic[S, M]):
    """A configured game: rules for one variant with its option values."""

    def __init__(self, info: GameInfo) -> None:
        self.info = info

    # -- metadata ---------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.info.name

    @property
    def num_players(self) -> int:
        return self.info.num_players

    def player_name(self, player: int) -> str:
        """How the rules call a seat (``Player 1``, ``Blue``...)."""
        return f"Player {player + 1}"

    # -- rules ----------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, seed: int | None = None) -> S:
        """The start position of this variant.

        Games with a random deal (Quatrefoil) draw it from ``seed``; the same
        seed always gives the same deal. Games without chance ignore it.
        """

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The player who acts next, or ``None`` once the game is over (or, in a
        real-time game, when no single player has the turn: see ``actors``)."""

    def actors(self, state: S) -> tuple[int, ...]:
        """Every player who may act now: the player to move, or all seats in real time."""
        player = self.to_move(state)
        return () if player is None else (player,)

    @abstractmethod
    def legal_moves(self, state: S) -> Sequence[M]:
        """Every legal move, in a fixed order; empty once the game is over."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abstractmethod
    def next_state(self, state: S, move: M) -> S:
        """The state after a move already known to be legal (no checks)."""

    def illegal_reason(self, state: S, move: M) -> str | None:
        """Why ``move`` is illegal in ``state``, or ``None`` if it is legal.

        Games override this to explain the rule that forbids the move.
        """
        return None if move in self.legal_moves(state) else "it is not a legal move here"

    def apply(self, state: S, move: M) -> S:
        """The state after ``move``; raise ``IllegalMoveError`` naming move, position and rule."""
        if self.outcome(state) is not None:
            raise GameOverError(
                self.describe_move(state, move), self.format_position(state), "the game is over"
            )
        reason = self.illegal_reason(state, move)
        if reason is not None:
            raise IllegalMoveError(
                self.describe_move(state, move), self.format_position(state), reason
            )
        return self.next_state(state, move)

    def play(self, state: S, text: str) -> S:
        """Parse a move in notation and apply it."""
        return self.apply(state, self.parse_move(state, text))

    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None

    # -- notation -----------------------------------------------------------------------
    @abstractmethod
    def parse_move(self, state: S, text: str) -> M:
        """Read a move in this game's notation; raise ``NotationError`` on bad text.

        Parsing checks the form only; ``apply`` checks legality.
        """

    @abstractmethod
    def format_move(self, state: S, move: M) -> str:
        """Write a move in notation (``parse_move(state, format_move(state, m)) == m``)."""

    @abstractmethod
    def parse_position(self, text: str) -> S:
        """Read a position string; raise ``NotationError`` saying what is impossible."""

    @abstractmethod
    def format_position(self, state: S) -> str:
        """Write a position string (``parse_position(format_position(s)) == s``)."""

    def describe_move(self, state: S, move: M) -> str:
        """Notation for a move, falling back to ``repr`` for values notation cannot express."""
        try:
            return self.format_move(state, move)
        except (FourfoldError, ValueError, KeyError, IndexError, TypeError):
            return repr(move)

    # -- dense actions --------------------------------------------------------------------
    @property
    @abstractmethod
    def num_actions(self) -> int:
        """The size of the action space; every move encodes to ``0 <= a < num_actions``."""

    @abstractmethod
    def encode(self, move: M) -> int:
        """The action number of a move."""

    @abstractmethod
    def decode(self, action: int) -> M:
        """The move of an action number; raise ``FourfoldError`` if out of range."""

    def legal_actions(self, state: S) -> list[int]:
        return sorted(self.encode(m) for m in self.legal_moves(state))

    def legal_action_mask(self, state: S) -> list[bool]:
        mask = [False] * self.num_actions
        for m in self.legal_moves(state):
            mask[self.encode(m)] = True
        return mask

    # -- views ----------------------------------------------------------------------------
    def view(self, state: S, player: int) -> View:
        """What ``player`` may know of ``state``: all of it, for perfect information."""
        if not 0 <= player < self.num_players:
            raise FourfoldError(f"no player {player} in {self.name}")
        return View(player, state)

    def view_legal_moves(self, view: View) -> Sequence[M]:
        """The legal moves as the viewing player can know them (all public here)."""
        return self.legal_moves(view.observation)
