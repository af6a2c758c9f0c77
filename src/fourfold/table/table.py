"""``Table``: the referee of one game in progress, for any game, with no UI.

It keeps the match, the seats, the version, the clocks, the offers and the bots.

- **Who may act**: ``actors()``: one seat, or every seat at once in real-time play.
- **Versions**: every accepted change of the game (a move, an undo, an ending)
  raises ``version`` by one. An action sent with an older version is refused, with
  how many changes landed since.
- **Views only**: everything a recipient gets (its view, its legal moves, the error
  for a refused action, events, records, ``snapshot`` and ``history_for``) is
  computed from that recipient's view (``Match.view``), never from the referee's
  state. The match is private: only ``referee_record`` (for storage) hands out the
  whole game. A refusal's reason comes from
  ``Game.view_error``; should the referee still disagree (it cannot, for a correct
  game), the seat is told only that the referee refused.
- **Time** is supplied from outside (``clock``); ``advance()`` does what is due (a
  clock running out, a bot's turn), and ``next_deadline()`` says when to call it next.
- **Bots** think off the caller's thread (a worker thread per table) unless
  ``inline_bots`` is set. A bot's move lands only if the table is still at the version
  it was thinking on; otherwise the work is dropped (cancelled).
- **A bot's timing tells nothing.** When a bot may act, the table draws its visible
  pause from the table's own pause stream (``seed``: it drives nothing else, and never
  the deal) and starts the bot thinking at once; the move is held and released at the
  scheduled time, not when the thinking ends. So how long a bot thinks (which depends
  on its cards) does not show, unless it thinks longer than its whole pause.
- **No free peeking.** Undo is refused while the rules hide anything from anyone
  (``hides_something``): a take-back would let a seat see the informed replies and
  signals its move drew, then rewind (a ruling: see Quatrefoil's rules).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game, View
from fourfold.core.match import Match
from fourfold.core.outcome import Outcome, Result
from fourfold.core.record import Record
from fourfold.core.spec import Utility
from fourfold.table.clocks import ClockSettings, MonotonicClock, TimeSource
from fourfold.table.events import Event, EventKind
from fourfold.table.seats import Seat, SeatKind
from fourfold.table.snapshot import History, Ply, Snapshot

Listener = Callable[[Event], None]



def is_real_time(game: Game[Any, Any], first_actors: tuple[int, ...]) -> bool:
    """Whether several seats may act at once in games of ``game`` whose first position
    lets ``first_actors`` act (Quatrefoil Dual): real-time play, where bots do not wait
    for a turn."""
    return game.info.num_players > 1 and len(first_actors) > 1

class TableError(FourfoldError):
    """An action the table refuses; ``reason`` is written from the actor's view only.

    ``kind`` sorts refusals for a server's status codes: ``"seat"`` (no such seat),
    ``"stale"`` (sent on another version), ``"over"`` (the game is over), ``"turn"``
    (not this seat's turn), ``"save"`` (the change could not be saved), ``"hidden"``
    (past positions asked for while cards are hidden), or ``"refused"`` (anything
    else: an illegal or unreadable move, a bad offer)."""

    def __init__(self, reason: str, kind: str = "refused") -> None:
        self.reason = reason
        self.kind = kind
        super().__init__(reason)


class SaveError(TableError):
    """A change could not be saved (``on_change`` failed), so it was taken back whole."""


@dataclass(frozen=True)
class ClockState:
    """The clocks at one moment, to save and restore a table: the seconds left on each
    player's clock (the mover's already charged up to that moment), and the seconds the
    shared timer has run."""

    left: tuple[float, ...] = ()
    shared_elapsed: float = 0.0


@dataclass
class _Checkpoint:
    states: list[Any]
    moves: list[Any]
    notation: list[str]
    declared: Outcome | None
    version: int
    left: list[float]
    running_since: float
    last_landed: float
    offer: _Offer | None
    seats: list[Seat]
    players: tuple[str, ...]


@dataclass
class _Offer:
    kind: str  # "draw" or "undo"
    seat: int
    version: int
    waiting: set[int]


@dataclass
class _BotJob:
    """One bot's thinking on one version; its answer waits here for the release time."""

    seat: int
    version: int
    future: Future[Any] | None = None
    done: bool = False
    move: Any = None
    failure: BaseException | None = None


class Table:
    """One game in progress. Thread-safe: every public method takes the table's lock."""

    def __init__(
        self,
        game: Game[Any, Any],
        seats: Sequence[Seat] | None = None,
        *,
        start: Any = None,
        match: Match[Any, Any] | None = None,
        clock: TimeSource | None = None,
        player_clock: ClockSettings | None = None,
        seed: int | None = None,
        inline_bots: bool = False,
        version: int = 0,
        clock_state: ClockState | None = None,
        on_change: Callable[[Table], None] | None = None,
        executor: Executor | None = None,
        hold_bots: bool = False,
        on_wake: Callable[[], None] | None = None,
    ) -> None:
        self.game = game
        n = game.num_players
        self.seats: list[Seat] = list(seats) if seats else [
            Seat.human(game.player_name(p)) for p in range(n)
        ]
        if len(self.seats) != n:
            raise FourfoldError(f"{game.name} has {n} seats, got {len(self.seats)}")
        if player_clock is not None and (n != 2 or game.info.spec.utility is not Utility.ZERO_SUM):
            raise FourfoldError("a clock per player is for two-player games")
        self._match: Match[Any, Any] = match if match is not None else Match(
            game, start, [s.name for s in self.seats])
        self.now: TimeSource = clock or MonotonicClock()
        self.version = version
        #: called under the table's lock after every accepted change and before anyone is
        #: told of it (a server saves the table here); if it raises, the change is undone
        self.on_change = on_change
        self._lock = threading.RLock()
        self._deliver = threading.Lock()
        self._listeners: list[tuple[int | None, Listener]] = []
        self._outbox: list[tuple[int | None, Listener, Event]] = []
        #: the bots' visible pauses, and nothing else (never the deal's randomness)
        self._pauses = random.Random(seed)
        self.inline_bots = inline_bots
        #: a shared pool for the bots (a server passes one); else one thread of its own
        self._shared_executor = executor
        self._executor: Executor | None = None
        self._jobs: dict[int, _BotJob] = {}
        self._bot_due: dict[int, float] = {}
        self._offer: _Offer | None = None
        #: the last outcome asked of the rules: (state, declared ending, outcome)
        self._starting = False
        #: bots are scheduled but start only at ``start_bots()`` (a server starts them
        #: once the table is in place, so that their first change can be saved)
        self._bots_held = hold_bots
        #: called (outside the lock) when a bot's thinking ended without telling anyone:
        #: the next deadline may have changed (a server re-arms its timer)
        self.on_wake = on_wake
        started = self.now()
        self._last_landed = started
        # shared timer (Race the Clock, timed Dual): its deadline
        restored = clock_state or ClockState()
        shared = game.shared_clock_seconds
        self._shared_deadline = (None if shared is None
                                 else started + shared - restored.shared_elapsed)
        # a clock per player: seconds left, and since when the mover's clock runs
        self.player_clock = player_clock
        self._left: list[float] = [player_clock.base] * n if player_clock else []
        if player_clock and restored.left:
            if len(restored.left) != n:
                raise FourfoldError(f"a saved clock state needs {n} players' times")
            self._left = list(restored.left)
        self._running_since = started
        self._schedule_bots()

    # -- looking -------------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        return self._outcome()

    def _outcome(self) -> Outcome | None:
        """The match's outcome (``Match`` asks the rules once per position: a change asks
        it a dozen times)."""
        return self._match.outcome

    def actors(self) -> tuple[int, ...]:
        """Every seat that may act now (none once the game is over)."""
        with self._lock:
            if self._outcome() is not None:
                return ()
            return self.game.actors(self._match.state)

    @cached_property
    def real_time(self) -> bool:
        """Whether several seats may act at once (Quatrefoil Dual)."""
        return is_real_time(self.game, self.game.actors(self._match.start))

    def view(self, recipient: int | None) -> View:
        """What ``recipient`` (a seat, or ``None`` for a spectator) may know now."""
        with self._lock:
            return self._match.view(recipient)

    def legal_moves(self, seat: int | None) -> list[str]:
        """The moves ``seat`` may make now, in notation, from its view."""
        with self._lock:
            view = self._match.view(seat)
            return [self.game.view_format_move(view, m) for m in self.game.view_legal_moves(view)]

    def clocks(self) -> tuple[float, ...]:
        """Seconds left: each player's clock, or the shared timer alone, or ``()``."""
        with self._lock:
            return self._clocks(self.now())

    def _clocks(self, now: float) -> tuple[float, ...]:
        if self._shared_deadline is not None:
            return (max(0.0, self._shared_deadline - now),)
        if not self._left:
            return ()
        left = list(self._left)
        mover = self._clock_owner()
        if mover is not None:
            left[mover] = max(0.0, left[mover] - (now - self._running_since))
        return tuple(left)

    def _clock_owner(self) -> int | None:
        if self._outcome() is not None:
            return None
        return self.game.to_move(self._match.state)

    def clock_state(self) -> ClockState:
        """The clocks now, to save (``Table(..., clock_state=...)`` restores them)."""
        with self._lock:
            now = self.now()
            left = self._clocks(now) if self._left else ()
            elapsed = 0.0
            shared = self.game.shared_clock_seconds
            if self._shared_deadline is not None and shared is not None:
                elapsed = min(float(shared), shared - (self._shared_deadline - now))
            return ClockState(tuple(left), max(0.0, elapsed))

    def snapshot(self, recipient: int | None) -> Snapshot:
        """Everything ``recipient`` may know now, taken at one instant: the version, its
        view, the clocks, the open offer, the moves so far as its own record writes
        them, and the last move as the public may know it (``Snapshot``)."""
        self.game.check_viewer(recipient)
        with self._lock:
            game = self.game
            record = self._match.record_for(recipient)
            last = None
            if self._match.moves:
                public = game.view(self._match.states[-2], None)
                try:  # notation never depends on hidden cards: read it from the public view
                    last = game.view_parse_move(public, self._match.notation[-1])
                except (FourfoldError, ValueError, KeyError, IndexError):
                    last = None
            offer = self._offer
            return Snapshot(self.version, recipient, self._match.view(recipient),
                            self._clocks(self.now()),
                            None if offer is None else (offer.kind, offer.seat),
                            tuple(record.moves), last, self._outcome())

    def shows_the_past(self) -> bool:
        """Whether ``history_for`` answers now: the rule (see ``History``) is that a
        game that hides nothing shows its past at any time, and a game with hidden
        cards once it is over."""
        with self._lock:
            return self._outcome() is not None or self.game.info.spec.perfect_information

    def history_for(self, recipient: int | None) -> History:
        """Every past position ``recipient`` may see (the rule: ``shows_the_past``). A
        game with hidden cards refuses while it is on (``TableError``, ``"hidden"``)."""
        self.game.check_viewer(recipient)
        with self._lock:
            game = self.game
            over = self._outcome() is not None
            if not self.shows_the_past():
                raise TableError("earlier positions of a game with hidden cards are shown"
                                 " once it is over", "hidden")
            last = len(self._match.moves)
            plies = []
            for i in range(last + 1):
                if i == last:
                    view = self._match.view(recipient)  # a declared ending included
                elif over:
                    view = game.revealed_view(self._match.states[i], recipient)
                else:
                    view = game.view(self._match.states[i], recipient)
                outcome = game.view_outcome(view)
                plies.append(Ply(
                    i, view, self._match.notation[i - 1] if i else None,
                    game.to_move(self._match.states[i - 1]) if i else None,
                    None if outcome is not None else game.to_move(self._match.states[i])))
            return History(self.version, recipient, tuple(self._match.players),
                           tuple(plies), self._outcome(), self._match.declared)

    def record_for(self, recipient: int | None) -> Record:
        """The record ``recipient`` may keep (``Match.record_for``: from its views)."""
        self.game.check_viewer(recipient)
        with self._lock:
            return self._match.record_for(recipient)

    def referee_record(self) -> Record:
        """The whole record, every hidden card included: for storage only (a server
        saves it; a finished game's analysis replays it), never for a recipient."""
        with self._lock:
            return self._match.referee_record()

    @property
    def plies(self) -> int:
        """How many moves have been played."""
        with self._lock:
            return len(self._match.moves)

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, as the record gives them."""
        with self._lock:
            return tuple(self._match.players)

    def moves_since(self, ply: int) -> tuple[str, ...]:
        """The moves from ``ply`` on, in notation (every record writes them so): what a
        server appends to what it saved."""
        with self._lock:
            return tuple(self._match.notation[ply:])

    def pending_offer(self) -> tuple[str, int] | None:
        """The open offer, as (``"draw"`` or ``"undo"``, the seat that made it)."""
        with self._lock:
            return None if self._offer is None else (self._offer.kind, self._offer.seat)

    # -- listening -----------------------------------------------------------------------
    def subscribe(self, recipient: int | None, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event as ``recipient`` may know it; a START event
        with the recipient's view (and the open offer, if any, in its ``offer`` and
        ``seat``) comes first. Returns a function that unsubscribes."""
        self.game.check_viewer(recipient)
        entry = (recipient, listener)
        with self._lock:
            self._listeners.append(entry)
            # the open offer too: one made before this subscription reached nobody here
            open_offer = {} if self._offer is None else {"offer": self._offer.kind,
                                                         "seat": self._offer.seat}
            self._outbox.append((recipient, listener, self._event(
                EventKind.START, recipient, "you are watching" if recipient is None
                else f"you are {self.seats[recipient].name}", **open_offer)))
        self._flush()

        def unsubscribe() -> None:
            with self._lock:
                if entry in self._listeners:
                    self._listeners.remove(entry)

        return unsubscribe

    def _event(self, kind: EventKind, recipient: int | None, text: str, **fields: Any) -> Event:
        return Event(kind, self.version, recipient, self._match.view(recipient), text,
                     clocks=self._clocks(self.now()), **fields)

    def _emit(self, kind: EventKind, text: str, **fields: Any) -> None:
        self._queue(lambda recipient: self._event(kind, recipient, text, **fields))

    def _queue(self, event_for: Callable[[int | None], Event]) -> None:
        """Queue for every listener its recipient's event, made once per recipient
        however many of its listeners listen."""
        events: dict[int | None, Event] = {}
        for recipient, listener in self._listeners:
            if recipient not in events:
                events[recipient] = event_for(recipient)
            self._outbox.append((recipient, listener, events[recipient]))

    def _flush(self) -> None:
        """Deliver queued events outside the table's lock, in order."""
        with self._deliver:
            while True:
                with self._lock:
                    if not self._outbox:
                        return
                    batch, self._outbox = self._outbox, []
                for _, listener, event in batch:
                    listener(event)

    # -- acting --------------------------------------------------------------------------
    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not (
                0 <= seat < self.game.num_players):
            raise TableError(f"there is no seat {seat!r} at this table", "seat")

    def _check_version(self, version: int | None) -> None:
        if version is None or version == self.version:
            return
        if version > self.version:
            raise TableError(f"version {version} does not exist yet (the table is at"
                             f" {self.version})", "stale")
        n = self.version - version
        raise TableError(f"stale: sent on version {version}, but {n} change{'s' * (n != 1)}"
                         f" landed first; the table is at version {self.version}", "stale")

    def _check_open(self) -> None:
        outcome = self._outcome()
        if outcome is not None:
            raise TableError(f"the game is over ({outcome.describe(self._match.players)})",
                             "over")

    def play(self, seat: int, move: Any, version: int | None = None) -> str:
        """``seat`` makes ``move`` (a move value, or text in notation), chosen on
        ``version`` (``None``: the current one). Returns the move in notation; raises
        ``TableError`` with the reason, written from ``seat``'s view."""
        try:
            with self._lock:
                self._advance_locked(self.now())
                return self._play_locked(seat, move, version)
        finally:
            self._flush()

    def _play_locked(self, seat: int, move: Any, version: int | None) -> str:
        self._check_seat(seat)
        self._check_open()
        self._check_version(version)
        game = self.game
        view = self._match.view(seat)
        actors = game.view_actors(view)
        if seat not in actors:
            whose = " and ".join(self.seats[p].name for p in actors)
            raise TableError(f"it is {whose}'s turn, not yours", "turn")
        if isinstance(move, str):
            try:
                move = game.view_parse_move(view, move)
            except FourfoldError as unreadable:
                raise TableError(str(unreadable)) from None
        refusal = game.view_error(view, move)
        if refusal is not None:
            raise TableError(str(refusal))
        before = self._match.state
        checkpoint = self._checkpoint()
        try:
            self._match.play(move)
        except FourfoldError:
            raise TableError("the referee refused this move") from None
        now = self.now()
        self._charge_clock(seat, now)
        self.version += 1
        self._offer = None
        self._last_landed = now
        self._commit(checkpoint)
        for p, s in enumerate(self.seats):
            if s.is_bot:
                s.bot.observe(self._match.view(p))
        clocks = self._clocks(now)

        def moved(recipient: int | None) -> Event:
            notation = game.view_format_move(game.view(before, recipient), move)
            return Event(EventKind.MOVE, self.version, recipient, self._match.view(recipient),
                         f"{self.seats[seat].name} plays {notation}", seat=seat,
                         move=notation, clocks=clocks)

        self._queue(moved)
        self._after_change()
        return self._match.notation[-1]

    def _charge_clock(self, seat: int, now: float) -> None:
        if not self._left or self.player_clock is None:
            return
        self._left[seat] = max(0.0, self._left[seat] - (now - self._running_since))
        self._left[seat] += self.player_clock.increment
        self._running_since = now

    def _after_change(self) -> None:
        outcome = self._outcome()
        if outcome is not None:
            self._cancel_bots()
            self._emit(EventKind.END, f"Game over. {outcome.describe(self._match.players)}",
                       outcome=outcome)
            return
        self._schedule_bots()

    def _end(self, outcome: Outcome) -> None:
        checkpoint = self._checkpoint()
        self._match.declare(outcome)
        self.version += 1
        self._offer = None
        self._commit(checkpoint)
        self._after_change()

    def _checkpoint(self) -> _Checkpoint:
        m = self._match
        return _Checkpoint(list(m.states), list(m.moves), list(m.notation), m.declared,
                           self.version, list(self._left), self._running_since,
                           self._last_landed, self._offer, list(self.seats),
                           tuple(m.players))

    def _commit(self, checkpoint: _Checkpoint) -> None:
        """Let ``on_change`` save the change; if it cannot, undo the change whole."""
        if self.on_change is None:
            return
        try:
            self.on_change(self)
        except Exception as error:
            m = self._match
            m.states[:] = checkpoint.states
            m.moves[:] = checkpoint.moves
            m.notation[:] = checkpoint.notation
            m.declared = checkpoint.declared
            self.version = checkpoint.version
            self._left = checkpoint.left
            self._running_since = checkpoint.running_since
            self._last_landed = checkpoint.last_landed
            self._offer = checkpoint.offer
            self.seats = checkpoint.seats
            m.players = checkpoint.players
            raise SaveError(f"the change could not be saved, so it did not count ({error})",
                            "save") from None

    def resign(self, seat: int, version: int | None = None) -> None:
        """``seat`` gives up: in a two-player game the other side wins; in a cooperative
        game the whole team loses."""
        try:
            with self._lock:
                self._check_seat(seat)
                self._check_open()
                self._check_version(version)
                name = self.seats[seat].name
                if self.game.info.spec.utility is Utility.COOPERATIVE:
                    self._end(Outcome(Result.TEAM_LOSS, f"{name} gave up for the team"))
                elif self.game.num_players == 2:
                    self._end(Outcome.win(1 - seat, f"{name} resigned"))
                else:
                    raise TableError("resignation is for two-player and cooperative games")
        finally:
            self._flush()

    def offer(self, seat: int, kind: str, version: int | None = None) -> str:
        """``seat`` offers a draw or asks to undo its last move. Against bots only, an
        undo happens at once; otherwise every other person must accept. Returns what
        happened, in words."""
        try:
            with self._lock:
                return self._offer_locked(seat, kind, version)
        finally:
            self._flush()

    def _offer_locked(self, seat: int, kind: str, version: int | None) -> str:
        self._check_seat(seat)
        self._check_open()
        self._check_version(version)
        if kind not in ("draw", "undo"):
            raise TableError(f"one may offer a draw or an undo, not {kind!r}")
        if self.seats[seat].kind is not SeatKind.HUMAN:
            raise TableError("only a person's seat makes offers")
        others = {p for p, s in enumerate(self.seats) if p != seat and s.kind is SeatKind.HUMAN}
        if kind == "draw":
            if self.game.num_players != 2 or self.game.info.spec.utility is not Utility.ZERO_SUM:
                raise TableError("draw offers are for two-player games")
            if not others:
                raise TableError("a bot does not accept draws: play on, or resign")
        else:
            if self.real_time:
                raise TableError("there is no undo in real-time play")
            if self._hides_something():
                raise TableError(
                    f"no undo in {self.game.info.label()}: cards are face down, and taking"
                    " back a move would show you the replies and signals it drew, then let"
                    " you try again (ruling: undo only when nothing is hidden)")
            if self._undo_plies(seat) == 0:
                raise TableError("you have no move to take back")
            if not others:
                n = self._undo(seat)
                return f"took back {n} move{'s' * (n != 1)}"
        if self._offer is not None and self._offer.kind == kind and self._offer.seat != seat:
            return self._accept_locked(seat, kind)
        self._offer = _Offer(kind, seat, self.version, others)
        who = self.seats[seat].name
        self._emit(EventKind.OFFER, f"{who} offers a draw" if kind == "draw"
                   else f"{who} asks to take back a move", seat=seat, offer=kind)
        return "offer sent"

    def answer(self, seat: int, accept: bool) -> str:
        """``seat`` accepts or declines the open offer."""
        try:
            with self._lock:
                self._check_seat(seat)
                offer = self._offer
                if offer is None or seat not in offer.waiting:
                    raise TableError("there is no offer for you to answer")
                if not accept:
                    self._offer = None
                    self._emit(EventKind.DECLINE, f"{self.seats[seat].name} declines",
                               seat=seat, offer=offer.kind)
                    return "declined"
                return self._accept_locked(seat, offer.kind)
        finally:
            self._flush()

    def _accept_locked(self, seat: int, kind: str) -> str:
        offer = self._offer
        assert offer is not None
        offer.waiting.discard(seat)
        if offer.waiting:
            return "accepted; waiting for the others"
        self._offer = None
        if kind == "draw":
            self._end(Outcome.draw("agreed"))
            return "draw agreed"
        n = self._undo(offer.seat)
        return f"took back {n} move{'s' * (n != 1)}"

    def hides_something(self) -> bool:
        """Whether the rules hide anything from any seat or spectator now (a card face
        down): then there is no undo (a ruling: see the module's docstring)."""
        with self._lock:
            return self._hides_something()

    def _hides_something(self) -> bool:
        if self._outcome() is not None:
            return False
        state = self._match.state
        return any(self.game.view(state, p) != self.game.revealed_view(state, p)
                   for p in (None, *range(self.game.num_players)))

    def _undo_plies(self, seat: int) -> int:
        """Plies that take the game back to before ``seat``'s latest move (0: none)."""
        match = self._match
        for i in range(len(match.moves) - 1, -1, -1):
            if self.game.to_move(match.states[i]) == seat:
                return len(match.moves) - i
        return 0

    def _undo(self, seat: int) -> int:
        checkpoint = self._checkpoint()
        n = self._match.undo(self._undo_plies(seat))
        self.version += 1
        self._running_since = self.now()
        self._commit(checkpoint)
        self._cancel_bots()
        for p, s in enumerate(self.seats):
            if s.is_bot:
                s.bot.observe(self._match.view(p))
        self._emit(EventKind.UNDO, f"{n} move{'s' * (n != 1)} taken back", seat=seat)
        self._schedule_bots()
        return n

    def set_seat(self, seat: int, occupant: Seat) -> None:
        """Put a person, a bot or nobody in ``seat`` (the record names them from now)."""
        try:
            with self._lock:
                self._check_seat(seat)
                checkpoint = self._checkpoint()
                self.seats[seat] = occupant
                self._match.players = tuple(occupant.name if p == seat else name
                                            for p, name in enumerate(self._match.players))
                self._commit(checkpoint)
                self._drop_job(seat)
                self._emit(EventKind.SEATS, f"{occupant.name} takes seat {seat + 1}", seat=seat)
                self._schedule_bots()
        finally:
            self._flush()

    # -- time and bots -------------------------------------------------------------------
    def advance(self) -> None:
        """Do what is due now: a clock running out, a bot's move."""
        try:
            with self._lock:
                self._advance_locked(self.now())
        finally:
            self._flush()

    def next_deadline(self) -> float | None:
        """When ``advance`` next has something to do (a clock time), or ``None``."""
        with self._lock:
            if self._outcome() is not None:
                return None
            times: list[float] = []
            if self._shared_deadline is not None:
                times.append(self._shared_deadline)
            owner = self._clock_owner()
            if self._left and owner is not None:
                times.append(self._running_since + self._left[owner])
            # a bot's release time; once it has passed, a bot still thinking lands the
            # moment it is done (no timer needed)
            now = self.now()
            times.extend(t for p, t in self._bot_due.items() if t > now or self._ready(p))
            return min(times) if times else None

    def _advance_locked(self, now: float) -> None:
        if self._outcome() is not None:
            return
        if self._shared_deadline is not None and now >= self._shared_deadline:
            self._end(self.game.time_out(self._match.state, None))
            return
        owner = self._clock_owner()
        if self._left and owner is not None and now - self._running_since >= self._left[owner]:
            self._left[owner] = 0.0
            self._running_since = now
            self._end(self.game.time_out(self._match.state, owner))
            return
        self._start_due_bots()

    def _pause(self, pace: float) -> float:
        """A bot's visible pause, from the pause stream alone (see the module's docstring)."""
        return pace * self._pauses.uniform(0.6, 1.4)

    def _schedule_bots(self) -> None:
        """Give every bot seat that may act its release time (now, or after its pause)."""
        now = self.now()
        actors = set(self.game.actors(self._match.state)) if self._outcome() is None else set()
        for p, seat in enumerate(self.seats):
            if seat.is_bot and p in actors:
                if p not in self._bot_due or self.real_time:
                    self._bot_due[p] = now + self._pause(seat.pace)
            else:
                self._bot_due.pop(p, None)
                self._drop_job(p)
        self._start_due_bots()

    def _ready(self, seat: int) -> bool:
        """Whether ``seat``'s move can be released (or, inline, worked out) now."""
        if self.inline_bots:
            return True
        job = self._jobs.get(seat)
        return job is not None and job.done and job.version == self.version

    def _start_due_bots(self) -> None:
        """Start every scheduled bot thinking at once (threaded bots), and release every
        move whose time has come. Inline bots think and move here, one after another
        (a loop, not recursion: a whole bot game may run inside one call)."""
        if self._starting or self._bots_held:
            return
        self._starting = True
        try:
            for _ in range(100_000):
                if self._outcome() is not None:
                    return
                if not self.inline_bots:
                    for p in list(self._bot_due):
                        job = self._jobs.get(p)
                        if job is None or job.version != self.version:
                            self._launch(p)
                now = self.now()
                due = [p for p, t in self._bot_due.items() if t <= now and self._ready(p)]
                if not due:
                    return
                seat = min(due, key=lambda p: (self._bot_due[p], p))
                if self.inline_bots:
                    self._run_inline(seat)
                else:
                    self._release(seat)
        finally:
            self._starting = False

    def _idle_at_release(self, seat: int) -> float:
        """Seconds since the last change at ``seat``'s release time: what a bot that
        waits for its partners (Dual) is told, whenever it actually thinks."""
        return max(0.0, self._bot_due[seat] - self._last_landed)

    def _run_inline(self, seat: int) -> None:
        bot = self.seats[seat].bot
        view = self._match.view(seat)
        version = self.version
        idle = self.now() - self._last_landed
        self._bot_due.pop(seat, None)
        try:
            move = bot.propose(view, idle)
        except FourfoldError as error:
            self._bot_failed(seat, error)
            return
        self._bot_done(seat, version, move)

    def _launch(self, seat: int) -> None:
        """Start ``seat``'s bot thinking on the current version (any older job dropped)."""
        self._drop_job(seat)
        bot = self.seats[seat].bot
        view = self._match.view(seat)
        if self._executor is None:
            self._executor = self._shared_executor or ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="table-bot")
        job = _BotJob(seat, self.version)
        self._jobs[seat] = job
        job.future = self._executor.submit(bot.propose, view, self._idle_at_release(seat))
        job.future.add_done_callback(lambda f: self._bot_finished(job, f))

    def _drop_job(self, seat: int) -> None:
        job = self._jobs.pop(seat, None)
        if job is not None and job.future is not None:
            job.future.cancel()

    def _release(self, seat: int) -> None:
        """Land ``seat``'s worked-out move: its release time has come."""
        job = self._jobs.pop(seat)
        self._bot_due.pop(seat, None)
        if job.failure is not None:
            self._bot_failed(seat, job.failure)
        else:
            self._bot_done(seat, job.version, job.move)

    def _bot_finished(self, job: _BotJob, future: Future[Any]) -> None:
        """A bot's thinking ended (on its worker): keep the answer until its release
        time, or release it now if that time has passed."""
        nested = False
        try:
            with self._lock:
                nested = self._starting  # called back at once, inside ``_launch``
                if self._jobs.get(job.seat) is not job or future.cancelled():
                    return  # dropped: the table moved on
                job.failure = future.exception()
                if job.failure is None:
                    job.move = future.result()
                job.done = True
                self._start_due_bots()
        finally:
            if not nested:
                self._flush()
                if self.on_wake is not None:
                    self.on_wake()

    def start_bots(self) -> None:
        """Start the bots of a table made with ``hold_bots``."""
        try:
            with self._lock:
                self._bots_held = False
                self._start_due_bots()
        finally:
            self._flush()

    def _bot_failed(self, seat: int, error: BaseException) -> None:
        """A bot that cannot move forfeits for its side; the game does not hang."""
        name = self.seats[seat].name
        if isinstance(error, KeyboardInterrupt):
            raise error
        reason = f"{name} could not move ({error})"
        if self.game.info.spec.utility is Utility.COOPERATIVE:
            self._end(Outcome(Result.TEAM_LOSS, reason))
        elif self.game.num_players == 2:
            self._end(Outcome.win(1 - seat, reason))

    def _bot_done(self, seat: int, version: int, move: Any) -> None:
        if self._outcome() is not None or version != self.version:
            return  # the table moved on while the bot thought: its work is dropped
        if move is None:  # a real-time bot chose to wait
            pace = self.seats[seat].pace
            self._bot_due[seat] = self.now() + max(self._pause(pace), 0.5)
            return
        try:
            self._play_locked(seat, move, version)
        except SaveError:  # not the bot's fault: it tries again shortly
            self._bot_due[seat] = self.now() + 1.0
        except TableError as error:
            self._bot_failed(seat, error)

    def _cancel_bots(self) -> None:
        for job in self._jobs.values():
            if job.future is not None:
                job.future.cancel()
        self._jobs.clear()
        self._bot_due.clear()

    def thinking(self) -> tuple[int, ...]:
        """The bot seats whose move is on its way (being worked out, or held until its
        release time)."""
        with self._lock:
            return tuple(sorted(self._jobs))

    def close(self) -> None:
        """Stop the bots' worker (work in progress is dropped)."""
        with self._lock:
            self._cancel_bots()
            executor, self._executor = self._executor, None
        if executor is not None and executor is not self._shared_executor:
            executor.shutdown(wait=False, cancel_futures=True)
