"""Quatrefoil's rules (RULES.md §3): a cooperative four-seat puzzle with hidden cards.

The state is the referee's and holds every card; ``view`` is the one place that
decides what a seat may know, as an ``Observation``. Every observer method reads
that observation only (``Game[QuatrefoilState, Move, Observation]``), and refuses a
referee's state in its place. ``apply``'s errors, like every game's, describe the
position from the public view, so they never name a hidden card.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Protocol

from fourfold.core.errors import FourfoldError, NotationError, checked_action
from fourfold.core.game import Game, View
from fourfold.core.outcome import Outcome, Result
from fourfold.core.spec import GameInfo
from fourfold.games.quatrefoil.arrangement import (
    ACTION_NAMES,
    ALL_ARRANGEMENTS,
    CCW,
    CORNERS,
    CW,
    FREE,
    NUM_ACTIONS,
    PUSHES,
    STACK,
    TOKENS,
    Arrangement,
    arrangement_error,
    correct_corners,
    format_arrangement,
    parse_action_name,
    parse_arrangement_text,
    push_corner,
)
from fourfold.games.quatrefoil.state import (
    Action,
    Deal,
    Move,
    Observation,
    QuatrefoilState,
)

SEATS = 4
DEFAULT_SEED = 0
#: How the face-up cards of each variant are chosen: "none", "all", "colour", "position".
FACE_UP_OPTION = "face-up"
CLOCK_SECONDS_OPTION = "clock-seconds"
CLOCK_OPTION = "clock"

_DUAL_MOVE = re.compile(r"^\s*([0-9]+)\s*:\s*(\S+?)\s*@\s*([0-9]+)\s*$")
_WAIT_MOVE = re.compile(r"^\s*wait\b", re.IGNORECASE)
_SEAT_ACTION = re.compile(r"^([1-4]):(\S+)$")


class _Fail(Protocol):
    """The type of the ``fail`` helper inside ``parse_position``."""

    def __call__(self, reason: str, at: str | None = None) -> NotationError: ...


class QuatrefoilGame(Game[QuatrefoilState, Move, Observation]):
    """One configured Quatrefoil variant."""

    def __init__(self, info: GameInfo) -> None:
        super().__init__(info)
        variant = info.variant
        options = info.options
        self.dual = variant == "dual"
        self.clock: int | None = None
        if variant == "race-the-clock" or (self.dual and options.get(CLOCK_OPTION)):
            self.clock = int(options[CLOCK_SECONDS_OPTION])
        if variant == "nothing-to-hide":
            self.face_up = "all"
        elif variant == "half-and-half":
            self.face_up = str(options[FACE_UP_OPTION])
        else:
            self.face_up = "none"

    # -- the deal -----------------------------------------------------------------------
    def initial_state(self, seed: int | None = None) -> QuatrefoilState:
        """A seeded deal: solution, each seat's position card (hence colour card), start.

        ``seed=None`` gives the default deal (seed 0), so that a match started without a
        seed replays from its record. The start is never already solved.
        """
        rng = random.Random(DEFAULT_SEED if seed is None else seed)
        solution = rng.choice(ALL_ARRANGEMENTS)
        corners = [0, 1, 2, 3]
        rng.shuffle(corners)
        positions = (corners[0], corners[1], corners[2], corners[3])
        starts = [a for a in ALL_ARRANGEMENTS if a != solution]
        start = rng.choice(starts)
        return QuatrefoilState(Deal(solution, positions), start)

    # -- turns and endings ----------------------------------------------------------------
    def outcome(self, state: QuatrefoilState) -> Outcome | None:
        if state.history and state.history[-1][1] == STACK:
            n = state.version
            actions = f"{n} action{'' if n == 1 else 's'}"
            wrong = 4 - correct_corners(state.arrangement, state.deal.solution)
            if wrong == 0:
                return Outcome(
                    Result.TEAM_WIN, f"stacked after {actions} with every token in place"
                )
            return Outcome(
                Result.TEAM_LOSS,
                f"stacked after {actions} with {wrong} of 4 quatrefoil tokens out of place",
            )
        return None

    @property
    def shared_clock_seconds(self) -> int | None:
        return self.clock

    def time_out(self, state: QuatrefoilState, player: int | None) -> Outcome:
        """The shared timer of Race the Clock or a timed Dual ran out: the team loses."""
        if self.clock is None:
            raise FourfoldError(f"{self.info.label()} has no clock to run out")
        return Outcome(Result.TEAM_LOSS, f"the {self.clock}-second clock ran out")

    def to_move(self, state: QuatrefoilState) -> int | None:
        if self.dual or self.outcome(state) is not None:
            return None
        return state.version % SEATS

    def actors(self, state: QuatrefoilState) -> tuple[int, ...]:
        if self.outcome(state) is not None:
            return ()
        if self.dual:
            return tuple(range(SEATS))
        return (state.version % SEATS,)

    def seat_actions(self, position_card: int) -> tuple[int, ...]:
        """The actions a Dual seat holding ``position_card`` may take."""
        pushes = tuple(i for i, (_, enter, _) in enumerate(PUSHES) if enter == position_card)
        return (*pushes, CW, CCW, STACK)

    def legal_moves(self, state: QuatrefoilState) -> list[Move]:
        if self.outcome(state) is not None:
            return []
        moves: list[Move] = []
        if self.dual:
            for seat in range(SEATS):
                for a in self.seat_actions(state.deal.positions[seat]):
                    moves.append(Action(a, seat, state.version))
        else:
            moves.extend(Action(a) for a in range(NUM_ACTIONS))
        return moves

    def illegal_reason(self, state: QuatrefoilState, move: Move) -> str | None:
        if not isinstance(move, Action):
            return f"{move!r} is not a Quatrefoil move"
        if not isinstance(move.action, int) or not 0 <= move.action < NUM_ACTIONS:
            return f"there is no action number {move.action!r}"
        if not self.dual:
            turn = state.version % SEATS
            if move.seat is not None and move.seat != turn:
                return f"it is {self.player_name(turn)}'s turn"
            return None
        if move.seat is None or not isinstance(move.seat, int) or not 0 <= move.seat < SEATS:
            return "in Dual every action names the seat that takes it (1 to 4)"
        if move.version is not None and move.version != state.version:
            return self._stale_reason(state.history, move.version)
        corner = push_corner(move.action)
        if corner is not None and corner != state.deal.positions[move.seat]:
            return (
                "in Dual a push must end on the corner of the pusher's own position card"
            )
        return None

    def _stale_reason(self, history: Sequence[tuple[int, int]], version: int) -> str:
        now = len(history)
        if version > now:
            return f"it names version {version}, which does not exist yet (now {now})"
        landed = history[version:]
        shown = ", ".join(
            f"{self.player_name(seat)} {ACTION_NAMES[a]}" for seat, a in landed[-3:]
        )
        more = "... " if len(landed) > 3 else ""
        count = f"{len(landed)} action{'s' if len(landed) != 1 else ''}"
        return (
            f"stale: it was chosen on version {version}, but {count} landed first"
            f" ({more}{shown}); the current version is {now}"
        )

    def next_state(self, state: QuatrefoilState, move: Move) -> QuatrefoilState:
        seat = move.seat if self.dual and move.seat is not None else state.version % SEATS
        return QuatrefoilState(state.deal, state.start, (*state.history, (seat, move.action)))

    # -- dense actions --------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return SEATS * NUM_ACTIONS if self.dual else NUM_ACTIONS

    def encode(self, move: Move) -> int:
        if self.dual:
            if move.seat is None:
                raise FourfoldError("a Dual action needs its seat to have an action number")
            return move.seat * NUM_ACTIONS + move.action
        return move.action

    def decode(self, action: int) -> Move:
        checked_action(action, self.num_actions)
        if self.dual:
            seat, a = divmod(action, NUM_ACTIONS)
            return Action(a, seat)
        return Action(action)

    # -- move notation --------------------------------------------------------------------
    def _move_example(self, state: QuatrefoilState | Observation) -> str:
        if self.dual:
            return f"1:cw@{state.version}"
        return "N>NW"

    def parse_move(self, state: QuatrefoilState | Observation, text: str) -> Move:
        if not isinstance(text, str) or not text.strip():
            raise NotationError(
                "move", str(text), f"empty move; write for example {self._move_example(state)!r}"
            )
        if _WAIT_MOVE.match(text):
            raise NotationError(
                "move", text, "time is not a move: the clock runs by itself"
                + (", kept by the table" if self.clock else " (and this variant has none)")
            )
        names = ", ".join(ACTION_NAMES)
        if not self.dual:
            action = parse_action_name(text)
            if action is None:
                raise NotationError("move", text, f"not an action; the actions are {names}")
            return Action(action)
        m = _DUAL_MOVE.match(text)
        if not m:
            raise NotationError(
                "move", text,
                "a Dual action is SEAT:ACTION@VERSION (the version it was chosen on),"
                f" e.g. {self._move_example(state)!r}",
            )
        seat = int(m.group(1))
        if not 1 <= seat <= SEATS:
            raise NotationError("move", text, f"seat {seat} is not 1 to {SEATS}", 0)
        action = parse_action_name(m.group(2))
        if action is None:
            raise NotationError(
                "move", text, f"{m.group(2)!r} is not an action; the actions are {names}",
                text.find(m.group(2)),
            )
        return Action(action, seat - 1, int(m.group(3)))

    def format_move(self, state: QuatrefoilState | Observation, move: Move) -> str:
        name = ACTION_NAMES[move.action]
        if not self.dual:
            return name
        if move.seat is None:
            raise FourfoldError("a Dual action names its seat")
        version = state.version if move.version is None else move.version
        return f"{move.seat + 1}:{name}@{version}"

    # -- position strings -------------------------------------------------------------------
    # ``RGBY/P solution=YBRG/P cards=SE,NW,NE,SW start=BGRY/P actions=N>NW,cw``: the
    # arrangement now, the solution, each seat's position card (its colour card is the
    # solution's token on that corner; north is the solution's free token), the start
    # and the actions so far (``-`` for none; in Dual each is ``SEAT:ACTION``). This is
    # the referee's string: it names every card. ``public_position`` writes the part
    # everybody sees, and ``view_position`` what one viewer sees.

    def _format_actions(self, history: Sequence[tuple[int, int]]) -> str:
        if not history:
            return "-"
        if self.dual:
            return ",".join(f"{seat + 1}:{ACTION_NAMES[a]}" for seat, a in history)
        return ",".join(ACTION_NAMES[a] for _, a in history)

    def format_position(self, state: QuatrefoilState) -> str:
        cards = ",".join(CORNERS[c] for c in state.deal.positions)
        return (
            f"{format_arrangement(state.arrangement)}"
            f" solution={format_arrangement(state.deal.solution)} cards={cards}"
            f"{self._public_tail(state)}"
        )

    def public_position(self, state: QuatrefoilState) -> str:
        """The position without any card: arrangement, start, actions, clock."""
        return f"{format_arrangement(state.arrangement)}{self._public_tail(state)}"

    def _public_tail(self, state: QuatrefoilState) -> str:
        tail = f" start={format_arrangement(state.start)}"
        tail += f" actions={self._format_actions(state.history)}"
        return tail

    def position_example(self) -> str:
        return self.format_position(self.initial_state())

    def parse_position(self, text: str) -> QuatrefoilState:
        if not isinstance(text, str):
            raise NotationError("position", repr(text), "a position is text")

        def fail(reason: str, at: str | None = None) -> NotationError:
            index = text.find(at) if at else -1
            return NotationError("position", text, reason, index if index >= 0 else None)

        fields = text.split()
        keys = ["solution", "cards", "start", "actions"]
        shape = "ARRANGEMENT " + " ".join(f"{k}=..." for k in keys)
        if len(fields) != len(keys) + 1:
            public = any(f.startswith("start=") for f in fields[1:])
            if public and all(not f.startswith(("solution=", "cards=")) for f in fields[1:]):
                raise fail(
                    "no solution= and cards=: a position without the cards is a player's"
                    " or spectator's view and cannot be played from"
                )
            raise fail(f"expected {shape}, e.g. {self.position_example()!r}")
        values: dict[str, str] = {}
        for key, item in zip(keys, fields[1:], strict=True):
            name, sep, value = item.partition("=")
            if not sep or name != key or not value:
                raise fail(f"expected {key}=... here, found {item!r} (form: {shape})", item)
            values[key] = value
        now = self._arrangement(fields[0], "the arrangement", fail)
        solution = self._arrangement(values["solution"], "solution", fail)
        corners = values["cards"].split(",")
        if len(corners) != SEATS:
            raise fail("cards= lists the four seats' position cards, e.g. NW,SE,NE,SW",
                       values["cards"])
        positions: list[int] = []
        for c in corners:
            if c.upper() not in CORNERS:
                raise fail(f"{c!r} is not a position card ({', '.join(CORNERS)})", c)
            if CORNERS.index(c.upper()) in positions:
                raise fail(f"position card {c.upper()} is dealt twice", c)
            positions.append(CORNERS.index(c.upper()))
        start = self._arrangement(values["start"], "start", fail)
        if start == solution:
            raise fail("the start is already solved; a deal never starts solved")
        deal = Deal(solution, (positions[0], positions[1], positions[2], positions[3]))
        history = self._parse_actions(values["actions"], deal, fail)
        state = QuatrefoilState(deal, start, history)
        if state.arrangement != now:
            raise fail(
                f"the arrangement {fields[0]} does not follow from the start and the actions"
                f" (they give {format_arrangement(state.arrangement)})", fields[0]
            )
        return state

    def _arrangement(self, token: str, what: str, fail: _Fail) -> Arrangement:
        error = arrangement_error(token)
        if error is not None:
            raise fail(f"{what} {token!r}: {error[0]}", token)
        return parse_arrangement_text(token)

    def _parse_actions(
        self, text: str, deal: Deal, fail: _Fail
    ) -> tuple[tuple[int, int], ...]:
        if text == "-":
            return ()
        history: list[tuple[int, int]] = []
        items = text.split(",")
        for i, item in enumerate(items):
            seat = i % SEATS
            name = item
            if self.dual:
                m = _SEAT_ACTION.match(item)
                if not m:
                    raise fail(f"a Dual action is SEAT:ACTION, e.g. 2:cw, not {item!r}", item)
                seat, name = int(m.group(1)) - 1, m.group(2)
            action = parse_action_name(name)
            if action is None or not name.strip():
                raise fail(f"{item!r} is not an action", item)
            corner = push_corner(action)
            if self.dual and corner is not None and corner != deal.positions[seat]:
                raise fail(f"{item!r}: a Dual push ends on the pusher's own corner", item)
            if action == STACK and i != len(items) - 1:
                raise fail("the game ends with a stack, so no action can follow it", item)
            history.append((seat, action))
        return tuple(history)

    # -- views ----------------------------------------------------------------------------
    def view(self, state: QuatrefoilState, player: int | None) -> View[Observation]:
        """What ``player`` may know: own cards, face-up cards, the table, all signals.

        ``player=None`` is a spectator: the face-up cards only. Once the game is over
        every card is face up, to everyone.
        """
        self.check_viewer(player)
        if self.outcome(state) is not None:
            return self.revealed_view(state, player)
        everyone = [False] * SEATS
        show_colour = [self.face_up in ("all", "colour") or s == player for s in range(SEATS)]
        show_position = [self.face_up in ("all", "position") or s == player
                         for s in range(SEATS)]
        if self.dual:
            show_colour = everyone
        public_solution = self.dual or self.face_up == "all"
        north_shown = public_solution or self.face_up == "colour"
        return self._observe(state, player, show_colour, show_position, north_shown,
                             public_solution)

    def revealed_view(self, state: QuatrefoilState, player: int | None) -> View[Observation]:
        """Every card face up: the view of a finished game."""
        self.check_viewer(player)
        everyone = [True] * SEATS
        return self._observe(state, player, everyone, everyone, True, True)

    def _observe(self, state: QuatrefoilState, player: int | None, show_colour: list[bool],
                 show_position: list[bool], north_shown: bool,
                 solution_shown: bool) -> View[Observation]:
        deal = state.deal
        colours = tuple(deal.colour(s) if show_colour[s] else None for s in range(SEATS))
        positions = tuple(deal.positions[s] if show_position[s] else None for s in range(SEATS))
        signals = None if self.dual else tuple(state.signals(a) for a in state.arrangements)
        obs = Observation(
            seat=player,
            variant=self.info.variant,
            colour_cards=(colours[0], colours[1], colours[2], colours[3]),
            position_cards=(positions[0], positions[1], positions[2], positions[3]),
            north=deal.solution[FREE] if north_shown else None,
            solution=deal.solution if solution_shown else None,
            start=state.start,
            arrangement=state.arrangement,
            history=state.history,
            signals=signals,
            to_move=self.to_move(state),
            clock=self.clock,
            outcome=self.outcome(state),
        )
        return View(player, obs)

    @staticmethod
    def _observation(view: View[Observation]) -> Observation:
        """The view's observation; a referee's state (or anything else) is refused, so
        that untyped callers cannot hand an observer method the hidden cards either."""
        if not isinstance(view, View):
            raise FourfoldError(
                f"not a view but a {type(view).__name__}: observer methods read only a View"
                " (made by QuatrefoilGame.view), never the referee's state"
            )
        obs = view.observation
        if not isinstance(obs, Observation):
            raise FourfoldError(
                f"not a Quatrefoil view: its observation is a {type(obs).__name__}, and"
                " observer methods read only an Observation (made by QuatrefoilGame.view)"
            )
        return obs

    def observed_actors(self, view: View[Observation]) -> tuple[int, ...]:
        obs = self._observation(view)
        if obs.outcome is not None:
            return ()
        if self.dual:
            return tuple(range(SEATS))
        return (obs.version % SEATS,)

    def observed_outcome(self, view: View[Observation]) -> Outcome | None:
        return self._observation(view).outcome

    def view_legal_moves(self, view: View[Observation]) -> Sequence[Move]:
        """The moves the viewing seat may make now, from its observation alone."""
        obs = self._observation(view)
        if view.player is None or view.player not in self.view_actors(view):
            return []
        if self.dual:
            card = obs.position_cards[view.player]
            assert card is not None  # a seat always sees its own position card
            return [Action(a, view.player, obs.version) for a in self.seat_actions(card)]
        return [Action(a) for a in range(NUM_ACTIONS)]

    def view_illegal_reason(self, view: View[Observation], move: Move) -> str | None:
        obs = self._observation(view)
        if view.player is None:
            return "a spectator cannot act"
        if self.view_outcome(view) is not None:
            return "the game is over"
        if not isinstance(move, Action):
            return f"{move!r} is not a Quatrefoil move"
        if not isinstance(move.action, int) or not 0 <= move.action < NUM_ACTIONS:
            return f"there is no action number {move.action!r}"
        if not self.dual:
            turn = obs.version % SEATS
            if turn != view.player:
                return f"it is {self.player_name(turn)}'s turn"
            if move.seat is not None and move.seat != turn:
                return f"you act as {self.player_name(turn)}, not {move.seat!r}"
            return None
        if move.seat != view.player:
            return f"you can act only as {self.player_name(view.player)}"
        if move.version is not None and move.version != obs.version:
            return self._stale_reason(obs.history, move.version)
        corner = push_corner(move.action)
        if corner is not None and corner != obs.position_cards[view.player]:
            return "in Dual a push must end on the corner of the pusher's own position card"
        return None

    def view_parse_move(self, view: View[Observation], text: str) -> Move:
        return self.parse_move(self._observation(view), text)

    def view_format_move(self, view: View[Observation], move: Move) -> str:
        return self.format_move(self._observation(view), move)

    def view_position(self, view: View[Observation]) -> str:
        """The public position plus the cards this viewer sees (``?`` for the others)."""
        obs = self._observation(view)
        tail = f" start={format_arrangement(obs.start)}"
        tail += f" actions={self._format_actions(obs.history)}"
        return f"{format_arrangement(obs.arrangement)}{tail} seen={self.format_observation(obs)}"

    def format_observation(self, obs: Observation) -> str:
        """The cards an observation shows, ``?`` for face-down ones, e.g.
        ``P1=R@NW P2=?@? P3=?@? P4=?@? north=?`` (for logs written for that viewer)."""
        def card(value: int | None, names: Sequence[str]) -> str:
            return "?" if value is None else names[value]

        held = " ".join(
            f"P{s + 1}={card(obs.colour_cards[s], TOKENS)}@{card(obs.position_cards[s], CORNERS)}"
            for s in range(SEATS)
        )
        return f"{held} north={card(obs.north, TOKENS)}"
