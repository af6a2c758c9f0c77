"""Batch stepping on the compiled kernels: many games advanced by one call, in parallel.

Each family adapts its kernel (``fourfold.kernels.placement``, ``dao``, ``icedao``, the
same helpers the bots and solvers use, differential-tested against the rules) to one
shape: a game is a row ``x`` of int64 (placement: board, supply, scalars; sliding: the
scalars), a history row ``h`` and repetition ``keys`` (sliding games only). The family
functions below (``*_legal``, ``*_apply``, ``*_status``, ``*_observe``) are inlined into
one step loop (``_step_block``), as in ``fourfold.kernels.sliding_loops``.

A step applies each game's action, lets the built-in opponent reply (uniformly
random legal moves) until the learner is to move again, scores endings, resets finished
games at once (auto-reset) and writes the legal actions, masks and compact observations
of the games now in progress. Games are independent and run on all cores (``prange``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from fourfold.kernels import dao as dk
from fourfold.kernels import icedao as ik
from fourfold.kernels import placement as pk
from fourfold.kernels.jit import inlined, no_refcount
from fourfold.kernels.placement_tables import P_CELLS, P_KINDS

SELF_PLAY = 0  # every ply is an agent's step; rewards for both seats
RANDOM = 1  # the agent plays one seat, a uniformly random opponent the other
BLOCKS = 64  # games are stepped in this many blocks (threads take blocks in turn)

# -- placement (Quarto, Folio grids): x = board | supply | st ------------------------------


@inlined
def pl_legal(t, x, h, keys, out):  # type: ignore[no-untyped-def]
    n = t[P_CELLS]
    k = t[P_KINDS]
    return pk.legal_actions(t, x[:n], x[n:n + k], x[n + k:], out)


@inlined
def pl_apply(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    n = t[P_CELLS]
    k = t[P_KINDS]
    pk.apply(t, x[:n], x[n:n + k], x[n + k:], action)


@inlined
def pl_status(t, x):  # type: ignore[no-untyped-def]
    """(player to move or -1 once over, winner or -1)."""
    st = x[t[P_CELLS] + t[P_KINDS]:]
    return pk.to_move(t, st), st[pk.S_WINNER]


@inlined
def pl_observe(t, x, o):  # type: ignore[no-untyped-def]
    """Board kinds (-1 empty), the kind in hand (-1 none), the supply, the player to move."""
    n = t[P_CELLS]
    k = t[P_KINDS]
    for c in range(n):
        o[c] = x[c]
    st = x[n + k:]
    o[n] = st[pk.S_HAND]
    for g in range(k):
        o[n + 1 + g] = x[n + g]
    o[n + 1 + k] = pk.to_move(t, st)


# -- classic Dao: x = st ------------------------------------------------------------------


@inlined
def dao_legal(t, x, h, keys, out):  # type: ignore[no-untyped-def]
    return dk.legal_actions(t, x, out)


@inlined
def dao_apply(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    dk.push(t, x, h, keys, action)
    x[dk.S_DEPTH] = 0  # nothing is ever popped: one history row suffices


@inlined
def dao_status(t, x):  # type: ignore[no-untyped-def]
    if x[dk.S_WINNER] >= 0 or x[dk.S_DRAW]:
        return -1, x[dk.S_WINNER]
    return x[dk.S_SIDE], -1


@inlined
def dao_observe(t, x, o):  # type: ignore[no-untyped-def]
    """Per square: 0 for an X piece, 1 for an O piece, -1 empty; then the player to move."""
    for sq in range(dk.SQUARES):
        if (x[dk.S_X] >> sq) & 1:
            o[sq] = 0
        elif (x[dk.S_O] >> sq) & 1:
            o[sq] = 1
        else:
            o[sq] = -1
    mover, _ = dao_status(t, x)
    o[dk.SQUARES] = mover


# -- Ice Dao: x = st ------------------------------------------------------------------------


@inlined
def ice_legal(t, x, h, keys, out):  # type: ignore[no-untyped-def]
    return ik.legal_actions(t, x, out)


@inlined
def ice_apply(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    ik.push(t, x, h, keys, action)
    x[ik.S_DEPTH] = 0


@inlined
def ice_status(t, x):  # type: ignore[no-untyped-def]
    if x[ik.S_WINNER] >= 0 or x[ik.S_DRAW]:
        return -1, x[ik.S_WINNER]
    return x[ik.S_SIDE], -1


@inlined
def ice_observe(t, x, o):  # type: ignore[no-untyped-def]
    """Per square and size (small, medium, large): the colour of that piece there (0 Blue,
    1 Green) or -1; then the player to move."""
    for sq in range(ik.SQUARES):
        for size in range(3):
            v = -1
            if (x[ik.S_BB + size] >> sq) & 1:
                v = 0
            elif (x[ik.S_BB + 3 + size] >> sq) & 1:
                v = 1
            o[sq * 3 + size] = v
    mover, _ = ice_status(t, x)
    o[ik.SQUARES * 3] = mover


# -- the batch step ----------------------------------------------------------------------------


@inlined
def _finish(t, x, x0, h, keys, i, steps, max_steps, rewards, terminated, truncated,  # type: ignore[no-untyped-def]
            status):
    """Score a game that just ended (or hit the cap) and reset it; return whether it did."""
    mover, winner = status(t, x)
    if mover < 0:
        terminated[i] = 1
        if winner >= 0:
            rewards[i, winner] = 1.0
            rewards[i, 1 - winner] = -1.0
    elif steps[i] >= max_steps:
        truncated[i] = 1
    else:
        return False
    for j in range(x.shape[0]):
        x[j] = x0[j]
    steps[i] = 0
    return True


@inlined
def _opponent(t, x, x0, h, keys, buf, rs, i, learner, steps, max_steps, rewards,  # type: ignore[no-untyped-def]
              terminated, truncated, legal, apply, status):
    """The random opponent moves until the learner is to move (or the game ends)."""
    while True:
        mover, _ = status(t, x)
        if mover < 0 or mover == learner[i] or steps[i] >= max_steps:
            return
        count = legal(t, x, h, keys, buf)
        apply(t, x, h, keys, buf[pk.rng_below(rs, count)])
        steps[i] += 1



@inlined
def _step_block(lo, hi, t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps,  # type: ignore[no-untyped-def]
                rngs, masks, legal_buf, counts, obs, rewards, terminated, truncated, errors,
                legal, apply, status, observe):
    for i in range(lo, hi):
        x = xs[i]
        h = hs[i]
        kk = keys[i]
        buf = legal_buf[i]
        rs = rngs[i:i + 1]
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        terminated[i] = 0
        truncated[i] = 0
        errors[i] = 0
        a = actions[i]
        if a < 0 or a >= masks.shape[1] or masks[i, a] == 0:
            errors[i] = 1
            continue
        apply(t, x, h, kk, a)
        steps[i] += 1
        if mode == RANDOM:
            _opponent(t, x, x0, h, kk, buf, rs, i, learner, steps, max_steps, rewards,
                      terminated, truncated, legal, apply, status)
        if _finish(t, x, x0, h, kk, i, steps, max_steps, rewards, terminated, truncated,
                   status) and mode == RANDOM:
            _opponent(t, x, x0, h, kk, buf, rs, i, learner, steps, max_steps, rewards,
                      terminated, truncated, legal, apply, status)
        _refresh(t, x, h, kk, buf, masks, counts, obs, i, legal, observe)



@inlined
def _refresh(t, x, h, keys, buf, masks, counts, obs, i, legal, observe):  # type: ignore[no-untyped-def]
    """Write game ``i``'s legal actions, mask row and observation."""
    row = masks[i]
    for j in range(row.shape[0]):
        row[j] = 0
    count = legal(t, x, h, keys, buf)
    for j in range(count):
        row[buf[j]] = 1
    counts[i] = count
    observe(t, x, obs[i])



@inlined
def _reset_block(lo, hi, t, xs, x0, hs, keys, mode, learner, steps, max_steps, rngs,  # type: ignore[no-untyped-def]
                 masks, legal_buf, counts, obs, rewards, terminated, truncated,
                 legal, apply, status, observe):
    """Start games ``lo .. hi - 1`` afresh (the opponent opens where it moves first)."""
    for i in range(lo, hi):
        x = xs[i]
        for j in range(x.shape[0]):
            x[j] = x0[j]
        steps[i] = 0
        counts[i] = 0
        if mode == RANDOM:
            _opponent(t, x, x0, hs[i], keys[i], legal_buf[i], rngs[i:i + 1], i, learner,
                      steps, max_steps, rewards, terminated, truncated, legal, apply, status)
        _refresh(t, x, hs[i], keys[i], legal_buf[i], masks, counts, obs, i, legal, observe)


# -- entry points, one set per family ----------------------------------------------------------
# The family's functions are named here, not passed in from Python, so that numba can cache
# the compiled code (it does not cache a function that takes functions as arguments). Each
# ``*_block`` runs without reference counting (``no_refcount``): the row views taken per
# game then cost no atomic updates of the shared arrays' counts (with them, two threads
# fight over one cache line and a step costs several times as much). ``*_step`` runs the
# whole batch on the calling thread; ``*_step_threads`` splits it in ``BLOCKS`` blocks
# that numba's threads take in turn.


@no_refcount
def pl_block(lo, hi, t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps,  # type: ignore[no-untyped-def]
             rngs, masks, legal_buf, counts, obs, rewards, terminated, truncated, errors):
    _step_block(lo, hi, t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps, rngs,
                masks, legal_buf, counts, obs, rewards, terminated, truncated, errors,
                pl_legal, pl_apply, pl_status, pl_observe)


@njit(cache=True)
def pl_step(t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps, rngs,  # type: ignore[no-untyped-def]
            masks, legal_buf, counts, obs, rewards, terminated, truncated, errors):
    pl_block(0, xs.shape[0], t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps,
             rngs, masks, legal_buf, counts, obs, rewards, terminated, truncated, errors)


@njit(parallel=True, cache=True)
def pl_step_threads(t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps, rngs,  # type: ignore[no-untyped-def]
                    masks, legal_buf, counts, obs, rewards, terminated, truncated, errors):
    n = xs.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        pl_block(b * n // blocks, (b + 1) * n // blocks, t, xs, x0, hs, keys, actions,
                 mode, learner, steps, max_steps, rngs, masks, legal_buf, counts, obs,
                 rewards, terminated, truncated, errors)


@njit(cache=True)
def pl_reset(t, xs, x0, hs, keys, mode, learner, steps, max_steps, rngs,  # type: ignore[no-untyped-def]
             masks, legal_buf, counts, obs, rewards, terminated, truncated):
    _reset_block(0, xs.shape[0], t, xs, x0, hs, keys, mode, learner, steps, max_steps, rngs,
                 masks, legal_buf, counts, obs, rewards, terminated, truncated,
                 pl_legal, pl_apply, pl_status, pl_observe)

@no_refcount
def dao_block(lo, hi, t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps,  # type: ignore[no-untyped-def]
             rngs, masks, legal_buf, counts, obs, rewards, terminated, truncated, errors):
    _step_block(lo, hi, t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps, rngs,
                masks, legal_buf, counts, obs, rewards, terminated, truncated, errors,
                dao_legal, dao_apply, dao_status, dao_observe)


@njit(cache=True)
def dao_step(t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps, rngs,  # type: ignore[no-untyped-def]
            masks, legal_buf, counts, obs, rewards, terminated, truncated, errors):
    dao_block(0, xs.shape[0], t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps,
             rngs, masks, legal_buf, counts, obs, rewards, terminated, truncated, errors)


@njit(parallel=True, cache=True)
def dao_step_threads(t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps, rngs,  # type: ignore[no-untyped-def]
                    masks, legal_buf, counts, obs, rewards, terminated, truncated, errors):
    n = xs.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        dao_block(b * n // blocks, (b + 1) * n // blocks, t, xs, x0, hs, keys, actions,
                 mode, learner, steps, max_steps, rngs, masks, legal_buf, counts, obs,
                 rewards, terminated, truncated, errors)


@njit(cache=True)
def dao_reset(t, xs, x0, hs, keys, mode, learner, steps, max_steps, rngs,  # type: ignore[no-untyped-def]
             masks, legal_buf, counts, obs, rewards, terminated, truncated):
    _reset_block(0, xs.shape[0], t, xs, x0, hs, keys, mode, learner, steps, max_steps, rngs,
                 masks, legal_buf, counts, obs, rewards, terminated, truncated,
                 dao_legal, dao_apply, dao_status, dao_observe)

@no_refcount
def ice_block(lo, hi, t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps,  # type: ignore[no-untyped-def]
             rngs, masks, legal_buf, counts, obs, rewards, terminated, truncated, errors):
    _step_block(lo, hi, t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps, rngs,
                masks, legal_buf, counts, obs, rewards, terminated, truncated, errors,
                ice_legal, ice_apply, ice_status, ice_observe)


@njit(cache=True)
def ice_step(t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps, rngs,  # type: ignore[no-untyped-def]
            masks, legal_buf, counts, obs, rewards, terminated, truncated, errors):
    ice_block(0, xs.shape[0], t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps,
             rngs, masks, legal_buf, counts, obs, rewards, terminated, truncated, errors)


@njit(parallel=True, cache=True)
def ice_step_threads(t, xs, x0, hs, keys, actions, mode, learner, steps, max_steps, rngs,  # type: ignore[no-untyped-def]
                    masks, legal_buf, counts, obs, rewards, terminated, truncated, errors):
    n = xs.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        ice_block(b * n // blocks, (b + 1) * n // blocks, t, xs, x0, hs, keys, actions,
                 mode, learner, steps, max_steps, rngs, masks, legal_buf, counts, obs,
                 rewards, terminated, truncated, errors)


@njit(cache=True)
def ice_reset(t, xs, x0, hs, keys, mode, learner, steps, max_steps, rngs,  # type: ignore[no-untyped-def]
             masks, legal_buf, counts, obs, rewards, terminated, truncated):
    _reset_block(0, xs.shape[0], t, xs, x0, hs, keys, mode, learner, steps, max_steps, rngs,
                 masks, legal_buf, counts, obs, rewards, terminated, truncated,
                 ice_legal, ice_apply, ice_status, ice_observe)


@njit(parallel=True, cache=True)
def sample_batch(legal_buf, counts, rngs, out):  # type: ignore[no-untyped-def]
    """A uniformly random legal action for every game (from the lists ``step`` wrote)."""
    n = out.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        _sample_block(b * n // blocks, (b + 1) * n // blocks, legal_buf, counts, rngs, out)


@njit(cache=True)
def sample_serial(legal_buf, counts, rngs, out):  # type: ignore[no-untyped-def]
    _sample_block(0, out.shape[0], legal_buf, counts, rngs, out)


@no_refcount
def _sample_block(lo, hi, legal_buf, counts, rngs, out):  # type: ignore[no-untyped-def]
    for i in range(lo, hi):
        out[i] = legal_buf[i, pk.rng_below(rngs[i:i + 1], counts[i])]


def seeded_rngs(seed: int, n: int) -> np.ndarray:
    """One xorshift state per game, from the seed (never zero)."""
    return np.array([pk.rng_state(seed * 1_000_003 + i)[0] for i in range(n)], dtype=np.uint64)
