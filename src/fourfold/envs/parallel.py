"""Quatrefoil Dual as a PettingZoo Parallel environment: every seat acts at once.

In Dual each seat may act whenever it likes, and an action names the state version it
was chosen on: the first to land is applied and the others, chosen on a version that is
gone, are refused as stale (``QuatrefoilGame.illegal_reason``). One ``step`` is one such
moment: every live agent submits an action of its own or ``wait``. An agent's space holds
only its own actions: ``a`` in ``0..width-1`` is the game's action ``seat * width + a``
(its seat's block of the dense encoding, ``AgentActions``: 11 actions in Quatrefoil), and
``width`` is ``wait``. Of the actions submitted, one lands, the first in an arrival order
drawn from the episode's seeded generator; the rest are stale and change nothing
(``infos[agent]["landed"]`` says whose landed). An action outside the agent's mask raises
``FourfoldError``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped,import-not-found,unused-ignore]

from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.envs.common import (
    RENDER_METADATA,
    AgentActions,
    PettingZooBase,
    as_action,
    checked_move,
)
from fourfold.envs.observe import encoder_for


class DualParallel(PettingZooBase, ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """Quatrefoil Dual: four agents acting simultaneously."""

    metadata: ClassVar[dict[str, Any]] = {
        **RENDER_METADATA, "name": "fourfold_quatrefoil_dual_v0",
    }

    def __init__(self, game: Game[Any, Any], max_steps: int | None = None,
                 render_mode: str | None = None) -> None:
        self._start(game, max_steps, render_mode)
        self.encoder = encoder_for(game, max_steps=self.max_steps)
        # each agent's own actions (its seat's block of the game's encoding) and ``wait``
        self.own = {a: AgentActions(game, s) for s, a in enumerate(self.possible_agents)}
        self.num_agent_actions = self.own[self.possible_agents[0]].size
        self.wait = self.own[self.possible_agents[0]].wait
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, self.encoder.shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_agent_actions,), dtype=np.int8),
        })
        self._act_space = spaces.Discrete(self.num_agent_actions)

    def observe(self, agent: str) -> dict[str, Any]:
        view = self.game.view(self.state_value, self.own[agent].seat)
        return {"observation": self.encoder.encode(view), "action_mask": self.own[agent].mask(view)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        self._new_episode(seed)
        return ({a: self.observe(a) for a in self.agents},
                {a: {"landed": None} for a in self.agents})

    def step(self, actions: dict[str, int]) -> tuple[
        dict[str, dict[str, Any]], dict[str, float], dict[str, bool], dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        submitted: list[tuple[str, Any]] = []
        for agent in self.agents:
            if agent not in actions:
                raise FourfoldError(f"no action for {agent}: every live agent acts (or waits)")
            own = self.own[agent]
            number = own.to_game(as_action(actions[agent], own.size))
            if number is None:
                continue
            submitted.append((agent, checked_move(self.game, self.state_value, own.seat, number)))
        landed = None
        if submitted:
            agent, move = submitted[int(self._rng.integers(len(submitted)))]
            self.state_value = self.game.next_state(self.state_value, move)
            landed = agent
        self.steps += 1
        outcome = self.game.outcome(self.state_value)
        returns = (outcome.returns(self.game.num_players) if outcome is not None
                   else (0.0,) * self.game.num_players)
        done = outcome is not None
        capped = not done and self.steps >= self.max_steps
        agents = self.agents
        observations = {a: self.observe(a) for a in agents}
        rewards = {a: float(returns[self.possible_agents.index(a)]) for a in agents}
        terminations = dict.fromkeys(agents, done)
        truncations = dict.fromkeys(agents, capped)
        infos: dict[str, dict[str, Any]] = {a: {"landed": landed} for a in agents}
        if done or capped:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        raise NotImplementedError("Dual hides cards: there is no global observation")


def parallel_env(game: str | Game[Any, Any] | None = None, variant: str | None = None, *,
                 max_steps: int | None = None, render_mode: str | None = None,
                 **options: Any) -> DualParallel:
    """The Parallel env of a game where every seat acts at once (Quatrefoil Dual).

    Without ``game``: the first registered game with such a variant; without
    ``variant``: that game's first variant where every seat acts at once.
    """
    from fourfold.envs.common import is_dual, load_game

    if game is None or (isinstance(game, str) and variant is None):
        game, variant = simultaneous_variant(game)
    configured = load_game(game, variant, **options) if isinstance(game, str) else game
    if not is_dual(configured):
        raise FourfoldError(
            f"{configured.info.label()} is turn-based: use aec_env (a Parallel env is for"
            " games where every seat acts at once)")
    return DualParallel(configured, max_steps=max_steps, render_mode=render_mode)


def simultaneous_variant(name: str | None) -> tuple[str, str]:
    """The first ``(game, variant)`` of the registry (of game ``name`` if given) where
    every seat acts at once; ``FourfoldError`` if there is none."""
    import fourfold
    from fourfold.envs.common import is_dual

    names = fourfold.game_names() if name is None else [fourfold.get_spec(name).name]
    for game in names:
        for variant in fourfold.get_spec(game).variants:
            if variant.unavailable is None and is_dual(fourfold.load(game, variant.name)):
                return game, variant.name
    if name is None:
        raise FourfoldError("no registered game lets every seat act at once: use aec_env")
    raise FourfoldError(f"{name} is turn-based in every variant: use aec_env (a Parallel env"
                        " is for games where every seat acts at once)")
