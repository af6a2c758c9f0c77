"""The PettingZoo AEC environment of any turn-based game: ``aec_env(game, variant, **options)``.

Agents are ``player_0`` .. ``player_{n-1}`` (four for Quatrefoil). Each observation is
``{"observation": tensor, "action_mask": int8}`` built from that agent's view only
(``fourfold.envs.observe``). The mask is the contract: an illegal action raises
``FourfoldError`` naming the rule it breaks. Rewards are the outcome's returns (+1/-1/0,
or +1/-1 for the whole team in Quatrefoil), given when the game ends; an episode that
reaches ``max_steps`` plies is truncated with reward 0.

The shape follows PettingZoo's classic connect_four: an ``agent_selection`` cursor,
``_cumulative_rewards`` and ``_was_dead_step`` for agents already done.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped,import-not-found,unused-ignore]

from fourfold.core.game import Game
from fourfold.envs.common import (
    RENDER_METADATA,
    PettingZooBase,
    agent_name,
    as_action,
    checked_move,
    is_dual,
    load_game,
)
from fourfold.envs.observe import Encoder, compiled_encoder_for


def observation_space(encoder: Encoder, num_actions: int) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, encoder.shape, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
    })


class FourfoldAEC(PettingZooBase, AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    """A turn-based fourfold game as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {
        **RENDER_METADATA, "name": "fourfold_v0", "is_parallelizable": False,
    }

    def __init__(self, game: Game[Any, Any], max_steps: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self._start(game, max_steps, render_mode)
        # compiled tensors and masks where the game has a kernel (the same values)
        self.encoder = compiled_encoder_for(game, max_steps=self.max_steps)
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._obs_space = observation_space(self.encoder, game.num_actions)
        self._act_space = spaces.Discrete(game.num_actions)
        self._observed: tuple[Any, int, Any] = (None, -1, None)

    # -- the episode -----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game. The seed fixes the deals (Quatrefoil) of this and later episodes."""
        self._new_episode(seed)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        actors = self.game.actors(self.state_value)
        return agent_name(actors[0]) if actors else self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        view = self.game.view(self.state_value, seat)
        tensor, mask = self.encoder.observe(view)
        # remembered for ``step``: an action in the mask needs no second legality check
        self._observed = (self.state_value, seat, mask)
        return {"observation": tensor, "action_mask": mask.copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        number = as_action(action, self.game.num_actions)
        state, seen_seat, mask = self._observed
        if state is self.state_value and seen_seat == seat and mask[number]:
            move = self.game.decode(number)
        else:  # not observed yet, or illegal: the rules check it and say why
            move = checked_move(self.game, self.state_value, seat, number)
        self.state_value = self.game.next_state(self.state_value, move)
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        outcome = self.game.outcome(self.state_value)
        if outcome is not None:
            returns = outcome.returns(self.game.num_players)
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = True
        elif self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        # once the game is over every agent is done, and each then steps ``None`` once
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()


def aec_env(game: str | Game[Any, Any], variant: str | None = None, *,
            max_steps: int | None = None, render_mode: str | None = None,
            **options: Any) -> AECEnv[str, dict[str, Any], int | None]:
    """The AEC env of a game (Quatrefoil Dual: its Parallel env, turned into AEC)."""
    configured = load_game(game, variant, **options)
    if is_dual(configured):
        from pettingzoo.utils.conversions import parallel_to_aec  # type: ignore[import-untyped,import-not-found,unused-ignore]

        from fourfold.envs.parallel import DualParallel

        return parallel_to_aec(DualParallel(configured, max_steps=max_steps,
                                            render_mode=render_mode))
    return FourfoldAEC(configured, max_steps=max_steps, render_mode=render_mode)
