"""Piece sets of the placement games: kinds, copies, names and the line rule.

Pieces are numbered by *kind*; identical pieces are one kind with a count of
copies, so giving either copy is the same move (RULES.md §1).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence


class PieceSet(ABC):
    """The kinds in play, how many of each, and which lines of four win."""

    #: number of copies of each kind at the start, indexed by kind
    counts: tuple[int, ...]

    @property
    def num_kinds(self) -> int:
        return len(self.counts)

    @property
    def total(self) -> int:
        return sum(self.counts)

    @abstractmethod
    def name(self, kind: int) -> str:
        """Notation of a kind (``Gs``, ``TDRH``)."""

    @abstractmethod
    def parse(self, text: str) -> int:
        """The kind a piece name means; ``ValueError`` with the reason on bad text."""

    @abstractmethod
    def describe(self, kind: int) -> str:
        """Words for people (``small green``)."""

    @abstractmethod
    def winning_reason(self, kinds: Sequence[int]) -> str | None:
        """Why a full line of four pieces wins (``all four colours``), or ``None``."""

    @property
    @abstractmethod
    def hint(self) -> str:
        """How pieces are written, for error messages."""
