"""Quarto's sixteen pieces: four binary attributes, one piece of each combination.

A kind is a 4-bit number; bit ``i`` set means the first letter of attribute
``i`` (tall, dark, round, hollow). A line of four wins when all four pieces
share a value of any attribute.
"""

from __future__ import annotations

from collections.abc import Sequence

from fourfold.games.placement.pieces import PieceSet

ATTRIBUTES = (("T", "S"), ("D", "L"), ("R", "Q"), ("H", "F"))
WORDS = (("tall", "short"), ("dark", "light"), ("round", "square"), ("hollow", "flat-topped"))
FULL = 0b1111


def _spelled(words: tuple[tuple[str, str], ...], kind: int, sep: str) -> str:
    return sep.join(pair[0] if kind >> i & 1 else pair[1] for i, pair in enumerate(words))


#: each kind's name (``TDRH``) and words (``tall dark round hollow``), by kind
NAMES = tuple(_spelled(ATTRIBUTES, kind, "") for kind in range(FULL + 1))
DESCRIPTIONS = tuple(_spelled(WORDS, kind, " ") for kind in range(FULL + 1))


class QuartoPieces(PieceSet):
    counts = (1,) * 16

    def name(self, kind: int) -> str:
        return NAMES[kind]

    def parse(self, text: str) -> int:
        t = text.strip().upper()
        if len(t) != 4:
            raise ValueError(f"a piece is four letters, one per attribute: {self.hint}")
        kind = 0
        for i, (yes, no) in enumerate(ATTRIBUTES):
            if t[i] == yes:
                kind |= 1 << i
            elif t[i] != no:
                raise ValueError(f"letter {i + 1} must be {yes} or {no} ({self.hint})")
        return kind

    def describe(self, kind: int) -> str:
        return DESCRIPTIONS[kind]

    @property
    def hint(self) -> str:
        return "T/S tall/short, D/L dark/light, R/Q round/square, H/F hollow/flat, e.g. TDRH"

    def winning_reason(self, kinds: Sequence[int]) -> str | None:
        common, common_absent = FULL, FULL
        for k in kinds:
            common &= k
            common_absent &= ~k & FULL
        for i, (yes, no) in enumerate(WORDS):
            if common >> i & 1:
                return f"all {yes}"
            if common_absent >> i & 1:
                return f"all {no}"
        return None
