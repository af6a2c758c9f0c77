"""The JSON wire format, version 1 (docs/wire.md): what the server and clients exchange.

Moves travel in each game's notation. Views, legal moves, outcomes, events and
records become plain JSON, built from views only; client messages are parsed
strictly (``WireError`` on anything else). A game's own board travels through the
``BoardCodec`` its extension bundle names (``fourfold.wire.codec``).
"""

from fourfold.wire.codec import BoardCodec
from fourfold.wire.errors import JsonDict, WireError
from fourfold.wire.events import event_from_json, event_to_json, round_clock
from fourfold.wire.messages import (
    MAX_MESSAGE_BYTES,
    MAX_MOVE_CHARS,
    AnswerMessage,
    ClientMessage,
    MoveMessage,
    OfferMessage,
    PingMessage,
    ResignMessage,
    apply_client_message,
    client_message_to_json,
    parse_client_message,
)
from fourfold.wire.outcomes import (
    outcome_from_json,
    outcome_to_json,
    record_from_json,
    record_to_json,
)
from fourfold.wire.version import WIRE_VERSION
from fourfold.wire.views import view_from_json, view_to_json

__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_MOVE_CHARS",
    "WIRE_VERSION",
    "AnswerMessage",
    "BoardCodec",
    "ClientMessage",
    "JsonDict",
    "MoveMessage",
    "OfferMessage",
    "PingMessage",
    "ResignMessage",
    "WireError",
    "apply_client_message",
    "client_message_to_json",
    "event_from_json",
    "event_to_json",
    "outcome_from_json",
    "outcome_to_json",
    "parse_client_message",
    "record_from_json",
    "record_to_json",
    "round_clock",
    "view_from_json",
    "view_to_json",
]
