"""Quatrefoil's bots and levels: the ``bots`` part of its bundle (``fourfold.ai.game_bots``).

Quatrefoil is cooperative, with hidden cards: the search bots do not play it. Its own
bots are the ``quatrefoil`` seat (``bots_seat``) and the ``optimal`` team policy
(``bots_optimal``); its levels are the quatrefoil seat reading more and planning
better. Measured with ``bots_seat.play_turns`` on the 1,000 deals of seeds
10000-10999 (four seats of one level, base game): mean actions to the solution 7.59
(4 deals lost), 4.91, 4.71, 4.63 for levels 2 to 5 (fewer is better). Where the
solution is face up (nothing-to-hide, Dual) levels 2 to 5 all follow a shortest path.
A hint comes from the quatrefoil seat's ``propose``: in Dual it may say to wait.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fourfold.ai.base import Bot, Limit
from fourfold.ai.game_bots import GameBots, NamedBot
from fourfold.ai.levels import Level
from fourfold.core.game import Game
from fourfold.games.quatrefoil.bots_optimal import OptimalBot
from fourfold.games.quatrefoil.bots_seat import ALL_SEATS, DEFAULT_CURIOSITY, QuatrefoilBot


@dataclass(frozen=True)
class SeatLevel:
    """The quatrefoil seat as a level plays it (it has no budget): ``curiosity`` weighs
    information against progress, and ``reads_team`` says whether it reads its
    team-mates' actions as the choices their bots would make."""

    curiosity: float = 0.0
    reads_team: bool = False

    def build(self, level: Level, game: Game[Any, Any], player: int, seed: int | None,
              limit: Limit | None) -> Bot:
        return QuatrefoilBot(game, player, seed, limit, curiosity=self.curiosity,
                             trusted=ALL_SEATS if self.reads_team else frozenset())

    def describe(self, level: Level) -> str:
        reads = ("its cards, the signals and its team-mates' actions" if self.reads_team
                 else "its cards and the signals (not its team-mates' actions)")
        aim = (f"weighs progress against what the next signals would teach (curiosity"
               f" {self.curiosity:g})" if self.curiosity
               else "heads for the nearest possible solution")
        return f"quatrefoil seat: reads {reads}; {aim}; stacks only when sure"


LEVELS: dict[int, Level] = {
    1: Level(1, "random"),
    2: Level(2, "quatrefoil", own=SeatLevel()),
    3: Level(3, "quatrefoil", own=SeatLevel(curiosity=DEFAULT_CURIOSITY)),
    4: Level(4, "quatrefoil", own=SeatLevel(reads_team=True)),
    5: Level(5, "quatrefoil", own=SeatLevel(curiosity=DEFAULT_CURIOSITY, reads_team=True)),
}

BOTS = GameBots(
    named={
        "quatrefoil": NamedBot(
            QuatrefoilBot, "Quatrefoil seat: tracks the deals consistent with what it saw"
            " (also reads its team-mates' actions)"),
        "optimal": NamedBot(
            OptimalBot, "Quatrefoil team policy: a public agent prescribes one action per"
            " card pair; measured exactly over every deal against a proven bound"
            " (docs/solutions.md)"),
    },
    levels=LEVELS,
    hint="quatrefoil",
    hint_proposes=True,
)
