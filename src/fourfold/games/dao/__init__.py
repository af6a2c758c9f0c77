"""Classic Dao: the 4x4 sliding game Ice Dao descends from (RULES.md §2)."""

from fourfold.core.extensions import Extensions
from fourfold.core.registry import register
from fourfold.core.rulestext import rules_from
from fourfold.core.spec import GameSpec, Utility, VariantSpec
from fourfold.games.dao.game import DaoGame
from fourfold.games.dao.state import DaoState
from fourfold.games.sliding.limits import MAX_PLIES
from fourfold.games.sliding.moves import Slide

SPEC = register(
    GameSpec(
        name="dao",
        title="Dao",
        summary="4x4 board, four pieces each; slide to make a row, column, square or corners.",
        num_players=2,
        utility=Utility.ZERO_SUM,
        perfect_information=True,
        variants=(VariantSpec("standard", "the classic game"),),
        options=(MAX_PLIES,),
        factory=DaoGame,
        rules_text=rules_from("fourfold.games.dao"),
        extensions=Extensions(
            bots="fourfold.games.dao.bots:BOTS",
            report="fourfold.games.dao.report:REPORT",
            kernel="fourfold.games.dao.kernel_engine:DaoEngine",
            solver="fourfold.games.dao.solver_hooks:SOLVERS",
            terminal="fourfold.games.sliding.terminal:RULES",
            presenter="fourfold.games.dao.text:PRESENTER",
            drawer="fourfold.games.dao.svg:draw_dao",
            codec="fourfold.games.dao.wire:CODEC",
            browser="fourfold.games.sliding:browser.js",
            observation="fourfold.games.dao.observe:OBSERVATION",
        ),
    )
)

__all__ = ["SPEC", "DaoGame", "DaoState", "Slide"]
