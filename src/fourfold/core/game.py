"""The one protocol every game implements.

States are immutable values and ``apply`` is pure: it returns a new state and
never touches its input. Moves are small frozen values; ``parse_move`` and
``format_move`` are the notation pair; ``encode``/``decode`` give the dense
action numbering that bots, kernels and RL environments share.

What a player (or a bot, or a log written for them) may see is a ``View[O]``,
made by ``view(state, player)``: ``Game[S, M, O]`` has a state type ``S`` (the
referee's), a move type ``M`` and an observation type ``O`` (one recipient's
knowledge). Everything computed for a recipient (legal moves, masks, errors,
positions, move text) is an *observer method*: it takes a ``View[O]``, never an
``S``. A perfect-information game says so by deriving from ``PerfectInformation``,
whose observation is the state itself (``O = S``); every other game implements its
own ``view`` and observer methods, and there is no default that would hand a
recipient the referee's state.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic

from typing_extensions import TypeVar

from fourfold.core import display
from fourfold.core.errors import (
    ConfigurationError,
    FourfoldError,
    GameOverError,
    IllegalMoveError,
)
from fourfold.core.outcome import Outcome
from fourfold.core.spec import GameInfo

S = TypeVar("S")
M = TypeVar("M")
#: The observation type. Its default, ``Any``, only lets generic code write
#: ``Game[Any, Any]`` and ``View`` for "some game" and "some view"; every game class
#: binds it (``PerfectInformation`` to its state, a hidden-information game to its
#: redacted value), which ``tests/test_view_boundary.py`` checks for each registered game.
O = TypeVar("O", default=Any)  # noqa: E741 (the protocol's own name: Game[S, M, O])


@dataclass(frozen=True)
class View(Generic[O]):
    """What one recipient may know. For perfect-information games it is the whole state.

    ``player`` is the seat looking, or ``None`` for a spectator (the public view).
    ``observation`` is game-specific; hidden-information games put a redacted value
    there, built in one place (the game's ``view``). Everything a recipient is sent
    (legal moves, errors, records, events) is computed from its ``View`` by the
    ``view_*`` methods, never from the referee's state.
    """

    player: int | None
    observation: O
    #: an ending declared from outside the moves (resignation, agreement, a clock);
    #: the rules' own outcome is read from the observation
    declared: Outcome | None = None


def _remembering(method: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a method returning a state so the state knows its game (``core.display``)."""

    @functools.wraps(method)
    def wrapper(self: Game[Any, Any, Any], *args: Any, **kwargs: Any) -> Any:
        state = method(self, *args, **kwargs)
        display.remember(self, state)
        return state

    return wrapper


class Game(ABC, Generic[S, M, O]):
    """A configured game: rules for one variant with its option values.

    The rules (``apply``, ``legal_moves``, ``format_position``...) read the referee's
    state ``S``; the observer methods (``view_*``, ``observed_*``) read a ``View[O]``.
    Derive from ``PerfectInformation`` when every seat may see the whole state;
    otherwise implement ``view`` and every abstract observer method.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("initial_state", "parse_position", "apply"):
            if name in cls.__dict__:
                setattr(cls, name, _remembering(cls.__dict__[name]))

    def __init__(self, info: GameInfo) -> None:
        self.info = info
        perfect = isinstance(self, PerfectInformation)
        if perfect != info.spec.perfect_information:
            says = "perfect" if info.spec.perfect_information else "hidden"
            kind = "derives from" if perfect else "does not derive from"
            raise ConfigurationError(
                f"{type(self).__name__} {kind} PerfectInformation, but the spec of"
                f" {info.name!r} declares {says} information: the two must agree"
            )

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
        """The state after ``move``; raise ``IllegalMoveError`` naming move, position and rule.

        The error describes the move and the position as a spectator sees them (the
        public view), so it may be shown to anyone: it never names a hidden card.
        """
        if self.outcome(state) is not None:
            raise GameOverError(*self._publicly(state, move), "the game is over")
        reason = self.illegal_reason(state, move)
        if reason is not None:
            raise IllegalMoveError(*self._publicly(state, move), reason)
        new = self.next_state(state, move)
        display.remember(self, new)
        return new

    def _publicly(self, state: S, move: M) -> tuple[str, str]:
        """The move and the position as the public view writes them (for ``apply``'s errors)."""
        public = self.view(state, None)
        return self.view_describe_move(public, move), self.view_position(public)

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

    @abstractmethod
    def view(self, state: S, player: int | None) -> View[O]:
        """What ``player`` (``None``: a spectator) may know of ``state``: the one place
        that decides it. ``PerfectInformation`` gives the whole state; a game that hides
        information builds its own observation here."""

    def revealed_view(self, state: S, player: int | None) -> View[O]:
        """The view once the game has ended by something outside the moves (a resignation,
        a clock): the rules' own view of a finished game, which hides nothing."""
        return self.view(state, player)

    # -- observer methods: what a recipient is told, from its view alone -------------------
    @abstractmethod
    def observed_actors(self, view: View[O]) -> tuple[int, ...]:
        """Who may act, by the rules, as the observation shows it."""

    @abstractmethod
    def observed_outcome(self, view: View[O]) -> Outcome | None:
        """The rules' outcome, as the observation shows it."""

    @abstractmethod
    def view_legal_moves(self, view: View[O]) -> Sequence[M]:
        """The moves the viewing seat may make now (none for a spectator or a waiting seat)."""

    @abstractmethod
    def view_illegal_reason(self, view: View[O], move: M) -> str | None:
        """Why the viewer may not make ``move`` now, from the view alone, or ``None``."""

    @abstractmethod
    def view_parse_move(self, view: View[O], text: str) -> M:
        """``parse_move`` reading only the view (notation never depends on hidden cards)."""

    @abstractmethod
    def view_format_move(self, view: View[O], move: M) -> str:
        """``format_move`` writing only what the view holds."""

    @abstractmethod
    def view_position(self, view: View[O]) -> str:
        """The position as text, with only what the viewer may know."""

    def view_describe_move(self, view: View[O], move: M) -> str:
        """Notation for a move, falling back to ``repr`` for values notation cannot express."""
        try:
            return self.view_format_move(view, move)
        except (FourfoldError, ValueError, KeyError, IndexError, TypeError, AttributeError):
            return repr(move)

    def view_actors(self, view: View[O]) -> tuple[int, ...]:
        """Who may act now, as the viewer can know it (nobody after any ending)."""
        try:
            declared = view.declared
        except AttributeError:
            raise _not_a_view(view) from None
        if declared is not None:
            return ()
        return self.observed_actors(view)

    def view_outcome(self, view: View[O]) -> Outcome | None:
        """How the game ended, as the viewer knows it: a declared ending, or the rules'."""
        try:
            declared = view.declared
        except AttributeError:
            raise _not_a_view(view) from None
        return declared or self.observed_outcome(view)

    def view_legal_action_mask(self, view: View[O]) -> list[bool]:
        mask = [False] * self.num_actions
        for m in self.view_legal_moves(view):
            mask[self.encode(m)] = True
        return mask

    def view_error(self, view: View[O], move: M) -> IllegalMoveError | None:
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


def _not_a_view(value: object) -> FourfoldError:
    """The refusal of a state (or anything else) handed to an observer method untyped."""
    return FourfoldError(
        f"not a view but a {type(value).__name__}: observer methods read a View (made by"
        " Game.view), never the referee's state"
    )


class PerfectInformation(Game[S, M, S], Generic[S, M]):
    """A game whose every seat and spectator may see the whole state: ``O = S``.

    Deriving from it is the explicit declaration (it must agree with the spec's
    ``perfect_information``); the observer methods are then the rules read from the
    state in the view. A game that hides anything derives from ``Game`` instead and
    implements ``view`` and the observer methods itself.
    """

    def view(self, state: S, player: int | None) -> View[S]:
        """All of ``state``, for any seat or a spectator."""
        self.check_viewer(player)
        return View(player, state)

    def observed_actors(self, view: View[S]) -> tuple[int, ...]:
        return self.actors(view.observation)

    def observed_outcome(self, view: View[S]) -> Outcome | None:
        return self.outcome(view.observation)

    def view_legal_moves(self, view: View[S]) -> Sequence[M]:
        if view.player is None or view.player not in self.view_actors(view):
            return []
        return self.legal_moves(view.observation)

    def view_illegal_reason(self, view: View[S], move: M) -> str | None:
        if view.player is None:
            return "a spectator cannot move"
        if view.player not in self.view_actors(view):
            actors = self.view_actors(view)
            if not actors:
                return "the game is over"
            return f"it is {self.player_name(actors[0])}'s turn"
        return self.illegal_reason(view.observation, move)

    def view_parse_move(self, view: View[S], text: str) -> M:
        return self.parse_move(view.observation, text)

    def view_format_move(self, view: View[S], move: M) -> str:
        return self.format_move(view.observation, move)

    def view_position(self, view: View[S]) -> str:
        return self.format_position(view.observation)

    def view_describe_move(self, view: View[S], move: M) -> str:
        return self.describe_move(view.observation, move)
