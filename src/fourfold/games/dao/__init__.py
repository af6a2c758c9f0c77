"""Classic Dao: the 4x4 sliding game Ice Dao descends from (RULES.md §2).

Its parts are found in this folder by convention (``core.extensions``); its terminal
controls and browser controller are the sliding games' (``fourfold.games.sliding``)."""

from fourfold.core.registry import register
from fourfold.core.spec import GameSpec
from fourfold.games.dao.game import DaoGame
from fourfold.games.dao.state import DaoState
from fourfold.games.sliding.limits import MAX_PLIES
from fourfold.games.sliding.moves import Slide

SPEC = register(
    GameSpec(
        package=__name__,
        summary="4x4 board, four pieces each; slide to make a row, column, square or corners.",
        factory=DaoGame,
        options=(MAX_PLIES,),
        shares=("fourfold.games.sliding",),
    )
)

__all__ = ["SPEC", "DaoGame", "DaoState", "Slide"]
