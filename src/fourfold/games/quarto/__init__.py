"""Quarto: the commercial ancestor of Folio, as a sibling ruleset (4x4, 16 pieces)."""

from fourfold.core.extensions import Extensions
from fourfold.core.registry import register
from fourfold.core.rulestext import rules_from
from fourfold.core.spec import GameInfo, GameSpec, Utility, VariantSpec
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.geometry import Board
from fourfold.games.quarto.pieces import QuartoPieces


class QuartoGame(PlacementGame):
    """Quarto: place the piece your opponent chose on a 4x4 board."""

    def __init__(self, info: GameInfo) -> None:
        super().__init__(info, Board(4, 4), QuartoPieces())


SPEC = register(
    GameSpec(
        name="quarto",
        title="Quarto",
        summary="4x4 board, 16 pieces with four attributes; a line sharing one attribute wins.",
        num_players=2,
        utility=Utility.ZERO_SUM,
        perfect_information=True,
        variants=(VariantSpec("standard", "the classic game"),),
        options=(),
        factory=QuartoGame,
        rules_text=rules_from("fourfold.games.quarto"),
        extensions=Extensions(
            bots="fourfold.games.placement.bots:BOTS",
            report="fourfold.games.quarto.report:REPORT",
            kernel="fourfold.games.placement.kernel_engine:compiled_engine",
            solver="fourfold.games.placement.solver_hooks:QUARTO_SOLVERS",
            presenter="fourfold.games.quarto.text:PRESENTER",
            drawer="fourfold.games.quarto.svg:DRAWER",
            codec="fourfold.games.placement.wire:CODEC",
            browser="fourfold.games.placement:browser.js",
            observation="fourfold.games.placement.observe:OBSERVATION",
        ),
    )
)

__all__ = ["SPEC", "QuartoGame", "QuartoPieces"]
