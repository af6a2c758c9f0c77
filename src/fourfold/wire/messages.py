"""What a client sends: five small messages, parsed strictly.

    {"type": "move", "move": "d4 Gs", "version": 3}      (optionally "action": 37)
    {"type": "resign", "version": 3}
    {"type": "offer", "offer": "draw", "version": 3}
    {"type": "answer", "accept": true}
    {"type": "ping"}
    {"type": "chat", "text": "good game"}              (a seat's line of table chat)

Any message may also carry ``"wire": 1``. ``version`` is the table version the
client acted on; the table refuses an action sent on an older one. A move may carry
its structured value, the dense ``action`` number from the choices a page is sent
(wire/choices.py), with the notation alongside: the two must name the same move. Anything else
(bad JSON, a wrong type, a missing or unknown field, a value out of range, too long)
is a ``WireError`` saying what, where and why, and never another exception.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from fourfold.core.errors import FourfoldError
from fourfold.table.table import Table
from fourfold.wire.errors import (
    JsonDict,
    WireError,
    boolean,
    exact_keys,
    integer,
    json_type,
    obj,
    string,
)
from fourfold.wire.version import check_version

MAX_MESSAGE_BYTES = 4096
MAX_MOVE_CHARS = 200
#: the longest line of table chat, in characters
MAX_CHAT_CHARS = 300
MAX_VERSION = 2**53 - 1  # what every JSON client can hold exactly
MAX_DEPTH = 8
OfferKind = Literal["draw", "undo"]


@dataclass(frozen=True)
class MoveMessage:
    move: str
    version: int
    action: int | None = None
    type: Literal["move"] = "move"


@dataclass(frozen=True)
class ResignMessage:
    version: int
    type: Literal["resign"] = "resign"


@dataclass(frozen=True)
class OfferMessage:
    offer: OfferKind
    version: int
    type: Literal["offer"] = "offer"


@dataclass(frozen=True)
class AnswerMessage:
    accept: bool
    type: Literal["answer"] = "answer"


@dataclass(frozen=True)
class PingMessage:
    type: Literal["ping"] = "ping"


@dataclass(frozen=True)
class ChatMessage:
    """A line of table chat (server/chat/: who may chat, how often, and who reads it)."""

    text: str
    type: Literal["chat"] = "chat"


ClientMessage = (MoveMessage | ResignMessage | OfferMessage | AnswerMessage | PingMessage
                 | ChatMessage)

#: the fields of each message type, besides ``type`` (and an optional ``wire``)
FIELDS: dict[str, tuple[str, ...]] = {
    "move": ("move", "version"),
    "resign": ("version",),
    "offer": ("offer", "version"),
    "answer": ("accept",),
    "ping": (),
    "chat": ("text",),
}
#: fields a message type may leave out
OPTIONAL: dict[str, tuple[str, ...]] = {"move": ("action",)}
#: the largest action number a message may carry
MAX_ACTION = 2**31 - 1


def _no_constant(name: str) -> Any:
    raise WireError(f"{name} is not a JSON number")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise WireError(f"the number {text[:20]!r} is too large")
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > 20:
        raise WireError(f"the integer {text[:20]}... has too many digits")
    return int(text)


def _pairs(pairs: list[tuple[str, Any]]) -> JsonDict:
    result: JsonDict = {}
    for key, value in pairs:
        if key in result:
            raise WireError(f"field {key[:40]!r} appears twice")
        result[key] = value
    return result


#: made once: ``json.loads`` with these hooks built a new decoder for every message
_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_float,
                            parse_int=_int, object_pairs_hook=_pairs)


def decode_json(text: str | bytes) -> Any:
    """Read JSON text of at most ``MAX_MESSAGE_BYTES``: no NaN/Infinity, no repeated keys."""
    if isinstance(text, bytes):
        if len(text) > MAX_MESSAGE_BYTES:
            raise WireError(f"too long: {len(text)} bytes, at most {MAX_MESSAGE_BYTES}")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WireError(f"not UTF-8 at byte {exc.start + 1}") from None
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise WireError(f"too long: {size} bytes, at most {MAX_MESSAGE_BYTES}")
    try:
        if text.startswith("\ufeff"):  # as json.loads says it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)",
                                       text, 0)
        return _DECODER.decode(text)
    except WireError:
        raise
    except json.JSONDecodeError as exc:
        raise WireError(f"invalid JSON at line {exc.lineno} column {exc.colno}"
                        f" (character {exc.pos + 1}): {exc.msg}") from None
    except RecursionError:
        raise WireError("invalid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer beyond Python's digit limit
        raise WireError(f"invalid JSON: {exc}") from None


def _version(value: Mapping[str, Any]) -> int:
    return integer(value["version"], "version", 0, MAX_VERSION)


def parse_client_message(message: str | bytes | Mapping[str, Any]) -> ClientMessage:
    """A client's message, from JSON text or an already decoded object."""
    data = decode_json(message) if isinstance(message, (str, bytes)) else message
    value = obj(data, None)
    if "type" not in value:
        raise WireError(f"missing field 'type' (one of {', '.join(FIELDS)})")
    kind = value["type"]
    if not isinstance(kind, str):
        raise WireError(f"expected a string, got {json_type(kind)}", "type")
    if kind not in FIELDS:
        raise WireError(f"unknown message type {kind[:40]!r}; the types are"
                        f" {', '.join(FIELDS)}", "type")
    exact_keys(value, ("type", *FIELDS[kind]), None,
               optional=("wire", *OPTIONAL.get(kind, ())))
    if "wire" in value:
        check_version(value["wire"], "wire")
    if kind == "move":
        move = string(value["move"], "move", MAX_MOVE_CHARS)
        action = value.get("action")
        return MoveMessage(move, _version(value), None if action is None
                           else integer(action, "action", 0, MAX_ACTION))
    if kind == "resign":
        return ResignMessage(_version(value))
    if kind == "offer":
        offer = string(value["offer"], "offer", 16)
        if offer == "draw":
            return OfferMessage("draw", _version(value))
        if offer == "undo":
            return OfferMessage("undo", _version(value))
        raise WireError(f"one may offer 'draw' or 'undo', not {offer!r}", "offer")
    if kind == "answer":
        return AnswerMessage(boolean(value["accept"], "accept"))
    if kind == "chat":
        return ChatMessage(string(value["text"], "text", MAX_CHAT_CHARS))
    return PingMessage()


def client_message_to_json(message: ClientMessage) -> JsonDict:
    """The JSON a client sends for ``message`` (``parse_client_message`` reads it back)."""
    if isinstance(message, MoveMessage):
        if message.action is not None:
            return {"type": "move", "move": message.move, "action": message.action,
                    "version": message.version}
        return {"type": "move", "move": message.move, "version": message.version}
    if isinstance(message, ResignMessage):
        return {"type": "resign", "version": message.version}
    if isinstance(message, OfferMessage):
        return {"type": "offer", "offer": message.offer, "version": message.version}
    if isinstance(message, AnswerMessage):
        return {"type": "answer", "accept": message.accept}
    if isinstance(message, ChatMessage):
        return {"type": "chat", "text": message.text}
    return {"type": "ping"}


def apply_client_message(table: Table, seat: int, message: ClientMessage) -> str:
    """Do what ``seat``'s message asks at ``table``; return what happened, in words.

    A refusal is the table's ``TableError``, written from ``seat``'s view.
    """
    if isinstance(message, MoveMessage):
        if message.action is not None:
            check_action(table, seat, message.move, message.action)
        return table.play(seat, message.move, message.version)
    if isinstance(message, ResignMessage):
        table.resign(seat, message.version)
        return "resigned"
    if isinstance(message, OfferMessage):
        return table.offer(seat, message.offer, message.version)
    if isinstance(message, AnswerMessage):
        return table.answer(seat, message.accept)
    if isinstance(message, ChatMessage):
        raise WireError("chat is not an action at the table: the server's chat takes it",
                        "type")
    return "pong"


def check_action(table: Table, seat: int, notation: str, action: int) -> None:
    """Refuse a move whose action number and notation name different moves (a
    ``WireError`` on ``action``), read from ``seat``'s own view. Notation that does not
    parse is left to the table, which says why from that view."""
    game = table.game
    try:
        decoded = game.decode(action)
    except (FourfoldError, NotImplementedError):
        raise WireError(f"action {action} is not a move of {game.info.label()} (actions"
                        f" are 0 to {game.num_actions - 1})", "action") from None
    view = table.snapshot(seat).view
    try:
        written = game.view_parse_move(view, notation)
    except FourfoldError:
        return
    if written != decoded:
        try:
            named = repr(game.view_format_move(view, decoded))
        except FourfoldError:
            named = "another move"
        raise WireError(f"action {action} is {named}, not {notation!r}: the two must name"
                        " the same move", "action")
