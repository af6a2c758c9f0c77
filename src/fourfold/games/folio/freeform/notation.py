"""Notation of Folio freeform (RULES.md §4): points ``x,y`` as decimals, plies and positions.

A point is two decimals with at most six places, ``1.25,-0.5``; the engine
writes the shortest form with at least one decimal (``1.0,0.0``). Plies are
``Gs`` (the opening give), ``1.0,0.0 Gs`` (place, then give), ``1.0,0.0`` (a
placement that ends the game) and ``challenge``.

A position is ``<pieces> <hand>`` with an optional third word ``challenge``:
pieces are ``x,y=piece`` joined by ``;`` in the order they were placed (``-``
for none), the hand is the piece to place next (``-`` for none), and
``challenge`` says the player to move has challenged (the game is over), e.g.
``0.0,0.0=Gs;1.5,0.25=Rl Ym``.
"""

from __future__ import annotations

import math
import re

from fourfold.games.folio.freeform.state import Point

PLACES = 6  # decimal places of a coordinate
LIMIT = 1e6  # no coordinate beyond this can be on any table
CHALLENGE_WORD = "challenge"
EMPTY = "-"

_NUMBER = re.compile(r"^-?[0-9]+(?:\.([0-9]+))?$")


def format_number(value: float) -> str:
    """The shortest decimal with 1 to 6 places: ``1.0``, ``-0.5``, ``1.25``."""
    text = f"{value:.{PLACES}f}".rstrip("0")
    if text.endswith("."):
        text += "0"
    return "0.0" if text == "-0.0" else text


def parse_number(text: str) -> float:
    """A decimal coordinate; ``ValueError`` with the reason on bad text."""
    m = _NUMBER.match(text)
    if not m:
        raise ValueError(f"{text!r} is not a decimal number like 1.25 or -0.5")
    if m.group(1) is not None and len(m.group(1)) > PLACES:
        raise ValueError(f"{text!r} has more than {PLACES} decimal places")
    value = float(text)
    if abs(value) > LIMIT:
        raise ValueError(f"{text!r} is too far away to be on any table")
    return value + 0.0  # -0.0 becomes 0.0


def is_exact(value: float) -> bool:
    """Whether a coordinate is finite and written exactly with six decimal places."""
    return math.isfinite(value) and abs(value) <= LIMIT and round(value, PLACES) == value


def format_point(point: Point) -> str:
    return f"{format_number(point[0])},{format_number(point[1])}"


def parse_point(text: str) -> Point:
    """``x,y`` (spaces after the comma allowed); ``ValueError`` with the reason on bad text."""
    x_text, sep, y_text = text.strip().partition(",")
    if not sep:
        raise ValueError("a point is written x,y with decimal coordinates, e.g. 1.25,-0.5")
    return parse_number(x_text.strip()), parse_number(y_text.strip())
