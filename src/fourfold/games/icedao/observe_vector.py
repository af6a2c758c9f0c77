"""Ice Dao's compiled family for the envs: the ``Observation.vector`` of its bundle.

``family(game)`` gives ``VectorEnv`` and the AEC env's compiled observations the Ice
Dao kernel (``fourfold.games.icedao.kernel``) in the shape of
``fourfold.envs.vector_kernels``: a game is the row ``x = st`` and its repetition
``keys``. ``ice_observe`` writes the planes of
``fourfold.games.icedao.observe.IceDaoEncoder``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fourfold.envs import vector_kernels as vk
from fourfold.envs.vector_kernels import Family, family_function, hot_family_function
from fourfold.games.icedao import kernel as ik
from fourfold.games.sliding.observe_vector import cap_fraction, sliding_tail
from fourfold.kernels.jit import no_refcount


@family_function
def ice_legal(t, x, h, keys, out):  # type: ignore[no-untyped-def]
    return ik.legal_actions(t, x, out)


@family_function
def ice_apply(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    ik.push(t, x, h, keys, action)
    x[ik.S_DEPTH] = 0


@hot_family_function
def ice_push(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    ik.push(t, x, h, keys, action)


@hot_family_function
def ice_pop(t, x, h):  # type: ignore[no-untyped-def]
    ik.pop(t, x, h)


@family_function
def ice_track(t, ot, x, action, o, planes):  # type: ignore[no-untyped-def]
    """Nothing: Ice Dao's planes are rewritten every step."""


@hot_family_function
def ice_status(t, x):  # type: ignore[no-untyped-def]
    if x[ik.S_WINNER] >= 0 or x[ik.S_DRAW]:
        return -1, x[ik.S_WINNER]
    return x[ik.S_SIDE], -1


@family_function
def ice_wins_now(t, x, h, keys, buf):  # type: ignore[no-untyped-def]
    me, _ = ice_status(t, x)
    if me < 0:
        return False
    return ik.winning_action(t, x, buf) >= 0


@family_function
def ice_observe(t, ot, x, keys, viewer, o, planes):  # type: ignore[no-untyped-def]
    mover, _ = ice_status(t, x)
    sq_n = ik.SQUARES
    if not planes:
        # per square and size (small, medium, large): the colour there (0 Blue, 1 Green)
        # or -1; then the player to move
        for sq in range(sq_n):
            for size in range(3):
                v = -1
                if (x[ik.S_BB + size] >> sq) & 1:
                    v = 0
                elif (x[ik.S_BB + 3 + size] >> sq) & 1:
                    v = 1
                o[sq * 3 + size] = v
        o[sq_n * 3] = mover
        return
    # IceDaoEncoder: mine / theirs by size, top by owner and size, height 1-3, the tail
    for j in range(o.shape[0]):
        o[j] = 0.0
    me = max(viewer, 0)
    for sq in range(sq_n):
        height = 0
        top = -1
        top_rel = 0
        for size in range(3):
            for colour in range(2):
                if (x[ik.S_BB + colour * 3 + size] >> sq) & 1:
                    rel = 0 if colour == me else 1
                    o[(rel * 3 + size) * sq_n + sq] = 1.0
                    height += 1
                    if top < 0:
                        top = size
                        top_rel = rel
        if height > 0:
            o[(6 + top_rel * 3 + top) * sq_n + sq] = 1.0
            o[(11 + height) * sq_n + sq] = 1.0
    seen = ik.occurrences(x, keys, 2)
    sliding_tail(o, 15 * sq_n, sq_n, seen, mover >= 0 and mover == viewer,
                  cap_fraction(t, ik.T_MAX_PLIES, x[ik.S_PLIES]))


# -- entry points -------------------------------------------------------------------------------
# Named family functions, so that numba caches the compiled code; as in
# ``fourfold.games.placement.observe_vector``.


@no_refcount
def ice_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
             lists, counts, to_move, obs, final, rewards, flags):
    vk.step_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,
                lists, counts, to_move, obs, final, rewards, flags,
                ice_legal, ice_apply, ice_push, ice_pop, ice_status, ice_wins_now, ice_observe,
                ice_track)


@njit(cache=True)
def ice_step(t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
            lists, counts, to_move, obs, final, rewards, flags):
    ice_block(0, xs.shape[0], t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs,
             masks, lists, counts, to_move, obs, final, rewards, flags)


@njit(parallel=True, cache=True)
def ice_step_threads(t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
                    lists, counts, to_move, obs, final, rewards, flags):
    n = xs.shape[0]
    blocks = min(n, vk.BLOCKS)
    for b in prange(blocks):
        ice_block(b * n // blocks, (b + 1) * n // blocks, t, ot, xs, x0, hs, keys, actions,
                 cfg, learner, steps, rngs, masks, lists, counts, to_move, obs, final, rewards,
                 flags)


@njit(cache=True)
def ice_reset(t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks, lists, counts,  # type: ignore[no-untyped-def]
             to_move, obs):
    vk.reset_block(0, xs.shape[0], t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks,
                 lists, counts, to_move, obs,
                 ice_legal, ice_apply, ice_push, ice_pop, ice_status, ice_wins_now, ice_observe,
                ice_track)


@njit(cache=True)
def ice_choose(t, x, h, keys, buf, reply, rs, mode, attention):  # type: ignore[no-untyped-def]
    return vk.choose(t, x, h, keys, buf, reply, rs, mode, attention,
                   ice_legal, ice_push, ice_pop, ice_status, ice_wins_now)


@njit(cache=True)
def ice_classify(t, x, h, keys, buf, reply):  # type: ignore[no-untyped-def]
    count = ice_legal(t, x, h, keys, buf)
    me, _ = ice_status(t, x)
    vk.classify(t, x, h, keys, buf, reply, count, me, ice_push, ice_pop, ice_status,
             ice_wins_now)
    return count


@njit(cache=True)
def ice_view(t, ot, x, h, keys, buf, viewer, o, mask):  # type: ignore[no-untyped-def]
    vk.seat_view(t, ot, x, h, keys, buf, viewer, o, mask, ice_legal, ice_status, ice_observe)


class IceDaoRows:
    """Loads an Ice Dao position into the kernel's row and keys (``Family.load``)."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def __call__(self, state: Any) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        self.engine.load(state)
        return self.engine.st, self.engine.keys


def family(game: Any) -> Family:
    """The Ice Dao kernel's family for a configured Ice Dao game."""
    from fourfold.games.icedao.kernel_engine import IceDaoEngine

    engine = IceDaoEngine(game)
    engine.load(game.initial_state())
    return Family(engine.t, np.zeros(1), engine.st.copy(),
                  (vk.LOOKAHEAD_ROWS, ik.NUM_FIELDS + 1), (ik.KEY_FIELDS,), ik.SQUARES * 3 + 1,
                  1, ik.MAX_MOVES,
                  (ice_step, ice_step_threads, ice_reset, ice_choose, ice_classify), ice_view,
                  IceDaoRows(IceDaoEngine(game)))
