"""The ``optimal`` Quatrefoil bot: the team policy of ``games/quatrefoil/solver_team/policy``.

It plays the turn-based variants with hidden cards (base, Half and Half, Race the
Clock) and Nothing to Hide, one seat each, from that seat's view only: the public
history (start, actions, every seat's signals), the face-up cards and its own two
cards. The policy is a joint one: the seats read each other's actions through it, so
four ``optimal`` bots play the figure given in docs/solutions.md. With a person at the
table the bot still never stacks unsolved, but it reads the person's actions as the
policy's too: an action no pair would take empties the public belief and the bot
plays the public-information optimum from then on; an action that some other pair
would take narrows the belief wrongly until a signal contradicts it (then the same
fallback). It has no notion of which seats are people. Dual is real time with the
solution face up, so it has no use for this policy: the bot refuses it.
"""

from __future__ import annotations

from typing import Any

from fourfold.ai.base import Bot, game_for
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import View
from fourfold.games.quatrefoil.bots_seat import seat_observation
from fourfold.games.quatrefoil.game import QuatrefoilGame
from fourfold.games.quatrefoil.solver_team.evaluate import Public, SeatCards
from fourfold.games.quatrefoil.solver_team.policy import choose
from fourfold.games.quatrefoil.state import Action


def _pattern(signals: tuple[bool, bool, bool, bool]) -> int:
    return sum(1 << k for k in range(4) if signals[k])


class OptimalBot(Bot):
    """One seat of the public-agent team policy (turn-based Quatrefoil)."""

    name = "optimal"

    def __post_init__(self) -> None:
        self.quatrefoil = game_for("optimal", self.game, QuatrefoilGame, "Quatrefoil")
        if self.quatrefoil.dual:
            raise ConfigurationError(
                "the optimal bot plays the turn-based Quatrefoil variants, not Dual"
                " (its solution is face up: use the quatrefoil bot)"
            )
        super().__post_init__()

    def choose(self, view: View) -> Any:
        obs = seat_observation(self.game, view, self.player, "optimal")
        if obs.outcome is not None:
            raise FourfoldError("no legal move: the game is over")
        if obs.to_move != self.player or obs.signals is None:
            raise FourfoldError(f"it is not {self.game.player_name(self.player)}'s turn")
        public = Public(self.quatrefoil.face_up, obs.start, tuple(a for _, a in obs.history),
                        tuple(_pattern(s) for s in obs.signals))
        cards = SeatCards(obs.colour_cards, obs.position_cards, obs.north)
        return Action(choose(public, self.player, cards))
