"""Standard RL interfaces to every game: PettingZoo, Gymnasium, OpenSpiel and a fast
vectorised environment on the numba kernels (docs/envs.md).

    >>> from fourfold.envs import aec_env
    >>> env = aec_env("quarto")
    >>> env.reset(seed=1)
    >>> int(env.last()[0]["action_mask"].sum())  # the opening: give one of 16 pieces
    16

The adapters need the ``research`` extra (gymnasium, pettingzoo, open-spiel); each is
imported only when its entry point is called. Importing this package registers a Gymnasium
id for every game and variant when Gymnasium is installed (``fourfold.envs.registration``):

    >>> import gymnasium
    >>> gymnasium.make("fourfold/Quarto-v0", opponent="level2").action_space
    Discrete(289)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fourfold.envs.registration import register_gymnasium_envs

if TYPE_CHECKING:
    from fourfold.envs.aec import aec_env
    from fourfold.envs.gym import gym_env
    from fourfold.envs.openspiel import openspiel_game
    from fourfold.envs.parallel import parallel_env
    from fourfold.envs.vector import VectorEnv

register_gymnasium_envs()

_ENTRY_POINTS = {
    "aec_env": "fourfold.envs.aec",
    "parallel_env": "fourfold.envs.parallel",
    "gym_env": "fourfold.envs.gym",
    "openspiel_game": "fourfold.envs.openspiel",
    "VectorEnv": "fourfold.envs.vector",
}


def __getattr__(name: str) -> Any:
    """Import an adapter on first use, so that ``fourfold.envs`` needs no RL package."""
    if name in _ENTRY_POINTS:
        import importlib

        return getattr(importlib.import_module(_ENTRY_POINTS[name]), name)
    raise AttributeError(f"module 'fourfold.envs' has no attribute {name!r}")


__all__ = ["VectorEnv", "aec_env", "gym_env", "openspiel_game", "parallel_env"]
