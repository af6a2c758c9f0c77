"""``VectorEnv(game, num_envs, seed)``: a Gymnasium vector env of games stepped at once
on the numba kernels.

    >>> from fourfold.envs import VectorEnv
    >>> env = VectorEnv("quarto", num_envs=4, seed=0, opponent="level3")
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape, obs.dtype, info["action_mask"].shape
    ((4, 60, 4, 4), dtype('float32'), (4, 289))
    >>> obs, rewards, terminated, truncated, info = env.step(env.sample_actions())

It is a ``gymnasium.vector.VectorEnv``: ``single_observation_space`` is the Gymnasium
env's (``gym_env``), ``single_action_space`` is ``Discrete(game.num_actions)``,
``observation_space`` / ``action_space`` their batches. Auto-reset is same-step
(``metadata["autoreset_mode"] = AutoresetMode.SAME_STEP``): a game that ends is scored
and restarted in the same call, the observation returned is the new game's, and
``info["final_obs"]`` / ``info["final_info"]`` (with ``_final_obs`` / ``_final_info``
masks) hold what the finished game's agent saw last.

Observations (``observation=``): ``"planes"`` (default), exactly the float32 tensors of
the PettingZoo, Gymnasium and OpenSpiel envs (``fourfold.envs.observe``), written by the
kernel; ``"compact"``, int8 rows (the kind on each cell, the hand, the supply, the player
to move...; docs/envs.md), about ten times smaller.

Opponents (``opponent=``): ``None`` (self-play: each step is one ply of whoever is to
move, ``info["to_move"]``; the reward is the mover's, ``info["rewards"]`` has both
seats'), ``"random"``, ``"greedy"``, or ``"level1"`` .. ``"level3"``: the level's bot
(``fourfold.ai.levels``) compiled into the kernel, for the levels that are random,
beginner or greedy bots (all three in Quarto and Folio; levels 1-2 in Dao and Ice Dao,
whose level 3 is a search). The agent plays ``seat`` and the opponent replies inside
``step``; the reward is the agent's.

``seat``: ``0`` or ``1`` (every game), or ``"mixed"``: game ``i`` plays seat ``i % 2``,
so one batch learns both sides. Seat 0 is the rules' first seat, which in Quarto and
Folio is the player who places first (seat 1 makes the opening give). ``info["seat"]``.

Actions are the game's own dense encoding. An action outside a game's mask raises
``FourfoldError`` naming the games (the others are stepped). With ``copy=True``
(default, as Gymnasium asks) every call returns new arrays; ``copy=False`` returns the
env's own buffers, overwritten by the next call (the fastest: nothing is copied).

Threads: ``threads=1`` (default) steps on the calling thread (figures: docs/envs.md,
``fourfold bench --envs``); ``threads=None`` uses the cores this process may run on
(``usable_cores``), ``threads=k`` at most that many. Blocks of games are handed out to
threads dynamically, and each step runs threaded or on the calling thread, whichever has
been faster lately (``_choose_parallel``): on a loaded machine the threads do not pay.

Covered: every game whose ``observation`` part names compiled kernels (``vector``,
``fourfold.envs.observe``): Quarto, Folio standard, fixed-grid and no-grid, Dao and Ice Dao
(every option). Others get ``ConfigurationError`` naming the missing part.
"""

from __future__ import annotations

import os
import time
from typing import Any

import gymnasium
import numba
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import Game
from fourfold.envs import vector_kernels as vk
from fourfold.envs.common import load_game
from fourfold.envs.observe import default_max_steps, encoder_for, vector_family
from fourfold.envs.vector_kernels import Family

Array = npt.NDArray[Any]
OBSERVATIONS = ("planes", "compact")
PROBE = 16  # a threaded env times the way it is not using every this many step calls


def family_for(game: Game[Any, Any]) -> Family:
    """The compiled family of a configured game (its ``Observation.vector``), or
    ``ConfigurationError`` if it has none or its kernel does not cover this configuration."""
    family = vector_family(game)
    if family is None:
        raise ConfigurationError(
            f"no vectorised env for {game.info.label()}: the game has no compiled kernels"
            " (no 'vector' in its observation part); use aec_env or gym_env")
    return family


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), at most numba's thread pool."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        counter = getattr(os, "process_cpu_count", os.cpu_count)
        cores = counter() or 1
    pool: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    return max(1, min(cores, pool))


def opponent_policy(game: Game[Any, Any], opponent: str | None) -> tuple[int, int]:
    """``(mode, attention)`` of the compiled opponent named ``opponent``."""
    from fourfold.ai.levels import level_for

    if opponent in (None, "self-play"):
        return vk.SELF_PLAY, 0
    if opponent == "random":
        return vk.RANDOM, 0
    if opponent == "greedy":
        return vk.GREEDY, 0
    levels = {f"level{n}": n for n in (1, 2, 3)}
    if opponent not in levels:
        raise ConfigurationError(
            f"opponent must be None (self-play), 'random', 'greedy' or 'level1'..'level3',"
            f" not {opponent!r}")
    spec = level_for(game.name, levels[opponent], game.info.variant)
    if spec.bot == "random":
        return vk.RANDOM, 0
    if spec.bot == "greedy":
        return vk.GREEDY, 0
    if spec.bot == "beginner" and spec.nodes:
        return vk.BEGINNER, int(spec.nodes)
    raise ConfigurationError(
        f"{opponent} of {game.info.label()} is {spec.describe()}; the vector env compiles the"
        " random, beginner and greedy bots only (use gym_env for this opponent)")


class VectorEnv(gymnasium.vector.VectorEnv[Array, Array, Array]):
    """``num_envs`` games of one ruleset, stepped together on the compiled kernel."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - as gymnasium.vector.VectorEnv declares it
        "autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": [],
    }

    def __init__(self, game: str | Game[Any, Any], num_envs: int, seed: int = 0,
                 variant: str | None = None, *, opponent: str | None = None,
                 seat: int | str = 0, max_steps: int | None = None, threads: int | None = 1,
                 observation: str = "planes", copy: bool = True, **options: Any) -> None:
        self.game = load_game(game, variant, **options)
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigurationError(f"num_envs must be a positive integer, not {num_envs!r}")
        if observation not in OBSERVATIONS:
            raise ConfigurationError(
                f"observation must be 'planes' or 'compact', not {observation!r}")
        self.family = family_for(self.game)
        self.mode, self.attention = opponent_policy(self.game, opponent)
        self.num_envs = num_envs
        self.num_actions = self.game.num_actions
        self.opponent = opponent
        self.observation = observation
        self.copy = bool(copy)
        self.max_steps = default_max_steps(self.game) if max_steps is None else int(max_steps)
        if self.max_steps < 1:
            raise ConfigurationError(f"max_steps must be at least 1, not {max_steps!r}")
        if seat == "mixed":
            self.seat = np.arange(num_envs, dtype=np.int64) % 2
        elif seat in (0, 1) and not isinstance(seat, bool):
            self.seat = np.full(num_envs, seat, dtype=np.int64)
        else:
            raise ConfigurationError(f"seat must be 0, 1 or 'mixed', not {seat!r}")
        self.threads = self._thread_count(threads)
        self._make_spaces()
        self._make_buffers()
        self.seed_value = seed
        self._seed_streams(seed)
        self._step_kernel = self.family.kernels[0] if self.threads == 1 else self.family.kernels[1]
        # seconds per step call, serial and parallel (moving averages), and the calls made
        self._seconds: dict[bool, float] = {}
        self._calls = 0

    @staticmethod
    def _thread_count(threads: int | None) -> int:
        if threads is None:
            return usable_cores()
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ConfigurationError(f"threads must be a positive integer or None, not {threads!r}")
        return min(threads, usable_cores())

    def _make_spaces(self) -> None:
        f = self.family
        if self.observation == "planes":
            shape = encoder_for(self.game).shape
            self.single_observation_space = spaces.Box(0.0, 1.0, shape, dtype=np.float32)
            self._obs_dtype: Any = np.float32
        else:
            self.single_observation_space = spaces.Box(-1, f.compact_high, (f.compact_size,),
                                                       dtype=np.int8)
            self._obs_dtype = np.int8
        self.obs_shape: tuple[int, ...] = self.single_observation_space.shape
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _make_buffers(self) -> None:
        f = self.family
        n = self.num_envs
        size = int(np.prod(self.obs_shape))
        self.xs = np.tile(f.x0, (n, 1))
        self.hist = np.zeros((n, *f.hist_shape), dtype=np.int64)
        self.keys = np.zeros((n, self.max_steps + vk.LOOKAHEAD_ROWS + 2, *f.key_shape),
                             dtype=np.int64)
        self.steps = np.zeros(n, dtype=np.int64)
        self.masks = np.zeros((n, self.num_actions), dtype=np.int8)
        # per game: the legal actions (sampling reads them), then the opponents' scratch
        self.lists = np.zeros((n, 3 * f.width), dtype=np.int64)
        self.counts = np.zeros(n, dtype=np.int64)
        self.to_move = np.zeros(n, dtype=np.int64)
        # the kernels take the observations as bytes, read as int8 rows or float32 planes
        # (one compiled step and reset for both kinds: ``vector_kernels._observe_row``)
        row_bytes = size * np.dtype(self._obs_dtype).itemsize
        self._obs_bytes = np.zeros((n, row_bytes), dtype=np.uint8)
        self._final_bytes = np.zeros((n, row_bytes), dtype=np.uint8)
        self.obs: Array = self._obs_bytes.view(self._obs_dtype)
        self.final: Array = self._final_bytes.view(self._obs_dtype)
        self.rewards = np.zeros((n, 2), dtype=np.float32)
        self.flags = np.zeros((n, 3), dtype=np.bool_)  # terminated, truncated, illegal
        self.terminated = self.flags[:, vk.TERMINATED]
        self.truncated = self.flags[:, vk.TRUNCATED]
        self.errors = self.flags[:, vk.ERROR]
        self.cfg = np.array([self.mode, self.attention, self.observation == "planes",
                             self.max_steps], dtype=np.int64)
        self.actions = np.zeros(n, dtype=np.int64)
        self._rows = np.arange(n)

    def _seed_streams(self, seed: int) -> None:
        self.rngs = vk.seeded_rngs(seed, self.num_envs)  # sample_actions
        self.opponent_rngs = vk.seeded_rngs(seed, self.num_envs, stream=1)

    # -- the batch ---------------------------------------------------------------------------
    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.masks, "to_move": self.to_move,
                                "seat": self.seat}
        if self.copy:
            info = {k: v.copy() for k, v in info.items()}
        return info

    def _observations(self) -> Array:
        obs = self.obs.copy() if self.copy else self.obs
        return obs.reshape(self.num_envs, *self.obs_shape)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Array, dict[str, Any]]:
        """Start every game; a seed restarts the random streams (opponent, sampling)."""
        super().reset(seed=seed)
        if options:
            raise ConfigurationError(f"VectorEnv.reset takes no options, got {sorted(options)}")
        if seed is not None:
            self.seed_value = seed
            self._seed_streams(seed)
        f = self.family
        f.kernels[2](f.t, f.ot, self.xs, f.x0, self.hist, self.keys, self.cfg, self.seat,
                     self.steps, self.opponent_rngs, self.masks, self.lists, self.counts,
                     self.to_move, self._obs_bytes)
        return self._observations(), self._info()

    def step(self, actions: Array) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        """Play one action per game: observations, rewards, terminated, truncated, info."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise FourfoldError(f"expected {self.num_envs} actions, got shape {actions.shape}")
        if not np.issubdtype(actions.dtype, np.integer):
            raise FourfoldError(f"actions must be integers, not {actions.dtype}")
        self.actions[:] = actions
        self._run_step()
        if self.errors.any():
            bad = np.flatnonzero(self.errors)
            shown = ", ".join(f"game {i}: action {int(self.actions[i])}" for i in bad[:5])
            more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
            raise FourfoldError(
                f"{self.game.name}: illegal actions ({shown}{more}); only actions in"
                " info['action_mask'] may be played (the other games were stepped)")
        if self.mode == vk.SELF_PLAY:
            movers = self._movers
            rewards = self.rewards[self._rows, movers]
        else:
            rewards = self.rewards[self._rows, self.seat]
        info = self._info()
        if self.mode == vk.SELF_PLAY:
            info["rewards"] = self.rewards.copy() if self.copy else self.rewards
        terminated = self.terminated.copy() if self.copy else self.terminated
        truncated = self.truncated.copy() if self.copy else self.truncated
        done = terminated | truncated
        if done.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            ended = np.flatnonzero(done)
            # one copy of every finished game's last observation; each game gets its own
            # row of it (a view of that new array, never of the env's buffer)
            finals = self.final[ended].reshape(len(ended), *self.obs_shape)
            for j, i in enumerate(ended.tolist()):
                final_obs[i] = finals[j]
            info["final_obs"], info["_final_obs"] = final_obs, done
            info["final_info"] = {"seat": self.seat.copy(), "_seat": done.copy()}
            info["_final_info"] = done.copy()
        return self._observations(), rewards, terminated, truncated, info

    def _run_step(self) -> None:
        f = self.family
        self._movers = self.to_move.copy()
        args = (f.t, f.ot, self.xs, f.x0, self.hist, self.keys, self.actions, self.cfg,
                self.seat, self.steps, self.opponent_rngs, self.masks, self.lists, self.counts,
                self.to_move, self._obs_bytes, self._final_bytes, self.rewards, self.flags)
        if self.threads == 1:
            self._step_kernel(*args)
            return
        parallel = self._choose_parallel()
        start = time.perf_counter()
        if parallel:
            numba.set_num_threads(self.threads)
            before = numba.set_parallel_chunksize(1)  # blocks handed out one at a time
            try:
                self.family.kernels[1](*args)
            finally:
                numba.set_parallel_chunksize(before)
        else:
            self.family.kernels[0](*args)
        elapsed = time.perf_counter() - start
        last = self._seconds.get(parallel)
        self._seconds[parallel] = elapsed if last is None else 0.5 * (last + elapsed)

    def _choose_parallel(self) -> bool:
        """Whether this step runs on the threads: the way that has been faster lately.

        A parallel step ends at a barrier that waits for every thread; when other
        processes hold the cores, a thread the OS has not scheduled holds the whole batch
        up (2 threads ran at 0.42x of one at load 10 on 2 cores, blocks static or
        dynamic). So both ways are timed, the other one again every ``PROBE`` calls, and
        the faster one is used: the games are the same either way.
        """
        self._calls += 1
        if len(self._seconds) < 2:
            return True not in self._seconds
        faster = self._seconds[True] < self._seconds[False]
        return (not faster) if self._calls % PROBE == 0 else faster

    def sample_actions(self) -> Array:
        """A uniformly random legal action for every game (from the seeded streams), on
        the calling thread (a few nanoseconds a game: threads would cost more to wake)."""
        out = np.empty(self.num_envs, dtype=np.int64)
        vk.sample_serial(self.lists, self.counts, self.rngs, out)
        return out

    def action_masks(self) -> Array:
        """The legal-action masks, ``(num_envs, num_actions)`` int8 (a copy)."""
        return self.masks.copy()

    def legal_actions(self, i: int) -> list[int]:
        """Game ``i``'s legal actions, in the reference order."""
        return [int(a) for a in self.lists[i, :self.counts[i]]]
