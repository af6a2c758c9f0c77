"""Ice Dao (Ryan McGuire): a 5x5 sliding game with stacking pyramids (RULES.md §2).

Its parts are found in this folder by convention (``core.extensions``); its terminal
controls are the sliding games' (``fourfold.games.sliding``)."""

from fourfold.core.registry import register
from fourfold.core.spec import GameSpec, VariantSpec, choice_option
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
        package=__name__,
        title="Ice Dao",
        summary="5x5 board; slide pyramids over larger ones; four of yours in a line wins.",
        factory=IceDaoGame,
        variants=(VariantSpec("standard", "Ice Dao as written by Ryan McGuire"),),
        options=(START, FIRST, MAX_PLIES),
        shares=("fourfold.games.sliding",),
        aliases=("ice-dao",),
    )
)

__all__ = ["SPEC", "IceDaoGame", "IceDaoMove", "IceDaoState", "Pass", "Slide"]
