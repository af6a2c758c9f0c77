"""A game in progress: start, moves and states, with undo and records.

The rules stay pure; ``Match`` is the thin history object that the CLI (and
later the server and UI) use for undo, replay, declared endings (agreement,
resignation, a length cap, a clock) and saving records.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any, Generic

from fourfold.core import display
from fourfold.core.errors import FourfoldError, RecordError
from fourfold.core.game import Game, M, O, S, View
from fourfold.core.outcome import Outcome, Result
from fourfold.core.record import RESULTS_IN_PROGRESS, Record, check_player_name
from fourfold.core.registry import load


class Match(Generic[S, M, O]):
    """History of one game. ``states[i]`` is the state before ``moves[i]``."""

    def __init__(
        self,
        game: Game[S, M, O],
        start: S | None = None,
        players: Sequence[str] | None = None,
        date: str | None = None,
    ) -> None:
        self.game = game
        self.start: S = game.initial_state() if start is None else start
        names = list(players) if players else [game.player_name(p) for p in range(game.num_players)]
        if len(names) != game.num_players:
            raise FourfoldError(
                f"{game.name} has {game.num_players} players, got {len(names)} names"
            )
        self.players = tuple(check_player_name(n) for n in names)
        self.date = date or datetime.date.today().isoformat()
        self.states: list[S] = [self.start]
        self.moves: list[M] = []
        self.notation: list[str] = []
        self.declared: Outcome | None = None
        #: the rules' outcome of the last state, asked once per state (a table asks it a
        #: dozen times a change; states are immutable)
        self._ruled: tuple[S, Outcome | None] | None = None

    @property
    def state(self) -> S:
        return self.states[-1]

    @property
    def outcome(self) -> Outcome | None:
        state = self.states[-1]
        ruled = self._ruled
        if ruled is None or ruled[0] is not state:
            ruled = self._ruled = (state, self.game.outcome(state))
        return ruled[1] or self.declared

    @property
    def to_move(self) -> int | None:
        return None if self.declared else self.game.to_move(self.state)

    def play(self, move: M | str) -> S:
        """Play a move, given as a move value or in notation (as ``Game.play``)."""
        if self.declared is not None:
            raise FourfoldError(f"the game is over: {self.declared.describe(self.players)}")
        if isinstance(move, str):
            move = self.game.parse_move(self.state, move)
        text = self.game.format_move(self.state, move)
        new = self.game.apply(self.state, move)
        self.states.append(new)
        self.moves.append(move)
        self.notation.append(text)
        return new

    def play_text(self, text: str) -> S:
        return self.play(text)

    def undo(self, plies: int = 1) -> int:
        """Take back up to ``plies`` plies (and any declared result); return how many."""
        self.declared = None
        n = min(plies, len(self.moves))
        for _ in range(n):
            self.states.pop()
            self.moves.pop()
            self.notation.pop()
        return n

    def declare(self, outcome: Outcome) -> None:
        """End the game by something outside the rules' moves (agreement, resignation, cap)."""
        self.declared = outcome

    # -- views -------------------------------------------------------------------------
    def view(self, viewer: int | None) -> View[O]:
        """What ``viewer`` (a seat, or ``None`` for a spectator) may know now. A game ended
        from outside the moves (resignation, clock) is over for the rules' views too."""
        if self.declared is not None:
            revealed = self.game.revealed_view(self.state, viewer)
            return View(revealed.player, revealed.observation, self.declared)
        return self.game.view(self.state, viewer)

    def __repr__(self) -> str:
        state = "over" if self.outcome else f"{len(self.moves)} moves"
        return f"<Match {self.game.info.label()}: {state}>"

    def _repr_svg_(self) -> str | None:
        """The position as a spectator sees it, last move marked (notebooks)."""
        return display.match_svg(self)

    # -- records ---------------------------------------------------------------------
    def record_for(self, viewer: int | None) -> Record:
        """The record ``viewer`` may keep: built from its views only.

        For a perfect-information game it is the referee's record, and so it is for
        every viewer once the rules have ended the game: their end shows every card to
        everyone, so the full record (which replays) tells nothing more. Otherwise (the
        game goes on, or was ended from outside: given up, out of time, where the views
        keep the cards hidden) its Setup is the start as that viewer saw it (a seat's own
        cards; none for a spectator), and the tags ``Viewer`` and ``Seen`` say whose
        record it is and what that viewer sees now. Such a record cannot be replayed, by
        design.
        """
        game = self.game
        if game.info.spec.perfect_information or game.outcome(self.state) is not None:
            return self.referee_record()
        start_view = game.view(self.start, viewer)
        outcome = self.outcome
        return Record(
            game=game.info.name,
            variant=game.info.variant,
            options=game.info.option_strings(),
            players=self.players,
            date=self.date,
            result=outcome.score(game.num_players) if outcome else RESULTS_IN_PROGRESS,
            termination=outcome.reason if outcome else "",
            setup=game.view_position(start_view),
            moves=tuple(self.notation),
            extra_tags={
                "Viewer": "spectator" if viewer is None else game.player_name(viewer),
                "Seen": game.view_position(self.view(viewer)),
            },
        )

    def referee_record(self) -> Record:
        """The full record, every hidden card included: for storage and replay only,
        never for a player (see ``record_for``)."""
        info = self.game.info
        outcome = self.outcome
        setup = None
        if self.game.format_position(self.start) != self.game.format_position(
            self.game.initial_state()
        ):
            setup = self.game.format_position(self.start)
        return Record(
            game=info.name,
            variant=info.variant,
            options=info.option_strings(),
            players=self.players,
            date=self.date,
            result=outcome.score(self.game.num_players) if outcome else RESULTS_IN_PROGRESS,
            termination=outcome.reason if outcome else "",
            setup=setup,
            moves=tuple(self.notation),
        )

    @classmethod
    def from_record(cls, record: Record) -> Match[Any, Any, Any]:
        """Replay a record move by move; any fault names the ply and why."""
        try:
            game = load(record.game, record.variant, **record.options)
        except FourfoldError as exc:
            raise RecordError(str(exc)) from None
        try:
            start = game.parse_position(record.setup) if record.setup is not None else None
        except FourfoldError as exc:
            raise RecordError(f"Setup tag: {exc}") from None
        try:
            match: Match[Any, Any, Any] = cls(
                game, start, record.players or None, record.date or None)
        except FourfoldError as exc:
            raise RecordError(str(exc)) from None
        for i, text in enumerate(record.moves, start=1):
            try:
                match.play_text(text)
            except FourfoldError as exc:
                raise RecordError(f"ply {i} ({text!r}): {exc}") from None
        reached = game.outcome(match.state)
        n = game.num_players
        if reached is not None:
            if record.result not in (reached.score(n), RESULTS_IN_PROGRESS):
                raise RecordError(
                    f"the Result tag says {record.result} but the moves end in {reached.score(n)}"
                    f" ({reached.reason})"
                )
        elif record.result != RESULTS_IN_PROGRESS:
            match.declare(_declared_outcome(record.result, record.termination, n))
        return match


def _declared_outcome(result: str, reason: str, num_players: int) -> Outcome:
    """An ending the rules did not reach by themselves, as written in a record."""
    why = reason or "declared"
    if num_players == 2 and result in ("1-0", "0-1"):
        return Outcome.win(0 if result == "1-0" else 1, why)
    if result == "1/2-1/2" or result == "draw":
        return Outcome.draw(why)
    if result in (Result.TEAM_WIN.value, Result.TEAM_LOSS.value):
        return Outcome(Result(result), why)
    if result.startswith("win-") and result[4:].isdigit() and int(result[4:]) < num_players:
        return Outcome.win(int(result[4:]), why)
    raise RecordError(f"unknown Result {result!r}")
