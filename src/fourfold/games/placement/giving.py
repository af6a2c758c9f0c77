"""The give half of a ply, shared by every placement game (grids, Quarto, freeform).

After placing, the player gives the opponent one of the kinds left in the supply,
unless the placement won or no piece is left. These functions say which gives
exist and, for a refused ply, which part of this rule it broke.
"""

from __future__ import annotations

from fourfold.core.errors import FourfoldError
from fourfold.core.outcome import Outcome
from fourfold.games.placement.pieces import PieceSet

ALL_PLACED = Outcome.draw("all pieces are placed and no line wins")


def player_to_act(hand: int | None, placed: int) -> int:
    """Who acts in a game still going: the second player opens by choosing the first
    player's piece; after that the placer alternates, Player 1 placing first."""
    return 1 if hand is None else placed % 2


def give_action(place: int, give: int | None, kinds: int) -> int:
    """The action number of a ply: place at the ``place``-th cell (or lattice point; one
    past the last for no placement), then give ``give`` (``None``: nothing)."""
    slot = kinds if give is None else give
    if not 0 <= slot <= kinds:
        raise FourfoldError(f"no piece kind {give}")
    return place * (kinds + 1) + slot


def available_gives(supply: tuple[int, ...]) -> list[int]:
    """Kinds with at least one copy left to give, in kind order."""
    return [k for k, n in enumerate(supply) if n > 0]


def supply_after(supply: tuple[int, ...], give: int | None) -> tuple[int, ...]:
    """The supply once ``give`` (if any) has left it."""
    if give is None:
        return supply
    return (*supply[:give], supply[give] - 1, *supply[give + 1:])


def give_reason(pieces: PieceSet, supply: tuple[int, ...], kind: int) -> str | None:
    """Why ``kind`` cannot be given now, or ``None`` if it can."""
    if not 0 <= kind < pieces.num_kinds:
        return f"there is no piece kind {kind}"
    if supply[kind] == 0:
        left = " ".join(pieces.name(k) for k in available_gives(supply))
        return f"no {pieces.name(kind)} is left to give (left: {left})"
    return None


def after_placing_reason(
    pieces: PieceSet, supply: tuple[int, ...], where: str, wins: bool, give: int | None
) -> str | None:
    """Why the give part of a legal placement at ``where`` is wrong, or ``None``."""
    if wins:
        return f"placing {where} wins the game, so no piece is given" if give is not None else None
    if not available_gives(supply):
        return None if give is None else "no pieces are left to give"
    if give is None:
        return f"after placing {where} you must give your opponent a piece"
    return give_reason(pieces, supply, give)


def opening_reason(
    pieces: PieceSet, supply: tuple[int, ...], place: object | None, give: int | None
) -> str | None:
    """Why an opening ply (a give with no placement) is wrong, or ``None``."""
    if place is not None:
        return "the game opens with a give only: name the piece the first player places"
    if give is None:
        return "name a piece to give"
    return give_reason(pieces, supply, give)


def unplaced_reason(pieces: PieceSet, hand: int) -> str:
    """Why a ply with a piece in hand but no placement is wrong."""
    return f"place the {pieces.describe(hand)} in hand first, then give a piece"
