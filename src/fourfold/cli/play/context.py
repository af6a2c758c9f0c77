"""The interfaces of the terminal player: what commands and session runners see.

``PlayContext`` is one running session at the terminal (``Session`` implements it);
``Command`` is a word typed at the prompt; a ``SessionRunner`` runs a whole session.
Games add commands and runners through ``fourfold.cli.play.rules``; the
presenters in ``fourfold.render`` stay pure text functions.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from fourfold.cli.play.console import Console
from fourfold.core.game import Game, View
from fourfold.core.match import Match
from fourfold.render.presenter import Presenter
from fourfold.table import Event, Table

if TYPE_CHECKING:
    from fourfold.cli.play.rules import PlayRules


class PlayContext(Protocol):
    """A play session as commands and runners see it (implemented by ``Session``)."""

    @property
    def game(self) -> Game[Any, Any]: ...

    @property
    def table(self) -> Table:
        """The referee: act through it (``play``, ``offer``, ``answer``, ``resign``)."""
        ...

    @property
    def match(self) -> Match[Any, Any]:
        """The table's history (read it; act through the table)."""
        ...

    @property
    def presenter(self) -> Presenter: ...

    @property
    def console(self) -> Console: ...

    @property
    def rules(self) -> PlayRules: ...

    @property
    def people(self) -> frozenset[int]:
        """The seats played at this terminal."""
        ...

    @property
    def events(self) -> deque[Event]:
        """Events from the table not yet shown, as the first person's seat knows them."""
        ...

    @property
    def colour(self) -> bool:
        """Whether drawings may use colour on this terminal."""
        ...

    @property
    def seed(self) -> int | None:
        """The seed of the bots' choices and hints (never the deal's, unless the player
        chose the deal)."""
        ...

    @property
    def replay_seed(self) -> int | None:
        """The ``--seed`` that deals this game again: say it only once the game is over."""
        ...

    seat: int
    """The seat of the person who typed the line being handled."""

    def view(self) -> View:
        """What that person may know now (``table.view(seat)``)."""
        ...

    def is_human(self, seat: int) -> bool:
        """Whether a person at this terminal (not a bot) plays this seat."""
        ...

    def player_label(self, seat: int) -> str:
        """How to name a seat on screen, e.g. ``Player 2 (random)``."""
        ...

    def say(self, text: str) -> None:
        """Show text to the people at the terminal."""
        ...

    def ask(self, prompt: str) -> str | None:
        """Read one line; ``None`` when input has ended."""
        ...

    def now(self) -> float:
        """The table's clock."""
        ...

    def seconds_to(self, when: float | None) -> float | None:
        """Seconds from now (on the table's clock) until ``when``."""
        ...

    def close(self) -> None:
        """Stop listening to the table and stop its bots."""
        ...

    def clock_line(self) -> str:
        """The clocks, in one line (``""`` without clocks)."""
        ...

    def save(self) -> str | None:
        """Write the record if asked for one; return the path written, if any."""
        ...

    def wait_for(self, what: str, work: Callable[[], Any]) -> Any:
        """Run ``work`` off the terminal's thread, saying ``<what> is thinking...`` when it
        takes long; Ctrl-C interrupts the wait."""
        ...


@dataclass(frozen=True)
class Command:
    """A word typed at the prompt (``draw`` in Ice Dao, ``assist`` in freeform, ...).

    ``run(context, argument)`` receives the rest of the typed line. It returns ``True``
    when the position should be drawn again, ``False`` otherwise.
    """

    name: str
    summary: str
    run: Callable[[PlayContext, str], bool]


SessionRunner = Callable[[PlayContext], int]
"""A whole interactive session; returns an exit status."""
