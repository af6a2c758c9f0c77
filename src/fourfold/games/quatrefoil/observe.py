"""Quatrefoil's observation: a flat vector of what one seat knows (the ``observation``
part of its bundle; docs/envs.md lists each block). The hidden deal as OpenSpiel chance
is ``fourfold.games.quatrefoil.observe_deal``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fourfold.core.game import View
from fourfold.envs.observe import Encoder, Observation, Tensor
from fourfold.games.quatrefoil.arrangement import NUM_ACTIONS

#: The cap on an episode's actions (a team can shuffle tokens for ever); the "actions so
#: far" feature is scaled by the cap in use.
MAX_STEPS = 100
HISTORY = 8  # arrangements (with their signals) and actions kept in the observation


class QuatrefoilEncoder(Encoder):
    """Quatrefoil: a flat vector of what one seat knows (docs/envs.md lists each block).

    Cards shown face down to the viewer are encoded as "unknown", never as a value.
    """

    def __init__(self, game: Any, max_steps: int = MAX_STEPS) -> None:
        super().__init__(game)
        self.max_steps = max_steps
        self.num_actions = NUM_ACTIONS
        self.blocks: list[tuple[str, int]] = [
            ("viewer seat", 4),
            ("colour card of each seat (5 tokens + unknown)", 4 * 6),
            ("position card of each seat (4 corners + unknown)", 4 * 5),
            ("north card (5 tokens + unknown)", 6),
            ("solution, per slot (5 tokens + unknown)", 5 * 6),
            ("arrangement now, per slot", 5 * 5),
            ("start arrangement, per slot", 5 * 5),
            (f"signals of the last {HISTORY} arrangements (4 seats + present)", HISTORY * 5),
            (f"last {HISTORY} actions (11 actions + 4 seats)", HISTORY * (NUM_ACTIONS + 4)),
            ("seat to act (4) or none", 5),
            ("actions so far / cap", 1),
        ]
        self.size = sum(n for _, n in self.blocks)

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.size,)

    def plane_names(self) -> list[str]:
        return [name for name, _ in self.blocks]

    def encode(self, view: View) -> Tensor:
        obs = view.observation
        out = np.zeros(self.size, dtype=np.float32)
        i = 0

        def one_hot(value: int | None, width: int) -> None:
            nonlocal i
            out[i + (width - 1 if value is None else value)] = 1.0
            i += width

        if view.player is not None:
            out[view.player] = 1.0
        i += 4
        for s in range(4):
            one_hot(obs.colour_cards[s], 6)
        for s in range(4):
            one_hot(obs.position_cards[s], 5)
        one_hot(obs.north, 6)
        for slot in range(5):
            one_hot(None if obs.solution is None else obs.solution[slot], 6)
        for arrangement in (obs.arrangement, obs.start):
            for slot in range(5):
                out[i + arrangement[slot]] = 1.0
                i += 5
        signals = obs.signals or ()
        for back in range(HISTORY):
            at = len(signals) - 1 - back
            if at >= 0:
                out[i:i + 4] = signals[at]
                out[i + 4] = 1.0
            i += 5
        width = self.num_actions + 4
        for back in range(HISTORY):
            at = len(obs.history) - 1 - back
            if at >= 0:
                seat, action = obs.history[at]
                out[i + action] = 1.0
                out[i + self.num_actions + seat] = 1.0
            i += width
        actors = self.game.view_actors(view)
        one_hot(actors[0] if len(actors) == 1 else None, 5)
        out[i] = min(len(obs.history) / self.max_steps, 1.0)
        return out


OBSERVATION = Observation(
    encoder=QuatrefoilEncoder, max_steps=MAX_STEPS,
    chance="fourfold.games.quatrefoil.observe_deal:DEALER")
