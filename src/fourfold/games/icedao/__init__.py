"""Ice Dao (Ryan McGuire): a 5x5 sliding game with stacking pyramids (RULES.md §2)."""

from fourfold.core.extensions import Extensions
from fourfold.core.registry import register
from fourfold.core.rulestext import rules_from
from fourfold.core.spec import GameSpec, Utility, VariantSpec, choice_option
from fourfold.games.icedao.game import FIRST_PLAYERS, START_LAYOUTS, IceDaoGame, IceDaoMove
from fourfold.games.icedao.state import IceDaoState
from fourfold.games.sliding.limits import MAX_PLIES
from fourfold.games.sliding.moves import Pass, Slide

START = choice_option(
    "start",
    tuple(START_LAYOUTS),
    "crossed",
    "the start layout; the original diagram is lost. crossed: each side's smalls on the"
    " other's back rank (any other start: a position string, e.g. --setup)",
    ruling=True,
)
FIRST = choice_option("first", FIRST_PLAYERS, "blue", "which side moves first")

SPEC = register(
    GameSpec(
        name="icedao",
        title="Ice Dao",
        summary="5x5 board; slide pyramids over larger ones; four of yours in a line wins.",
        num_players=2,
        utility=Utility.ZERO_SUM,
        perfect_information=True,
        variants=(VariantSpec("standard", "Ice Dao as written by Ryan McGuire"),),
        options=(START, FIRST, MAX_PLIES),
        factory=IceDaoGame,
        rules_text=rules_from("fourfold.games.icedao"),
        extensions=Extensions(
            bots="fourfold.games.icedao.bots:BOTS",
            report="fourfold.games.icedao.report:REPORT",
            kernel="fourfold.games.icedao.kernel_engine:IceDaoEngine",
            solver="fourfold.games.icedao.solver_hooks:SOLVERS",
            terminal="fourfold.games.sliding.terminal:RULES",
            presenter="fourfold.games.icedao.text:PRESENTER",
            drawer="fourfold.games.icedao.svg:draw_icedao",
            codec="fourfold.games.icedao.wire:CODEC",
            browser="fourfold.games.icedao:browser.js",
            observation="fourfold.games.icedao.observe:OBSERVATION",
        ),
        aliases=("ice-dao",),
    )
)

__all__ = ["SPEC", "IceDaoGame", "IceDaoMove", "IceDaoState", "Pass", "Slide"]
