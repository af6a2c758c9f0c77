"""The length cap and the draws shared by Ice Dao and classic Dao."""

from __future__ import annotations

from typing import Any

from fourfold.core.outcome import Outcome
from fourfold.core.spec import OptionSpec

NO_CAP = "none"


def parse_max_plies(value: Any) -> int | None:
    """``none`` (no cap) or a whole number of plies, at least 1."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError("must be a number of plies or none")
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip().lower()
        if text == NO_CAP:
            return None
        if not text.isascii() or not text.isdigit():
            raise ValueError("must be a number of plies or none")
        number = int(text)
    if number < 1:
        raise ValueError("must be at least 1 (or none for no cap)")
    return number


def format_max_plies(value: int | None) -> str:
    return NO_CAP if value is None else str(value)


MAX_PLIES = OptionSpec(
    "max-plies",
    None,
    "end the game as a draw ('length cap reached') after this many plies from the start,"
    " for bot games and analysis; none = no cap",
    parse_max_plies,
    format=format_max_plies,
)

LENGTH_CAP_REASON = "length cap reached"


def repetition_or_cap(
    repetitions: int, plies: int, max_plies: int | None, side_to_move: str
) -> Outcome | None:
    """The draws shared by Ice Dao and Dao: a position (with the same side to move)
    occurring for the third time, or the length cap."""
    if repetitions >= 3:
        return Outcome.draw(
            f"threefold repetition (the same position with {side_to_move} to move occurred"
            " for the third time)"
        )
    if max_plies is not None and plies >= max_plies:
        return Outcome.draw(LENGTH_CAP_REASON)
    return None
