"""The examples of docs/wire.md, made from real objects (a test keeps the doc in step).

    .venv/bin/python scripts/wire_examples.py

prints every example as the doc shows it, to paste after a change of the format. The
examples play real games (Folio, Dao, Quatrefoil), so they live here, beside the docs'
other generators, not in the generic ``fourfold.wire`` package.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fourfold.core.match import Match
from fourfold.core.registry import load
from fourfold.table.clocks import ManualClock
from fourfold.table.events import Event
from fourfold.table.table import Table
from fourfold.wire.errors import JsonDict, WireError
from fourfold.wire.events import event_from_json, event_to_json
from fourfold.wire.messages import parse_client_message
from fourfold.wire.outcomes import record_from_json, record_to_json
from fourfold.wire.views import view_from_json, view_to_json

#: name -> () -> (the JSON, a check that a reader accepts it)
Example = Callable[[], tuple[Any, Callable[[Any], None]]]


def _reads(read: Callable[[Any], object]) -> Callable[[Any], None]:
    """A check that only reads (it raises ``WireError`` if the reader refuses)."""
    def check(value: Any) -> None:
        read(value)
    return check


def _folio_view() -> tuple[Any, Callable[[Any], None]]:
    game = load("folio", "standard")
    match = Match(game)
    for move in ("Gs", "d4 Rl", "e5 Bm"):
        match.play(move)
    return view_to_json(game, match.view(0)), _reads(lambda data: view_from_json(game, data))


def _quatrefoil_table() -> tuple[Table, list[Event]]:
    game = load("quatrefoil", "race-the-clock")
    clock = ManualClock()
    table = Table(game, clock=clock, inline_bots=True)
    events: list[Event] = []
    table.subscribe(1, events.append)
    clock.advance(4.25)
    table.play(0, "N>NW", 0)
    clock.advance(3.5)
    table.play(1, "cw", 1)
    return table, events


def _quatrefoil_view() -> tuple[Any, Callable[[Any], None]]:
    table, _ = _quatrefoil_table()
    game = table.game
    return view_to_json(game, table.view(1)), _reads(lambda data: view_from_json(game, data))


def _quatrefoil_event() -> tuple[Any, Callable[[Any], None]]:
    table, events = _quatrefoil_table()
    game = table.game
    return event_to_json(game, events[-1]), _reads(lambda data: event_from_json(game, data))


def _dao_view() -> tuple[Any, Callable[[Any], None]]:
    game = load("dao")
    match = Match(game)
    match.play(game.legal_moves(match.state)[0])
    return view_to_json(game, match.view(None)), _reads(lambda data: view_from_json(game, data))


def _record() -> tuple[Any, Callable[[Any], None]]:
    game = load("quatrefoil", "base")
    match = Match(game, game.initial_state(seed=3), date="2026-01-02")
    for move in ("N>NW", "cw", "E>NE"):
        match.play(move)
    return record_to_json(match.record_for(2)), _reads(lambda data: record_from_json(data))


def _message(data: JsonDict) -> Example:
    def make() -> tuple[Any, Callable[[Any], None]]:
        return data, _reads(lambda value: parse_client_message(value))
    return make


def _error(text: str) -> Example:
    def make() -> tuple[Any, Callable[[Any], None]]:
        try:
            parse_client_message(text)
        except WireError as error:
            return {"sent": text, "error": str(error)}, lambda value: None
        raise AssertionError(f"{text!r} should be refused")
    return make


EXAMPLES: dict[str, Example] = {
    "message-move": _message({"type": "move", "move": "d4 Gs", "version": 3}),
    "message-move-dual": _message({"type": "move", "move": "2:cw@5", "version": 5}),
    "message-move-action": _message({"type": "move", "move": "a1-a3", "action": 0,
                                     "version": 3}),
    "message-resign": _message({"type": "resign", "version": 3}),
    "message-offer": _message({"type": "offer", "offer": "draw", "version": 3}),
    "message-answer": _message({"type": "answer", "accept": True}),
    "message-ping": _message({"type": "ping"}),
    "error-bool-version": _error('{"type": "move", "move": "cw", "version": true}'),
    "error-unknown-type": _error('{"type": "emote", "text": "hi"}'),
    "error-bad-json": _error('{"type": "move", "move": "cw", "version": 3'),
    "view-folio": _folio_view,
    "view-dao": _dao_view,
    "view-quatrefoil": _quatrefoil_view,
    "event-quatrefoil": _quatrefoil_event,
    "record-quatrefoil": _record,
}


def pretty(value: Any, indent: int = 0, width: int = 88) -> str:
    """JSON with every part that fits on one line kept on one line (for the doc)."""
    flat = json.dumps(value, sort_keys=True, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        items = [pad + pretty(v, indent + 2, width) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = [f"{pad}{json.dumps(k)}: {pretty(value[k], indent + 2, width)}"
             for k in sorted(value)]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


def render(name: str) -> str:
    value, _ = EXAMPLES[name]()
    return f"<!-- example: {name} -->\n```json\n{pretty(value)}\n```"


if __name__ == "__main__":
    for example in EXAMPLES:
        print(render(example), end="\n\n")
