"""The day's secret deals: which games have one, and how each is keyed.

A daily deal is offered for every cooperative game with hidden cards (Quatrefoil),
one per variant and UTC day. Its seed is ``HMAC-SHA256(secret, "game/variant/day")``,
where the secret is the server's, made once with ``secrets`` and kept in the database
(``DailyStore.secret``), so every instance on that database deals the same cards and
nobody outside can compute them from the date.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from fourfold.core.errors import ConfigurationError
from fourfold.core.game import Game
from fourfold.core.registry import game_names, get_spec, load
from fourfold.core.spec import Utility


@dataclass(frozen=True)
class DailyKind:
    """One game and variant that has a daily deal."""

    game: str
    variant: str
    title: str
    summary: str


def daily_kinds() -> tuple[DailyKind, ...]:
    """Every game and variant with a daily deal, in the registry's order."""
    kinds: list[DailyKind] = []
    for name in game_names():
        spec = get_spec(name)
        if spec.utility is not Utility.COOPERATIVE or spec.perfect_information:
            continue
        kinds.extend(DailyKind(name, v.name, spec.title, v.summary)
                     for v in spec.variants if not v.unavailable)
    return tuple(kinds)


def daily_kind(game: str, variant: str) -> DailyKind:
    """The daily deal's kind, or a one-line refusal naming those there are."""
    kinds = daily_kinds()
    for kind in kinds:
        if kind.game == game and kind.variant == variant:
            return kind
    offered = ", ".join(f"{k.game}/{k.variant}" for k in kinds)
    raise ConfigurationError(f"there is no daily deal of {game[:40]}/{variant[:40]};"
                             f" there are: {offered}")


def deal_seed(secret: bytes, kind: DailyKind, day: str) -> int:
    """The seed of ``kind``'s deal on ``day`` (64 bits of an HMAC under ``secret``)."""
    message = f"{kind.game}/{kind.variant}/{day}".encode()
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest()[:8], "big")


def daily_game(kind: DailyKind) -> Game[Any, Any]:
    """The configured game of ``kind`` (its variant's default options)."""
    return load(kind.game, kind.variant)
