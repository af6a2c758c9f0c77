"""Quarto: the commercial ancestor of Folio, as a sibling ruleset (4x4, 16 pieces).

Its presenter, drawer and report are in this folder (found by convention,
``core.extensions``); the rest are the placement games' (``fourfold.games.placement``)."""

from fourfold.core.extensions import Extensions
from fourfold.core.registry import register
from fourfold.core.spec import GameInfo, GameSpec
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import Board
from fourfold.games.quarto.pieces import QuartoPieces


class QuartoGame(PlacementGame):
    """Quarto: place the piece your opponent chose on a 4x4 board."""

    def __init__(self, info: GameInfo) -> None:
        super().__init__(info, Board(4, 4), QuartoPieces())


SPEC = register(
    GameSpec(
        package=__name__,
        summary="4x4 board, 16 pieces with four attributes; a line sharing one attribute wins.",
        factory=QuartoGame,
        shares=("fourfold.games.placement",),
        extensions=Extensions(
            solver="fourfold.games.placement.solver_hooks:QUARTO_SOLVERS",
            puzzles="fourfold.games.placement.puzzle_themes:PUZZLES",
        ),
    )
)

__all__ = ["SPEC", "QuartoGame", "QuartoPieces"]
