"""Who sits in each seat of a table: a person, a bot, or nobody yet."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class SeatKind(Enum):
    HUMAN = "human"
    BOT = "bot"
    EMPTY = "empty"


@dataclass(frozen=True)
class Seat:
    """One seat. ``bot`` is the bot object of a bot seat; ``pace`` is the mean seconds a
    bot takes per action in real-time play (0: at once)."""

    kind: SeatKind
    name: str
    bot: Any = None
    pace: float = 0.0

    @classmethod
    def human(cls, name: str) -> Seat:
        return cls(SeatKind.HUMAN, name)

    @classmethod
    def empty(cls, name: str) -> Seat:
        return cls(SeatKind.EMPTY, name)

    @classmethod
    def of_bot(cls, bot: Any, pace: float = 0.0) -> Seat:
        return cls(SeatKind.BOT, str(getattr(bot, "name", "bot")), bot, pace)

    @property
    def is_bot(self) -> bool:
        return self.kind is SeatKind.BOT
