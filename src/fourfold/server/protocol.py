"""The JSON the server writes around the wire format: a table's state for one caller,
its seats, and refusals with the HTTP status they carry.

Every part that depends on the game comes from the caller's view (``Table.snapshot``
-> ``view_to_json``), so a state holds nothing its caller may not know.
"""

from __future__ import annotations

from typing import Any

from fourfold.server.live import LiveTable
from fourfold.table import Snapshot, TableError
from fourfold.wire import outcome_to_json, round_clock, view_to_json

#: ``TableError.kind`` -> HTTP status
STATUS = {"seat": 403, "stale": 409, "over": 409, "turn": 409, "save": 503, "hidden": 409,
          "refused": 422}


def refusal_status(error: TableError) -> int:
    return STATUS.get(getattr(error, "kind", "refused"), 422)


def error_json(status: int, reason: str, **extra: Any) -> dict[str, Any]:
    return {"type": "refused", "status": status, "error": reason, **extra}


def seat_url(live: LiveTable, token: str | None = None) -> str:
    return f"/t/{live.id}" + (f"#seat={token}" if token else "")


def seats_json(live: LiveTable) -> list[dict[str, Any]]:
    return [{"seat": p, "name": s.name, "kind": s.kind, "bot": s.bot}
            for p, s in enumerate(live.seats)]


def table_info(live: LiveTable) -> dict[str, Any]:
    """What anyone with the table's link may know about it, besides the game."""
    game = live.game
    return {
        "id": live.id,
        "url": seat_url(live),
        "game": game.name,
        "variant": game.info.variant,
        "options": dict(game.info.option_strings()),
        "status": live.status,
        "private": live.private,
        "seats": seats_json(live),
        "clock": None if live.clock is None else {"base": live.clock.base,
                                                  "increment": live.clock.increment},
        "shared_clock": game.shared_clock_seconds,
        "real_time": live.table.real_time,
        "rematch": live.rematch_id,
        "rematch_of": live.rematch_of,
        # the creator chose the deal: told to everyone, never ranked (docs/api.md)
        "known_deal": live.known_deal,
        # whether a seat may ask to take back a move now (never while a card is hidden,
        # nor once the game is over)
        "undo": (live.table.outcome is None and not live.table.real_time
                 and not live.table.hides_something()),
    }


def state_json(live: LiveTable, recipient: int | None,
               snapshot: Snapshot | None = None) -> dict[str, Any]:
    """``GET /api/tables/{id}``: the table as ``recipient`` may know it, at one instant
    (``snapshot``, taken now unless given)."""
    if snapshot is None:
        snapshot = live.table.snapshot(recipient)
    view = view_to_json(live.game, snapshot.view)
    offer = snapshot.offer
    return {
        "type": "state",
        **table_info(live),
        "you": recipient,
        "version": snapshot.version,
        "view": view,
        "legal": view["legal_moves"],
        "to_act": view["actors"],
        "clocks": [round_clock(c) for c in snapshot.clocks],
        "outcome": outcome_to_json(snapshot.outcome),
        "offer": None if offer is None else {"offer": offer[0], "seat": offer[1]},
    }
