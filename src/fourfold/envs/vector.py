"""``VectorEnv(game, num_envs, seed)``: a batch of games stepped at once on the numba kernels.

    >>> from fourfold.envs import VectorEnv
    >>> env = VectorEnv("quarto", num_envs=4, seed=0)
    >>> obs, info = env.reset()
    >>> obs.shape, info["action_mask"].shape
    ((4, 34), (4, 289))
    >>> obs, rewards, terminated, truncated, info = env.step(env.sample_actions())

Everything is a NumPy array with one row per game. Actions are the game's own dense
encoding. ``step`` applies every game's action; a game that ends is scored and reset in
the same call (auto-reset: the observation and mask returned are then those of the new
game; ``terminated`` / ``truncated`` say it happened). An action outside a game's mask
raises ``FourfoldError`` naming the games, and changes nothing in them.

``opponent=None`` is self-play: each step is one ply of whoever is to move
(``info["to_move"]``) and ``rewards`` has a column per seat (+1/-1, 0 for draws).
``opponent="random"``: the agent plays ``seat`` (0, 1, or ``"mixed"``: game i plays seat
i % 2) and a uniformly random opponent replies inside ``step``; ``rewards`` is the
agent's. ``max_steps`` truncates long games (plies of both sides count). By default the batch is
stepped on the calling thread (``threads=1``: over a million steps a second on one core
for Quarto); ``threads=None`` spreads it over numba's threads, which pays only on an
otherwise idle machine (a parallel region waits for its slowest thread).

Observations are compact int8 rows (docs/envs.md): placement games give the kind on each
cell (-1 empty), the kind in hand (-1 none), the supply of each kind and the player to
move; Dao the owner of each square; Ice Dao the colour of each size on each square. The
plane tensors of the PettingZoo and Gymnasium envs are built from a view in Python; this
env keeps to what a kernel can write at millions of steps per second.

Covered: Quarto, Folio standard, fixed-grid and no-grid, Dao and Ice Dao (every option).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import Game
from fourfold.envs import vector_kernels as vk
from fourfold.envs.common import default_max_steps, load_game

Array = npt.NDArray[Any]


@dataclass(frozen=True)
class Family:
    """One game family's kernel functions and array sizes."""

    t: Array
    x0: Array
    hist_shape: tuple[int, ...]
    key_shape: tuple[int, ...]  # per game, before the per-ply rows are sized
    obs_size: int
    width: int  # the longest list of legal actions
    kernels: tuple[Any, Any, Any]  # step (one thread), step (all threads), reset


def _placement(game: Any) -> Family:
    from fourfold.kernels import placement as pk
    from fourfold.kernels.placement_engine import PlacementEngine
    from fourfold.kernels.placement_tables import NoKernelError

    try:
        engine = PlacementEngine(game)
    except NoKernelError as exc:
        raise ConfigurationError(f"no vectorised env for {game.info.label()}: {exc}") from None
    board, supply, st, _ = pk.new_position(engine.t)
    x0 = np.concatenate([board, supply, st]).astype(np.int64)
    cells, kinds = len(board), len(supply)
    return Family(engine.t, x0, (1, 1), (1,), cells + kinds + 2, game.num_actions,
                  (vk.pl_step, vk.pl_step_threads, vk.pl_reset))


def _dao(game: Any) -> Family:
    from fourfold.kernels import dao as dk
    from fourfold.kernels.dao_engine import DaoEngine

    engine = DaoEngine(game)
    engine.load(game.initial_state())
    return Family(engine.t, engine.st.copy(), (1, dk.NUM_FIELDS + 1), (), dk.SQUARES + 1,
                  game.num_actions, (vk.dao_step, vk.dao_step_threads, vk.dao_reset))


def _icedao(game: Any) -> Family:
    from fourfold.kernels import icedao as ik
    from fourfold.kernels.icedao_engine import IceDaoEngine

    engine = IceDaoEngine(game)
    engine.load(game.initial_state())
    return Family(engine.t, engine.st.copy(), (1, ik.NUM_FIELDS + 1), (ik.KEY_FIELDS,),
                  ik.SQUARES * 3 + 1, ik.MAX_MOVES,
                  (vk.ice_step, vk.ice_step_threads, vk.ice_reset))


def family_for(game: Game[Any, Any]) -> Family:
    from fourfold.games.dao.game import DaoGame
    from fourfold.games.icedao.game import IceDaoGame
    from fourfold.games.placement.game import PlacementGame

    if isinstance(game, PlacementGame):
        return _placement(game)
    if isinstance(game, DaoGame):
        return _dao(game)
    if isinstance(game, IceDaoGame):
        return _icedao(game)
    raise ConfigurationError(
        f"no vectorised env for {game.info.label()} (covered: quarto, folio standard,"
        " fixed-grid and no-grid, dao, icedao); use aec_env or gym_env")


class VectorEnv:
    """``num_envs`` games of one ruleset, stepped together on the compiled kernel."""

    def __init__(self, game: str | Game[Any, Any], num_envs: int, seed: int = 0,
                 variant: str | None = None, *, opponent: str | None = None,
                 seat: int | str = 0, max_steps: int | None = None, threads: int | None = 1,
                 **options: Any) -> None:
        self.game = load_game(game, variant, **options)
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigurationError(f"num_envs must be a positive integer, not {num_envs!r}")
        if opponent not in (None, "random"):
            raise ConfigurationError(
                f"opponent must be None (self-play) or 'random', not {opponent!r}")
        self.family = family_for(self.game)
        self.num_envs = num_envs
        self.num_actions = self.game.num_actions
        self.opponent = opponent
        self.mode = vk.SELF_PLAY if opponent is None else vk.RANDOM
        self.max_steps = default_max_steps(self.game) if max_steps is None else int(max_steps)
        if seat == "mixed":
            self.seat = np.arange(num_envs, dtype=np.int64) % 2
        elif seat in (0, 1):
            self.seat = np.full(num_envs, seat, dtype=np.int64)
        else:
            raise ConfigurationError(f"seat must be 0, 1 or 'mixed', not {seat!r}")
        f = self.family
        n = num_envs
        self.xs = np.tile(f.x0, (n, 1))
        self.hist = np.zeros((n, *f.hist_shape), dtype=np.int64)
        self.keys = np.zeros((n, self.max_steps + 2, *f.key_shape), dtype=np.int64)
        if not f.key_shape and f.hist_shape == (1, 1):  # placement: no history at all
            self.keys = np.zeros((n, 1), dtype=np.int64)
        self.steps = np.zeros(n, dtype=np.int64)
        self.masks = np.zeros((n, self.num_actions), dtype=np.int8)
        self.legal = np.zeros((n, f.width), dtype=np.int64)
        self.counts = np.zeros(n, dtype=np.int64)
        self.obs = np.zeros((n, f.obs_size), dtype=np.int8)
        self.rewards = np.zeros((n, 2), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.errors = np.zeros(n, dtype=np.bool_)
        self.actions = np.zeros(n, dtype=np.int64)
        self.seed_value = seed
        self.rngs = vk.seeded_rngs(seed, n)
        if threads is None:
            import numba

            threads = numba.get_num_threads()
        if not isinstance(threads, int) or threads < 1:
            raise ConfigurationError(f"threads must be a positive integer, not {threads!r}")
        self.threads = threads
        self._step = f.kernels[0] if threads == 1 else f.kernels[1]
        self._sample = vk.sample_serial if threads == 1 else vk.sample_batch

    # -- the batch ---------------------------------------------------------------------------
    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.masks, "to_move": self.obs[:, -1], "seat": self.seat}

    def reset(self, seed: int | None = None) -> tuple[Array, dict[str, Any]]:
        """Start every game; a seed restarts the random streams (opponent, sampling)."""
        if seed is not None:
            self.seed_value = seed
            self.rngs = vk.seeded_rngs(seed, self.num_envs)
        reset = self.family.kernels[2]
        reset(self.family.t, self.xs, self.family.x0, self.hist, self.keys, self.mode, self.seat,
              self.steps, self.max_steps, self.rngs, self.masks, self.legal, self.counts,
              self.obs, self.rewards, self.terminated, self.truncated)
        return self.obs, self._info()

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        """Play one action per game: observations, rewards, terminated, truncated, info.

        The arrays returned are the env's own buffers, overwritten by the next call:
        copy what you keep.
        """
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise FourfoldError(f"expected {self.num_envs} actions, got shape {actions.shape}")
        self.actions[:] = actions
        self._step(self.family.t, self.xs, self.family.x0, self.hist, self.keys, self.actions,
                      self.mode, self.seat, self.steps, self.max_steps, self.rngs, self.masks,
                      self.legal, self.counts, self.obs, self.rewards, self.terminated,
                      self.truncated, self.errors)
        if self.errors.any():
            bad = np.flatnonzero(self.errors)
            shown = ", ".join(f"game {i}: action {int(self.actions[i])}" for i in bad[:5])
            more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
            raise FourfoldError(
                f"{self.game.name}: illegal actions ({shown}{more}); only actions in"
                " info['action_mask'] may be played (the other games were stepped)")
        rewards = (self.rewards if self.mode == vk.SELF_PLAY
                   else self.rewards[np.arange(self.num_envs), self.seat])
        return self.obs, rewards, self.terminated, self.truncated, self._info()

    def sample_actions(self) -> Array:
        """A uniformly random legal action for every game (from the seeded streams)."""
        out = np.empty(self.num_envs, dtype=np.int64)
        self._sample(self.legal, self.counts, self.rngs, out)
        return out

    def legal_actions(self, i: int) -> list[int]:
        """Game ``i``'s legal actions, in the reference order."""
        return [int(a) for a in self.legal[i, :self.counts[i]]]

    def close(self) -> None:
        pass
