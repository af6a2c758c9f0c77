"""Folio's sixteen pyramids and its two line rules (RULES.md §1).

Kinds are numbered ``colour * 3 + size`` with colours red, yellow, green,
blue and sizes small, medium, large: twelve kinds, four of which have a
second copy (the extra set).
"""

from __future__ import annotations

from collections.abc import Sequence

from fourfold.games.placement.pieces import PieceSet

COLOURS = "RYGB"
COLOUR_NAMES = ("red", "yellow", "green", "blue")
SIZES = "sml"
SIZE_NAMES = ("small", "medium", "large")
NUM_KINDS = len(COLOURS) * len(SIZES)

COLOURS_OR_SIZES = "colours-or-sizes"
SAME_COLOUR_OR_SIZE = "same-colour-or-size"
LINE_RULES = (COLOURS_OR_SIZES, SAME_COLOUR_OR_SIZE)

DEFAULT_EXTRA = (0, 4, 8, 11)  # small red, medium yellow, large green, large blue


def colour(kind: int) -> int:
    return kind // 3


def size(kind: int) -> int:
    return kind % 3


def piece_name(kind: int) -> str:
    return COLOURS[colour(kind)] + SIZES[size(kind)]


def parse_piece(text: str) -> int:
    """``Gs`` is a small green; letters are read in either case."""
    t = text.strip()
    if len(t) != 2 or t[0].upper() not in COLOURS or t[1].lower() not in SIZES:
        raise ValueError(
            "a piece is a colour letter R, Y, G or B and a size letter s, m or l (e.g. Gs)"
        )
    return COLOURS.index(t[0].upper()) * 3 + SIZES.index(t[1].lower())


def check_extra(kinds: Sequence[int]) -> tuple[int, ...]:
    """Validate an extra set against set-up steps 2 and 3; return it sorted.

    Step 2 adds one piece of each size, each of a different colour; step 3 one
    piece of the colour not used in step 2. Together: four pieces of four
    different colours covering all three sizes (then exactly one size repeats,
    and its two pieces can be split between the steps either way).
    """
    names = " ".join(piece_name(k) for k in kinds)
    if len(kinds) != 4:
        raise ValueError(
            f"the extra set is 4 pieces (3 from step 2, 1 from step 3), got {len(kinds)}: {names}"
        )
    colours = [colour(k) for k in kinds]
    for c in set(colours):
        if colours.count(c) > 1:
            raise ValueError(
                f"{names}: two extras are {COLOUR_NAMES[c]}, but steps 2 and 3 take one piece"
                " of each of the four colours"
            )
    missing = [SIZE_NAMES[s] for s in range(3) if s not in {size(k) for k in kinds}]
    if missing:
        raise ValueError(
            f"{names}: step 2 takes one piece of each size, but no {' or '.join(missing)} piece"
            " is among the extras"
        )
    return tuple(sorted(kinds))


def parse_extra(value: object) -> tuple[int, ...]:
    """An extra set from ``"Rs,Ym,Gl,Bl"`` (commas, plus signs or spaces) or a sequence."""
    if isinstance(value, str):
        parts = value.replace("+", ",").replace(" ", ",").split(",")
        items: list[object] = [p for p in parts if p]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise ValueError("give the extra set as piece names, e.g. Rs,Ym,Gl,Bl")
    kinds = [parse_piece(i) if isinstance(i, str) else int(str(i)) for i in items]
    return check_extra(kinds)


def format_extra(kinds: Sequence[int]) -> str:
    return ",".join(piece_name(k) for k in kinds)


class FolioPieces(PieceSet):
    def __init__(self, line_rule: str, extra: Sequence[int] = DEFAULT_EXTRA) -> None:
        if line_rule not in LINE_RULES:
            raise ValueError(f"unknown line rule {line_rule!r}")
        self.line_rule = line_rule
        counts = [1] * NUM_KINDS
        for k in check_extra(extra):
            counts[k] += 1
        self.counts = tuple(counts)

    def name(self, kind: int) -> str:
        return piece_name(kind)

    def parse(self, text: str) -> int:
        return parse_piece(text)

    def describe(self, kind: int) -> str:
        return f"{SIZE_NAMES[size(kind)]} {COLOUR_NAMES[colour(kind)]}"

    @property
    def hint(self) -> str:
        return "colour R/Y/G/B then size s/m/l, e.g. Gs"

    def winning_reason(self, kinds: Sequence[int]) -> str | None:
        colours = {colour(k) for k in kinds}
        sizes = {size(k) for k in kinds}
        if self.line_rule == COLOURS_OR_SIZES:
            if len(colours) == 4:
                return "all four colours"
            if len(sizes) == 3:
                return "all three sizes"
            return None
        if len(colours) == 1:
            return f"all {COLOUR_NAMES[colours.pop()]}"
        if len(sizes) == 1:
            return f"all {SIZE_NAMES[sizes.pop()]}"
        return None
