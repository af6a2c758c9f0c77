"""What a page is sent with each event, so it can draw the change without asking.

A page's WebSocket says ``{"type": "hello", "token": ..., "screen": true}``. Then every
event it is sent also carries ``screen``: the picture of the event's own view (the SVG,
with the last move marked), the recipient's legal moves as structured choices
(wire/choices.py), the URL of the game's controller that acts on them (``null``: the
generic one; web/controllers.py), the table's public facts
(``table_info``: seats, status, rematch, undo) and whether hints may be asked for.
Everything that depends on the game comes from the event's view, the one view the
event was built from; the rest is what anyone with the table's link may know. API
bots leave ``screen`` out and are sent the plain events (docs/wire.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fourfold.core.errors import FourfoldError
from fourfold.core.game import View
from fourfold.core.spec import Utility
from fourfold.server.live import LiveTable
from fourfold.server.protocol import table_info
from fourfold.server.specs import BOT, called
from fourfold.server.web.controllers import controller_url
from fourfold.table import Event
from fourfold.table.events import EventKind
from fourfold.wire.choices import choices_json

Dresser = Callable[[Event], dict[str, Any]]
#: events after which the position is the one before (the last move stays marked)
SAME_POSITION = frozenset({EventKind.OFFER, EventKind.DECLINE, EventKind.SEATS,
                           EventKind.END})


def seat_names(live: LiveTable) -> tuple[str, ...]:
    """One name per seat, as the page and the table's event texts say it (util.js's
    seatName, ``specs.called``): the person's name, or the bot and its level, with the
    seat's number when two seats have the same bot. The pictures are drawn with these
    names (render/svg/common.py)."""
    seats = list(live.seats)
    return tuple(called(seats, p) for p in range(len(seats)))


def hints_allowed(live: LiveTable, seat: int | None) -> bool:
    """Hints only for a seat whose every other seat is a bot (never between people),
    and never at a table of the daily deal (its players race the other tables)."""
    return seat is not None and all(s.kind == BOT for p, s in enumerate(live.seats)
                                    if p != seat) and not live.hub.daily.is_daily(live.id)


def page_facts(live: LiveTable, view: View) -> dict[str, Any]:
    """What a page needs besides the view that never changes during a game."""
    spec = live.game.info.spec
    return {"controller": controller_url(spec, live.game.info.variant),
            "cooperative": spec.utility is Utility.COOPERATIVE,
            "perfect_information": spec.perfect_information}


def screen_dresser(live: LiveTable, recipient: int | None) -> Dresser:
    """A function giving each of ``recipient``'s events its ``screen`` (called in the
    order the events are delivered, for one connection)."""
    from fourfold.render.svg import draw_svg

    game = live.game
    before: list[View | None] = [None]
    last: list[Any] = [None]

    def dress(event: Event) -> dict[str, Any]:
        view = event.view
        if event.kind is EventKind.MOVE and event.move is not None:
            last[0] = None
            previous = before[0]
            if previous is not None:
                try:  # the move read from the view it was made on, to mark it
                    last[0] = game.view_parse_move(previous, event.move)
                except (FourfoldError, ValueError, KeyError, IndexError):
                    last[0] = None
        elif event.kind not in SAME_POSITION:
            last[0] = None  # a start or an undo: the page asks for the whole screen
        before[0] = view
        outcome = game.view_outcome(view)
        picture = draw_svg(game, view, last_move=last[0], outcome=outcome,
                           names=seat_names(live))
        return {"svg": str(picture), "choices": choices_json(game, view),
                "table": table_info(live),
                "hints": hints_allowed(live, recipient) and outcome is None,
                **page_facts(live, view)}

    return dress
