"""The one protocol every game implements.

States are immutable values and ``apply`` is pure: it returns a new state and
never touches its input. Moves are small frozen values; ``parse_move`` and
``format_move`` are the notation pair; ``encode``/``decode`` give the dense
action numbering that bots, kernels and RL environments share. What a player
(or a bot, or a log written for them) may see is ``view(state, player)``.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from fourfold.core import display
from fourfold.core.errors import FourfoldError, GameOverError, IllegalMoveError
from fourfold.core.outcome import Outcome
from fourfold.core.spec import GameInfo

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class View:
    """What one recipient may know. For perfect-information games it is the whole state.

    ``player`` is the seat looking, or ``None`` for a spectator (the public view).
    ``observation`` is game-specific; hidden-information games put a redacted value
    there, built in one place (the game's ``view``). Everything a recipient is sent
    (legal moves, errors, records, events) is computed from its ``View`` by the
    ``view_*`` methods, never from the referee's state.
    """

    player: int | None
    observation: Any
    #: an ending declared from outside the moves (resignation, agreement, a clock);
    #: the rules' own outcome is read from the observation
    declared: Outcome | None = None


def _remembering(method: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a method returning a state so the state knows its game (``core.display``)."""

    @functools.wraps(method)
    def wrapper(self: Game[Any, Any], *args: Any, **kwargs: Any) -> Any:
        state = method(self, *args, **kwargs)
        display.remember(self, state)
        return state

    return wrapper


class Game(ABC, Generic[S, M]):
    """A configured game: rules for one variant with its option values."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("initial_state", "parse_position", "apply"):
            if name in cls.__dict__:
                setattr(cls, name, _remembering(cls.__dict__[name]))

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
        new = self.next_state(state, move)
        display.remember(self, new)
        return new

    def play(self, state: S, move: M | str) -> S:
        """Apply a move, given as a move value or in notation (as ``Match.play``)."""
        if isinstance(move, str):
            move = self.parse_move(state, move)
        return self.apply(state, move)

    def __repr__(self) -> str:
        return f"<Game {self.info.label()}>"

    def __reduce__(self) -> tuple[Any, ...]:
        """A configured game pickles as (name, variant, options) and unpickles through the
        registry, so process pools, Dask workers and OpenSpiel's serialisation get the
        same configured game (in one process, the very same object)."""
        import pickle

        from fourfold.core import registry

        if not registry.is_registered(self.info.spec):
            raise pickle.PicklingError(
                f"cannot pickle {self!r}: game {self.name!r} is not in the registry"
                " (fourfold.register), so it could not be loaded back")
        return (registry.reload, (self.name, self.info.variant, self.info.option_strings()))

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

    # -- endings from outside the moves ----------------------------------------------------
    def could_still_win(self, state: S, player: int) -> bool:
        """Whether ``player`` could still win by some sequence of legal moves.

        Used when the other side runs out of time: the game is drawn instead of lost
        when the side with time left could no longer win at all. Games that can tell
        override this; the default (always ``True``) is the cautious answer.
        """
        return True

    @property
    def shared_clock_seconds(self) -> int | None:
        """Seconds on a timer the whole table shares (a rule of the game), or ``None``."""
        return None

    def time_out(self, state: S, player: int | None) -> Outcome:
        """The ending when ``player``'s clock (``None``: the shared clock) runs out.

        Two-player games: the other side wins, or it is a draw when the other side
        could no longer win at all. Games with a shared clock override this.
        """
        if player is None or self.num_players != 2:
            raise FourfoldError(f"{self.name} has no shared clock to run out")
        other = 1 - player
        late = f"{self.player_name(player)} ran out of time"
        if self.could_still_win(state, other):
            return Outcome.win(other, late)
        return Outcome.draw(f"{late}, but {self.player_name(other)} could no longer win")

    # -- views ----------------------------------------------------------------------------
    def check_viewer(self, player: int | None) -> None:
        """Refuse a seat that does not exist (``None``, a spectator, always exists)."""
        if player is not None and (
            not isinstance(player, int) or isinstance(player, bool)
            or not 0 <= player < self.num_players
        ):
            raise FourfoldError(
                f"no seat {player!r} in {self.name} (seats are 0 to {self.num_players - 1},"
                " or None for a spectator)"
            )

    def view(self, state: S, player: int | None) -> View:
        """What ``player`` (``None``: a spectator) may know of ``state``.

        Perfect information: all of it. A hidden-information game must override this;
        there is deliberately no whole-state default for it.
        """
        self.check_viewer(player)
        if not self.info.spec.perfect_information:
            raise FourfoldError(f"{self.name} hides information but defines no view")
        return View(player, state)

    def revealed_view(self, state: S, player: int | None) -> View:
        """The view once the game has ended by something outside the moves (a resignation,
        a clock): the rules' own view of a finished game, which hides nothing."""
        return self.view(state, player)

    def view_actors(self, view: View) -> tuple[int, ...]:
        """Who may act now, as the viewer can know it (nobody after any ending)."""
        if view.declared is not None:
            return ()
        return self.observed_actors(view)

    def view_outcome(self, view: View) -> Outcome | None:
        """How the game ended, as the viewer knows it: a declared ending, or the rules'."""
        return view.declared or self.observed_outcome(view)

    def observed_actors(self, view: View) -> tuple[int, ...]:
        """Who may act, by the rules, from the observation (games with views override)."""
        return self.actors(view.observation)

    def observed_outcome(self, view: View) -> Outcome | None:
        """The rules' outcome, from the observation (games with views override)."""
        return self.outcome(view.observation)

    def view_legal_moves(self, view: View) -> Sequence[M]:
        """The moves the viewing seat may make now (none for a spectator or a waiting seat)."""
        if view.player is None or view.player not in self.view_actors(view):
            return []
        return self.legal_moves(view.observation)

    def view_legal_action_mask(self, view: View) -> list[bool]:
        mask = [False] * self.num_actions
        for m in self.view_legal_moves(view):
            mask[self.encode(m)] = True
        return mask

    def view_parse_move(self, view: View, text: str) -> M:
        """``parse_move`` reading only the view (notation never depends on hidden cards)."""
        return self.parse_move(view.observation, text)

    def view_format_move(self, view: View, move: M) -> str:
        return self.format_move(view.observation, move)

    def view_position(self, view: View) -> str:
        """The position as text, with only what the viewer may know."""
        return self.format_position(view.observation)

    def view_illegal_reason(self, view: View, move: M) -> str | None:
        """Why the viewer may not make ``move`` now, from the view alone, or ``None``."""
        if view.player is None:
            return "a spectator cannot move"
        if view.player not in self.view_actors(view):
            actors = self.view_actors(view)
            if not actors:
                return "the game is over"
            return f"it is {self.player_name(actors[0])}'s turn"
        return self.illegal_reason(view.observation, move)

    def view_error(self, view: View, move: M) -> IllegalMoveError | None:
        """The error a viewer's move gets, from the view alone (``None``: it is legal).

        It names the move and the viewer's position, so it can be shown to the viewer;
        it can never carry anything the viewer may not know."""
        reason = self.view_illegal_reason(view, move)
        if reason is None:
            return None
        try:
            described = self.view_format_move(view, move)
        except (FourfoldError, ValueError, KeyError, IndexError, TypeError, AttributeError):
            described = "(a move that cannot be written)"
        cls = GameOverError if self.view_outcome(view) is not None else IllegalMoveError
        return cls(described, self.view_position(view), reason)
