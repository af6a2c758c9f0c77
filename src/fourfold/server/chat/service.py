"""Who may chat at a table, the limits on a line, and sending it to the table."""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from typing import Any

from fourfold.core.spec import Utility
from fourfold.server.chat.store import ChatLine, ChatStore
from fourfold.server.live import LiveTable, dumps
from fourfold.server.specs import HUMAN
from fourfold.server.storage import Repository
from fourfold.wire.messages import MAX_CHAT_CHARS

#: a seat sends at most this many lines in this many seconds
RATE_LINES = 5
RATE_SECONDS = 10.0
#: lines kept per table
MAX_LINES = 500
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
_SPACES = re.compile(r"\s+")


class ChatRefused(Exception):
    """A line that is not sent: ``status`` (HTTP-like) and the reason in words."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason
        super().__init__(reason)


def chat_closed(live: LiveTable) -> str | None:
    """Why this table has no chat (``None``: it has)."""
    spec = live.game.info.spec
    if spec.utility is Utility.COOPERATIVE or live.game.num_players != 2:
        return (f"{spec.title} has no table chat: its rules limit what the players may"
                " tell each other to what the game itself lets them show")
    if any(s.kind != HUMAN for s in live.seats):
        return "table chat is for two people: this table has a bot or an open seat"
    return None


def clean(text: str) -> str:
    """One line of plain text: control and direction characters become spaces, runs of
    spaces one, no space at either end."""
    return _SPACES.sub(" ", _CONTROL.sub(" ", text)).strip()


class Chat:
    """The server's table chat (``app.state.chat``)."""

    def __init__(self, repo: Repository) -> None:
        self.store = ChatStore(repo)
        self._sent: dict[tuple[str, int], deque[float]] = {}
        self._lock = threading.Lock()

    def say(self, live: LiveTable, seat: int, text: str, now: float | None = None
            ) -> ChatLine:
        """Keep ``seat``'s line and send it to every connection at the table; raises
        ``ChatRefused`` (403: no chat here; 400: empty; 429: too fast; 507: the table's
        chat is full)."""
        closed = chat_closed(live)
        if closed is not None:
            raise ChatRefused(403, closed)
        line = clean(text)
        if not line:
            raise ChatRefused(400, "an empty line is not sent")
        if len(line) > MAX_CHAT_CHARS:
            raise ChatRefused(400, f"too long: {len(line)} characters, at most"
                                   f" {MAX_CHAT_CHARS}")
        now = time.time() if now is None else now
        self._take(live.id, seat, time.monotonic())
        if self.store.count(live.id) >= MAX_LINES:
            raise ChatRefused(507, f"this table's chat is full ({MAX_LINES} lines)")
        name = live.seats[seat].name or f"Player {seat + 1}"
        kept = self.store.add(live.id, seat, name[:80], line, now)
        live.broadcast(dumps(kept.to_json()))
        return kept

    def _take(self, table_id: str, seat: int, clock: float) -> None:
        with self._lock:
            sent = self._sent.setdefault((table_id, seat), deque())
            while sent and sent[0] <= clock - RATE_SECONDS:
                sent.popleft()
            if len(sent) >= RATE_LINES:
                wait = max(1, round(sent[0] + RATE_SECONDS - clock))
                raise ChatRefused(429, f"at most {RATE_LINES} lines in"
                                       f" {RATE_SECONDS:g} s: wait {wait} s")
            sent.append(clock)
            if len(self._sent) > 10_000:  # forget the oldest seats' counts
                for key in list(self._sent)[:5_000]:
                    del self._sent[key]

    def history(self, live: LiveTable) -> dict[str, Any]:
        """What a page opening the table reads: whether there is chat, why not, and the
        lines so far."""
        closed = chat_closed(live)
        lines = [] if closed is not None else self.store.lines(live.id)
        return {"enabled": closed is None, "reason": closed,
                "max_chars": MAX_CHAT_CHARS, "lines": [x.to_json() for x in lines]}


def chat_reply(chat: Chat, live: LiveTable, seat: int | None, text: str) -> dict[str, Any]:
    """The answer to a ``chat`` message on the table's socket (``ack`` or ``refused``);
    the line itself reaches every connection as its own ``chat`` message."""
    from fourfold.server.protocol import error_json

    if seat is None:
        return error_json(403, "spectators read the chat; only a seat may write in it")
    try:
        line = chat.say(live, seat, text)
    except ChatRefused as refused:
        return error_json(refused.status, refused.reason)
    return {"type": "ack", "text": "said", "chat": line.id, "version": live.table.version}
