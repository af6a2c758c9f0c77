"""Outcomes and game records as wire JSON (``core.outcome.Outcome``, ``core.record.Record``)."""

from __future__ import annotations

from typing import Any

from fourfold.core.outcome import Outcome, Result
from fourfold.core.record import Record
from fourfold.wire.errors import (
    JsonDict,
    WireError,
    array,
    exact_keys,
    join,
    obj,
    one_of,
    opt_integer,
    opt_string,
    string,
)
from fourfold.wire.version import WIRE_VERSION, check_version

RESULTS = tuple(r.value for r in Result)


def outcome_to_json(outcome: Outcome | None) -> JsonDict | None:
    """``{"result": "win", "winner": 0, "reason": "..."}``, or ``None`` (game on)."""
    if outcome is None:
        return None
    return {"result": outcome.result.value, "winner": outcome.winner, "reason": outcome.reason}


def outcome_from_json(data: Any, where: str | None = "outcome") -> Outcome | None:
    if data is None:
        return None
    value = obj(data, where)
    exact_keys(value, ("result", "winner", "reason"), where)
    result = Result(one_of(value["result"], RESULTS, join(where, "result")))
    winner = opt_integer(value["winner"], join(where, "winner"), 0, 63)
    reason = string(value["reason"], join(where, "reason"))
    if (result is Result.WIN) != (winner is not None):
        raise WireError("a win names its winner, and only a win has one", join(where, "winner"))
    return Outcome(result, reason, winner)


def record_to_json(record: Record) -> JsonDict:
    """A record as JSON: the same fields as the text format, tags in an object."""
    return {
        "wire": WIRE_VERSION,
        "type": "record",
        "game": record.game,
        "variant": record.variant,
        "options": dict(record.options),
        "players": list(record.players),
        "date": record.date,
        "result": record.result,
        "termination": record.termination,
        "setup": record.setup,
        "moves": list(record.moves),
        "tags": dict(record.extra_tags),
    }


def _string_map(value: Any, where: str) -> dict[str, str]:
    mapping = obj(value, where)
    return {k: string(v, join(where, k)) for k, v in mapping.items()}


def record_from_json(data: Any) -> Record:
    value = obj(data, None)
    keys = ("wire", "type", "game", "variant", "options", "players", "date", "result",
            "termination", "setup", "moves", "tags")
    exact_keys(value, keys, None)
    check_version(value["wire"], "wire")
    if value["type"] != "record":
        raise WireError(f"expected type 'record', got {value['type']!r}", "type")
    players = array(value["players"], "players")
    moves = array(value["moves"], "moves")
    return Record(
        game=string(value["game"], "game"),
        variant=string(value["variant"], "variant"),
        options=_string_map(value["options"], "options"),
        players=tuple(string(p, join("players", i)) for i, p in enumerate(players)),
        date=string(value["date"], "date"),
        result=string(value["result"], "result"),
        termination=string(value["termination"], "termination"),
        setup=opt_string(value["setup"], "setup"),
        moves=tuple(string(m, join("moves", i)) for i, m in enumerate(moves)),
        extra_tags=_string_map(value["tags"], "tags"),
    )
