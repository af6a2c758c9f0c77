"""Table events as wire JSON: what one recipient is told, with its own view inside."""

from __future__ import annotations

from typing import Any

from fourfold.core.game import Game
from fourfold.table.events import Event, EventKind
from fourfold.wire.errors import (
    JsonDict,
    WireError,
    array,
    exact_keys,
    integer,
    join,
    number,
    obj,
    one_of,
    opt_integer,
    opt_string,
    string,
)
from fourfold.wire.outcomes import outcome_from_json, outcome_to_json
from fourfold.wire.version import WIRE_VERSION, check_version
from fourfold.wire.views import view_from_json, view_to_json

KINDS = tuple(k.value for k in EventKind)
OFFERS = ("draw", "undo")
CLOCK_DECIMALS = 3  # clocks travel rounded to the millisecond
EVENT_KEYS = ("wire", "type", "kind", "version", "recipient", "seat", "move", "offer",
              "outcome", "clocks", "text", "view")


def round_clock(seconds: float) -> float:
    """Seconds rounded to 0.001 s (never ``-0.0``)."""
    return round(seconds, CLOCK_DECIMALS) + 0.0


def event_to_json(game: Game[Any, Any], event: Event) -> JsonDict:
    """One event as its recipient receives it (see docs/wire.md)."""
    return {
        "wire": WIRE_VERSION,
        "type": "event",
        "kind": event.kind.value,
        "version": event.version,
        "recipient": event.recipient,
        "seat": event.seat,
        "move": event.move,
        "offer": event.offer,
        "outcome": outcome_to_json(event.outcome),
        "clocks": [round_clock(c) for c in event.clocks],
        "text": event.text,
        "view": view_to_json(game, event.view),
    }


def event_from_json(game: Game[Any, Any], data: Any) -> Event:
    """The event a ``event_to_json`` document describes (its clocks as rounded)."""
    value = obj(data, None)
    exact_keys(value, EVENT_KEYS, None)
    check_version(value["wire"], "wire")
    if value["type"] != "event":
        raise WireError(f"expected type 'event', got {value['type']!r}", "type")
    n = game.num_players - 1
    recipient = opt_integer(value["recipient"], "recipient", 0, n)
    view = view_from_json(game, value["view"], "view")
    if view.player != recipient:
        raise WireError(f"the view is seat {view.player!r}'s, not the recipient's", "view")
    offer = value["offer"]
    clocks = array(value["clocks"], "clocks", game.num_players)
    return Event(
        kind=EventKind(one_of(value["kind"], KINDS, "kind")),
        version=integer(value["version"], "version", 0),
        recipient=recipient,
        view=view,
        text=string(value["text"], "text"),
        seat=opt_integer(value["seat"], "seat", 0, n),
        move=opt_string(value["move"], "move"),
        offer=None if offer is None else one_of(offer, OFFERS, "offer"),
        outcome=outcome_from_json(value["outcome"], "outcome"),
        clocks=tuple(number(c, join("clocks", i)) for i, c in enumerate(clocks)),
    )
