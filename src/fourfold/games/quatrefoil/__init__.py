"""Quatrefoil (Michael Purcell): a cooperative puzzle for four seats (RULES.md §3)."""

from __future__ import annotations

from typing import Any

from fourfold.core.extensions import Extensions
from fourfold.core.registry import register
from fourfold.core.spec import (
    GameSpec,
    OptionSpec,
    Utility,
    VariantSpec,
    bool_option,
    choice_option,
)
from fourfold.games.quatrefoil.arrangement import (
    ACTION_NAMES,
    ALL_ARRANGEMENTS,
    CORNERS,
    TOKENS,
    Arrangement,
    act,
    format_arrangement,
    parse_arrangement_text,
)
from fourfold.games.quatrefoil.game import (
    CLOCK_OPTION,
    CLOCK_SECONDS_OPTION,
    FACE_UP_OPTION,
    QuatrefoilGame,
)
from fourfold.games.quatrefoil.state import Action, Deal, Move, Observation, QuatrefoilState

MAX_CLOCK = 3600


def _parse_seconds(value: Any) -> int:
    text = str(value).strip()
    if not text.isascii() or not text.isdigit():
        raise ValueError("must be a whole number of seconds")
    seconds = int(text)
    if not 1 <= seconds <= MAX_CLOCK:
        raise ValueError(f"must be 1 to {MAX_CLOCK} seconds")
    return seconds


def _clock_seconds(help_text: str) -> OptionSpec:
    return OptionSpec(CLOCK_SECONDS_OPTION, 120, help_text, _parse_seconds)


FACE_UP = choice_option(
    FACE_UP_OPTION,
    ("colour", "position"),
    "colour",
    "which cards lie face up: every colour card (north included) or every position card",
)

SPEC = register(
    GameSpec(
        package=__name__,
        summary="Cooperative: four seats with hidden cards slide five tokens into place.",
        factory=QuatrefoilGame,
        num_players=4,
        utility=Utility.COOPERATIVE,
        perfect_information=False,
        variants=(
            VariantSpec("base", "cards face down; each seat shows only its signal"),
            VariantSpec("nothing-to-hide", "all cards face up; solve in the fewest actions"),
            VariantSpec("half-and-half", "all colour cards, or all position cards, face up",
                        options=(FACE_UP,)),
            VariantSpec(
                "race-the-clock", "the base game against a clock (2 minutes)",
                options=(_clock_seconds("seconds on the clock from the deal"),),
            ),
            VariantSpec(
                "dual",
                "real time, solution face up; each seat may push only into its own corner",
                options=(
                    bool_option(CLOCK_OPTION, False, "play against the clock"),
                    _clock_seconds("seconds on the clock when clock=true"),
                ),
                extensions=Extensions(terminal="fourfold.games.quatrefoil.terminal:DUAL_RULES"),
            ),
        ),
    )
)

__all__ = [
    "ACTION_NAMES",
    "ALL_ARRANGEMENTS",
    "CORNERS",
    "SPEC",
    "TOKENS",
    "Action",
    "Arrangement",
    "Deal",
    "Move",
    "Observation",
    "QuatrefoilGame",
    "QuatrefoilState",
    "act",
    "format_arrangement",
    "parse_arrangement_text",
]
