"""What a table shows one recipient: the present (``Snapshot``) and the past (``History``).

Both are built by ``Table`` under its lock, from that recipient's views only, so a
server, a page or a log reads the table through them and never through the referee's
match. ``Table.snapshot`` and ``Table.history_for`` are the only ways in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourfold.core.game import View
from fourfold.core.outcome import Outcome


@dataclass(frozen=True)
class Snapshot:
    """Everything ``recipient`` (a seat, or ``None`` for a spectator) may know now, taken
    at one instant.

    ``moves`` are the moves so far as the recipient's own record writes them;
    ``last_move`` is the latest move as a value read from the public view of the
    position it was made on (to mark it on a picture), or ``None`` when there is none or
    it cannot be read from that view. ``offer`` is the open offer, as (``"draw"`` or
    ``"undo"``, the seat that made it).
    """

    version: int
    recipient: int | None
    view: View
    clocks: tuple[float, ...]
    offer: tuple[str, int] | None
    moves: tuple[str, ...]
    last_move: Any
    outcome: Outcome | None


@dataclass(frozen=True)
class Ply:
    """One past position as a recipient may see it: its ``view``, the ``move`` that led
    to it (notation; ``None`` at the start) and who made it (``by``), and who was to move
    in it (``to_move``: ``None`` once the game is over there)."""

    ply: int
    view: View
    move: str | None
    by: int | None
    to_move: int | None


@dataclass(frozen=True)
class History:
    """Every past position ``recipient`` may see, at one version (``Table.history_for``).

    The rule lives in the table: a game that never hides anything shows its past at any
    time; a game with hidden cards shows it only once it is over (then every card is face
    up, and each position is its revealed view)."""

    version: int
    recipient: int | None
    players: tuple[str, ...]
    plies: tuple[Ply, ...]
    outcome: Outcome | None
    #: how a game ended from outside the moves (resignation, agreement, a clock), if so
    declared: Outcome | None
