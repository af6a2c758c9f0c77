"""Classic Dao's compiled family for the envs: the ``Observation.vector`` of its bundle.

``family(game)`` gives ``VectorEnv`` and the AEC env's compiled observations the Dao
kernel (``fourfold.games.dao.kernel``) in the shape of ``fourfold.envs.vector_kernels``: a
game is the row ``x = st`` (the length cap is in ``t``; ``ot`` is unused) and its
repetition ``keys``. ``dao_observe`` writes the planes of
``fourfold.games.dao.observe.DaoEncoder``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fourfold.envs import vector_kernels as vk
from fourfold.envs.vector_kernels import Family, family_function, hot_family_function
from fourfold.games.dao import kernel as dk
from fourfold.games.dao.kernel_engine import key_from_text
from fourfold.games.sliding.observe_vector import cap_fraction, sliding_tail
from fourfold.kernels.jit import no_refcount


@family_function
def dao_legal(t, x, h, keys, out):  # type: ignore[no-untyped-def]
    return dk.legal_actions(t, x, out)


@family_function
def dao_apply(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    dk.push(t, x, h, keys, action)
    x[dk.S_DEPTH] = 0  # nothing is ever popped: the look-ahead rows start at 0 again


@hot_family_function
def dao_push(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    dk.push(t, x, h, keys, action)


@hot_family_function
def dao_pop(t, x, h):  # type: ignore[no-untyped-def]
    dk.pop(t, x, h)


@family_function
def dao_track(t, ot, x, action, o, planes):  # type: ignore[no-untyped-def]
    """Nothing: Dao's planes are few and rewritten every step."""


@hot_family_function
def dao_status(t, x):  # type: ignore[no-untyped-def]
    if x[dk.S_WINNER] >= 0 or x[dk.S_DRAW]:
        return -1, x[dk.S_WINNER]
    return x[dk.S_SIDE], -1


@family_function
def dao_wins_now(t, x, h, keys, buf):  # type: ignore[no-untyped-def]
    me, _ = dao_status(t, x)
    if me < 0:
        return False
    count = dk.legal_actions(t, x, buf)
    for i in range(count):
        dk.push(t, x, h, keys, buf[i])
        won = x[dk.S_WINNER] == me
        dk.pop(t, x, h)
        if won:
            return True
    return False


@family_function
def dao_observe(t, ot, x, keys, viewer, o, planes):  # type: ignore[no-untyped-def]
    mover, _ = dao_status(t, x)
    sq_n = dk.SQUARES
    if not planes:
        # per square: 0 for an X piece, 1 for an O piece, -1 empty; then the player to move
        for sq in range(sq_n):
            if (x[dk.S_X] >> sq) & 1:
                o[sq] = 0
            elif (x[dk.S_O] >> sq) & 1:
                o[sq] = 1
            else:
                o[sq] = -1
        o[sq_n] = mover
        return
    # DaoEncoder: mine, theirs, empty, seen once / twice before, to act, plies / cap
    for j in range(o.shape[0]):
        o[j] = 0.0
    me = max(viewer, 0)
    mine = x[dk.S_X + me]
    theirs = x[dk.S_X + 1 - me]
    for sq in range(sq_n):
        if (mine >> sq) & 1:
            o[sq] = 1.0
        elif (theirs >> sq) & 1:
            o[sq_n + sq] = 1.0
        else:
            o[2 * sq_n + sq] = 1.0
    key = dk.position_key(x)
    seen = 0
    for i in range(x[dk.S_KEYS]):
        if keys[i] == key:
            seen += 1
    sliding_tail(o, 3 * sq_n, sq_n, seen, mover >= 0 and mover == viewer,
                  cap_fraction(t, dk.T_MAX_PLIES, x[dk.S_PLIES]))


# -- entry points -------------------------------------------------------------------------------
# Named family functions, so that numba caches the compiled code; as in
# ``fourfold.games.placement.observe_vector``.


@no_refcount
def dao_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
             lists, counts, to_move, obs, final, rewards, flags):
    vk.step_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,
                lists, counts, to_move, obs, final, rewards, flags,
                dao_legal, dao_apply, dao_push, dao_pop, dao_status, dao_wins_now, dao_observe,
                dao_track)


@njit(cache=True)
def dao_step(t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
            lists, counts, to_move, obs, final, rewards, flags):
    dao_block(0, xs.shape[0], t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs,
             masks, lists, counts, to_move, obs, final, rewards, flags)


@njit(parallel=True, cache=True)
def dao_step_threads(t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
                    lists, counts, to_move, obs, final, rewards, flags):
    n = xs.shape[0]
    blocks = min(n, vk.BLOCKS)
    for b in prange(blocks):
        dao_block(b * n // blocks, (b + 1) * n // blocks, t, ot, xs, x0, hs, keys, actions,
                 cfg, learner, steps, rngs, masks, lists, counts, to_move, obs, final, rewards,
                 flags)


@njit(cache=True)
def dao_reset(t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks, lists, counts,  # type: ignore[no-untyped-def]
             to_move, obs):
    vk.reset_block(0, xs.shape[0], t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks,
                 lists, counts, to_move, obs,
                 dao_legal, dao_apply, dao_push, dao_pop, dao_status, dao_wins_now, dao_observe,
                dao_track)


@njit(cache=True)
def dao_choose(t, x, h, keys, buf, reply, rs, mode, attention):  # type: ignore[no-untyped-def]
    return vk.choose(t, x, h, keys, buf, reply, rs, mode, attention,
                   dao_legal, dao_push, dao_pop, dao_status, dao_wins_now)


@njit(cache=True)
def dao_classify(t, x, h, keys, buf, reply):  # type: ignore[no-untyped-def]
    count = dao_legal(t, x, h, keys, buf)
    me, _ = dao_status(t, x)
    vk.classify(t, x, h, keys, buf, reply, count, me, dao_push, dao_pop, dao_status,
             dao_wins_now)
    return count


@njit(cache=True)
def dao_view(t, ot, x, h, keys, buf, viewer, o, mask):  # type: ignore[no-untyped-def]
    vk.seat_view(t, ot, x, h, keys, buf, viewer, o, mask, dao_legal, dao_status, dao_observe)


class DaoRows:
    """Loads a Dao position into the kernel's row and keys (``Family.load``)."""

    def __init__(self, game: Any, engine: Any) -> None:
        self.game = game
        self.engine = engine
        self.key_memo: dict[str, int] = {}  # the kernel key of each reference position key

    def __call__(self, state: Any) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        return self._dao_row(state)

    def _dao_row(self, state: Any) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """``DaoEngine.load`` with each history key converted once (a position's whole
        history is loaded every step; converting it was most of the AEC env's time)."""
        engine = self.engine
        memo = self.key_memo
        if len(memo) > 200_000:
            memo.clear()
        history = state.history[-(dk.MAX_HISTORY // 2):]
        for text in history:
            if text not in memo:
                memo[text] = key_from_text(text)
        st = engine.st
        st[:] = 0
        st[dk.S_X] = sum(1 << i for i, p in enumerate(state.board) if p == 0)
        st[dk.S_O] = sum(1 << i for i, p in enumerate(state.board) if p == 1)
        st[dk.S_SIDE] = state.to_play
        st[dk.S_PLIES] = state.plies
        engine.keys[:len(history)] = [memo[text] for text in history]
        st[dk.S_KEYS] = len(history)
        engine.load_outcome(self.game.outcome(state))
        return st, engine.keys


def family(game: Any) -> Family:
    """The Dao kernel's family for a configured Dao game."""
    from fourfold.games.dao.kernel_engine import DaoEngine

    engine = DaoEngine(game)
    engine.load(game.initial_state())
    return Family(engine.t, np.zeros(1), engine.st.copy(),
                  (vk.LOOKAHEAD_ROWS, dk.NUM_FIELDS + 1), (), dk.SQUARES + 1, 1,
                  game.num_actions,
                  (dao_step, dao_step_threads, dao_reset, dao_choose, dao_classify), dao_view,
                  DaoRows(game, DaoEngine(game)))
