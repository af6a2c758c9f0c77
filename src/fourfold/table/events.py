"""What a table tells its recipients: one ``Event`` per recipient, built from its view.

An event never holds the referee's state. Its ``view`` is the recipient's own view
after the event, and its ``move`` is the move's notation as written from that view.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from fourfold.core.game import View
from fourfold.core.outcome import Outcome


class EventKind(Enum):
    START = "start"          # the table opened (or a recipient joined): here is your view
    MOVE = "move"            # a move landed
    UNDO = "undo"            # moves were taken back
    OFFER = "offer"          # a draw or undo offer was made
    DECLINE = "decline"      # an offer was declined or withdrawn
    END = "end"              # the game ended (by the rules, resignation, agreement, clock)
    SEATS = "seats"          # who sits where changed


@dataclass(frozen=True)
class Event:
    """One thing that happened, as one recipient may know it.

    ``version`` is the table's version after the event. ``seat`` is who did it (``None``
    for the table itself: a clock running out). ``move`` is set for ``MOVE``; ``offer``
    (``"draw"`` or ``"undo"``) for ``OFFER``/``DECLINE``, and for ``START`` the offer
    open then, with ``seat`` the seat that made it; ``outcome`` for ``END``;
    ``clocks`` is the seconds left on each player's clock (or the shared one, as a
    one-element tuple), or ``()`` without clocks. ``text`` says it in words.
    """

    kind: EventKind
    version: int
    recipient: int | None
    view: View
    text: str
    seat: int | None = None
    move: str | None = None
    offer: str | None = None
    outcome: Outcome | None = None
    clocks: tuple[float, ...] = ()
