"""What a table is made of: its game, start, seats and clock, checked before anything
is stored, and turned into a ``Table`` (again after a restart).

A table's randomness comes in independent streams: the deal (secret, in the stored
record), the bots' choices (``bot_seed``) and the bots' visible pauses
(``pause_seed``); ``seated_table`` is the one place that wires them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fourfold.ai import bot_names, make_bot
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.record import check_player_name
from fourfold.core.registry import load
from fourfold.core.spec import Utility
from fourfold.server.settings import Settings
from fourfold.table import ClockSettings, Seat, Table
from fourfold.table.table import is_real_time

MAX_NAME = 40
HUMAN, OPEN, BOT = "human", "open", "bot"


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in one seat: ``human`` (a link is handed out at once), ``open`` (the
    first to join from the lobby takes it) or ``bot`` (``bot`` names which)."""

    kind: str
    name: str
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "bot": self.bot}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatSpec:
        return cls(str(data["kind"]), str(data["name"]), data.get("bot"))


#: characters a name may not hold: controls (C0, DEL, C1), line and paragraph separators,
#: zero-width and direction marks, and the bidirectional embeddings, overrides and
#: isolates, which would turn the lobby's or a page's text around ("Trojan Source");
#: the chat cleans the same set (server/chat/service.py)
_HIDDEN = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def display_name(name: str) -> str:
    """A seat's display name, stripped; refused (one line: what and why) if it is too
    long, blank, holds a comma (the record's Players tag is comma-separated) or a
    control or direction character."""
    if len(name) > MAX_NAME:
        raise ConfigurationError(f"a display name is at most {MAX_NAME} characters")
    found = _HIDDEN.search(name)
    if found is not None:
        raise ConfigurationError(f"a display name may not hold control or direction"
                                 f" characters (U+{ord(found.group()):04X})")
    if not name.strip():
        raise ConfigurationError("a display name may not be blank")
    if "," in name:
        raise ConfigurationError(f"a display name may not hold a comma: {name!r}")
    return check_player_name(name)


def parse_seat(game: Game[Any, Any], seat: int, player: str, name: str | None) -> SeatSpec:
    """``"human"``, ``"open"`` or ``"bot:LEVEL"`` (any bot of ``fourfold bots``)."""
    text = player.strip().lower()
    if text in (HUMAN, OPEN):
        return SeatSpec(text, display_name(name) if name else game.player_name(seat))
    if text.startswith("bot:"):
        bot = text[4:]
        if bot not in bot_names():
            raise ConfigurationError(f"seat {seat + 1}: unknown bot {bot!r}; the bots are "
                                     + ", ".join(bot_names()))
        try:
            make_bot(bot, game, seat, 0)
        except FourfoldError as error:
            raise ConfigurationError(f"seat {seat + 1}: {error}") from None
        return SeatSpec(BOT, display_name(name) if name else bot, bot)
    raise ConfigurationError(f"seat {seat + 1}: {player[:40]!r} is not a seat; write"
                             " 'human', 'open' or 'bot:LEVEL' (e.g. bot:level3)")


def configured_game(name: str, variant: str | None, options: dict[str, Any]
                    ) -> Game[Any, Any]:
    return load(name, variant, **options)


def check_clock(game: Game[Any, Any], base: float, increment: float) -> ClockSettings:
    if game.num_players != 2 or game.info.spec.utility is not Utility.ZERO_SUM:
        timed = _shared_timer_variants(game)
        raise ConfigurationError(
            f"{game.name} has no clock per player"
            + (f" ({'its variants' if len(timed) > 1 else 'its variant'} {', '.join(timed)}"
               f" {'share' if len(timed) > 1 else 'shares'} one timer: see its options)"
               if timed else ""))
    return ClockSettings(base, increment)


def _shared_timer_variants(game: Game[Any, Any]) -> list[str]:
    """The variants of ``game`` played against one shared timer (asked of each)."""
    names = []
    for variant in game.info.spec.variants:
        if variant.unavailable:
            continue
        try:
            if load(game.name, variant.name).shared_clock_seconds is not None:
                names.append(variant.name)
        except FourfoldError:
            continue
    return names


def bot_pace(game: Game[Any, Any], match: Match[Any, Any], settings: Settings) -> float:
    """The bots' mean pause at a table of ``game`` from ``match``'s start: the real-time
    pace where several seats may act at once."""
    real_time = is_real_time(game, game.actors(match.start))
    return settings.real_time_bot_pace if real_time else settings.bot_pace


def bot_title(bot: str) -> str:
    """A bot as people say it: ``Bot level 2``, ``Bot greedy`` (as the page's
    ``botName`` in static/util.js)."""
    level = re.fullmatch(r"level(\d+)", bot)
    return f"Bot level {level.group(1)}" if level else f"Bot {bot}"


def called(specs: list[SeatSpec], p: int) -> str:
    """One name per seat everywhere (the page's ``seatName``): a person's name, or the
    bot and its level, with the seat's number when another seat has the same bot
    (``Bot level 1 (seat 3)``); a bot's stored name goes only in the record. The table's
    event texts use it."""
    spec = specs[p]
    if spec.kind != BOT or spec.bot is None:
        return spec.name
    twins = sum(1 for s in specs if s.kind == BOT and s.bot == spec.bot)
    return bot_title(spec.bot) + (f" (seat {p + 1})" if twins > 1 else "")


def seat_of(game: Game[Any, Any], p: int, spec: SeatSpec, seed: int, pace: float,
            playing: bool, name: str | None = None) -> Seat:
    """The ``Seat`` for ``spec`` (called ``name``, else the spec's name); bots wait (an
    empty seat) until ``playing``."""
    if spec.kind == BOT and playing:
        assert spec.bot is not None
        bot = make_bot(spec.bot, game, p, seed + p)
        bot.name = name or spec.name
        return Seat.of_bot(bot, pace)
    if spec.kind == HUMAN:
        return Seat.human(spec.name)
    return Seat.empty(spec.name)


def seated_table(game: Game[Any, Any], specs: list[SeatSpec], match: Match[Any, Any], *,
                 bot_seed: int, pause_seed: int, pace: float, playing: bool,
                 **table_options: Any) -> Table:
    """The ``Table`` of a server table: the deal is ``match``'s start, the bots play
    from ``bot_seed`` and pause from ``pause_seed`` (streams of their own, never the
    deal's); every bot has seen its seat's view before the first change."""
    seats = [seat_of(game, p, s, bot_seed, pace, playing, called(specs, p))
             for p, s in enumerate(specs)]
    table = Table(game, seats, match=match, seed=pause_seed, **table_options)
    for p, seat in enumerate(seats):
        if seat.is_bot:
            seat.bot.observe(table.view(p))
    return table
