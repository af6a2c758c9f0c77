"""One play session: a table, the people at this terminal, the console and the record.

``Session`` implements ``PlayContext``. The table referees; the session only reads
lines, shows what a person's seat may know (``table.view(seat)`` and the events the
table sends to that seat) and acts through the table.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fourfold.cli.play.console import Console
from fourfold.cli.play.errors import PlayError
from fourfold.cli.play.rules import PlayRules
from fourfold.core.game import Game, View
from fourfold.core.match import Match
from fourfold.core.record import format_record
from fourfold.render.presenter import Presenter
from fourfold.render.svg.common import seat_name
from fourfold.server.specs import bot_title
from fourfold.table import Event, Seat, Table

#: seconds of waiting before "... is thinking..." is shown
THINKING_DELAY = 0.5


@dataclass
class Session:
    """Everything a running game needs. ``people`` are the seats played at this terminal
    (the others are the table's bots)."""

    table: Table
    presenter: Presenter
    console: Console
    rules: PlayRules
    people: frozenset[int]
    #: the seed of the bots' choices (and of hints)
    seed: int | None = None
    #: the ``--seed`` that deals this game again: told once the game is over
    replay_seed: int | None = None
    save_path: Path | None = None
    #: the referee's match, as the terminal made it (it referees locally and keeps the
    #: whole record; the table keeps its own reference private)
    referee: Match[Any, Any] | None = None
    #: the seat of the person whose line is being handled
    seat: int = 0
    events: deque[Event] = field(default_factory=deque)
    _unsubscribe: Callable[[], None] | None = None

    def __post_init__(self) -> None:
        self.seat = min(self.people) if self.people else 0

    def listen(self) -> None:
        """Receive the table's events as the first person's seat may know them."""
        def heard(event: Event) -> None:
            self.events.append(event)
            self.console.wake()

        self._unsubscribe = self.table.subscribe(self.seat, heard)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.table.close()

    # -- PlayContext ---------------------------------------------------------------------
    @property
    def game(self) -> Game[Any, Any]:
        return self.table.game

    @property
    def match(self) -> Match[Any, Any]:
        if self.referee is None:
            raise PlayError("this session", "it was started without its match")
        return self.referee

    @property
    def colour(self) -> bool:
        return self.console.colour

    def view(self) -> View:
        return self.table.view(self.seat)

    def now(self) -> float:
        return self.table.now()

    def is_human(self, seat: int) -> bool:
        return seat in self.people

    def player_label(self, seat: int) -> str:
        """One name per seat, as the page says it (``seat_label``)."""
        return seat_label(self.game, self.table.seats, seat, self.people)

    def say(self, text: str) -> None:
        self.console.say(text)

    def ask(self, prompt: str) -> str | None:
        return self.console.ask(prompt)

    def wait_for(self, what: str, work: Callable[[], Any]) -> Any:
        """Run ``work`` on a thread of its own (a daemon: Ctrl-C need not wait for it),
        saying ``<what> is thinking...`` once it has taken ``THINKING_DELAY`` seconds."""
        done = threading.Event()
        result: list[Any] = []
        failure: list[BaseException] = []

        def run() -> None:
            try:
                result.append(work())
            except BaseException as exc:  # handed to the waiting thread
                failure.append(exc)
            finally:
                done.set()

        threading.Thread(target=run, name="play-work", daemon=True).start()
        if not done.wait(THINKING_DELAY):
            self.say(f"{what} is thinking...")
            while not done.wait(0.25):
                pass
        if failure:
            raise failure[0]
        return result[0]

    def save(self) -> str | None:
        """Write the referee's record (bots named in its Players tag), if asked to."""
        if self.save_path is None:
            return None
        text = format_record(self.match.referee_record())
        try:
            self.save_path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise PlayError(f"cannot save the record to {self.save_path}", exc.strerror
                            or str(exc)) from None
        return str(self.save_path)

    # -- clocks ---------------------------------------------------------------------------
    def clock_line(self) -> str:
        """The clocks as one line (``""`` without clocks)."""
        clocks = self.table.clocks()
        if not clocks:
            return ""
        if len(clocks) == 1:
            return f"Clock: {format_seconds(clocks[0])} left"
        return "Clock: " + "   ".join(
            f"{self.player_label(p)} {format_seconds(left)}" for p, left in enumerate(clocks))

    def seconds_to(self, when: float | None) -> float | None:
        return None if when is None else max(0.0, when - self.now())


def seat_label(game: Game[Any, Any], seats: Sequence[Seat], seat: int,
               people: frozenset[int]) -> str:
    """How the terminal calls ``seat``: one name per seat, as the page and the pictures
    call it (``server.specs.called``, ``render.svg.common.seat_name``). A person's seat
    by the rules' name, "(you)" when one person plays here ("Blue (you)"); a bot by
    its level, with the side the rules name ("Bot level 1 (Green)") and the seat's
    number when two seats have the same bot ("Bot quatrefoil (seat 3)")."""
    def called(p: int) -> str:
        occupant = seats[p]
        if not occupant.is_bot:
            return game.player_name(p)
        twins = sum(1 for other in seats if other.is_bot and other.name == occupant.name)
        return bot_title(occupant.name) + (f" (seat {p + 1})" if twins > 1 else "")
    names = [called(p) for p in range(len(seats))]
    return seat_name(game, seat, names, you=seat in people and len(people) == 1)


def format_seconds(seconds: float) -> str:
    """``4:05``, or ``0:09.4`` under ten seconds."""
    if seconds < 10:
        return f"0:{max(0.0, seconds):04.1f}"
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
