"""Batch stepping on a game's compiled kernels: many games advanced by one call.

The generic half of ``VectorEnv`` (``fourfold.envs.vector``). A game's ``observe_vector``
module (its ``Observation.vector``, e.g. ``fourfold.games.placement.observe_vector``)
adapts its kernel to one shape: a game is a row ``x`` of int64, a few history rows ``h``
for the opponents' one-ply look-ahead and the repetition ``keys`` (empty where the game
has none). It writes eight family functions, each compiled with ``family_function``:

* ``legal(t, x, h, keys, out) -> count``: the legal actions, in the reference order;
* ``apply(t, x, h, keys, action)``: play for good; ``push`` / ``pop(t, x, h)``: play and
  undo (the look-ahead);
* ``status(t, x) -> (player to move or -1 once over, winner or -1)``;
* ``wins_now(t, x, h, keys, buf) -> bool``: whether the player to move wins at once;
* ``observe(t, ot, x, keys, viewer, o, planes)``: the observation (``COMPACT`` int8 row,
  ``FULL`` planes, or ``TAIL``: only what ``track`` does not keep up to date);
* ``track(t, ot, x, action, o, planes)``: before ``action``, update the planes it changes
  (may do nothing);

and hands them to ``fourfold.envs.vector_entries.entry_points``, which compiles the
family's entry points in its module, each naming the family functions in the templates
below (``step_block``, ``reset_block``, ``choose``, ``classify``, ``seat_view``): numba
caches a function only if the functions it calls are named, not passed in from Python.
The templates are inlined into each entry point; the family functions are ordinary
compiled functions that every entry point of the family calls (compiled once, not once
per call site; see ``family_function``), except the three small ones the opponents call
once per legal move (``status``, ``push``, ``pop``: ``hot_family_function``), which are
inlined. The opponent's ``choose`` is passed to the templates as ``move``: inlined into
the step, compiled once and called by the reset and the tests' ``choose``
(``vector_entries``); the level-1 opponent's random move is always inlined.

A step applies each game's action, lets the built-in opponent reply until the learner is
to move again, scores endings (writing the final observation of a game that ended),
resets finished games at once (same-step auto-reset) and writes the legal actions, masks
and observations of the games now in progress.

Opponents (``mode``) are the bots of levels 1-3, compiled (``fourfold.ai.levels``):

* ``RANDOM``: any legal move, uniformly (``RandomBot``, level 1);
* ``BEGINNER``: the first legal move that wins at once, else up to ``attention`` moves
  drawn at random without replacement, playing the first that neither loses at once nor
  lets the opponent win at once (else the last drawn): ``GreedyBot(attention=...)``;
* ``GREEDY``: a move drawn uniformly from the winning moves, else from the safe ones,
  else from those handing over a win: ``GreedyBot(careful=True)``.

Observations (``planes`` true) are exactly the tensors of the game's readable encoder
(``fourfold.envs.observe``) for the viewer (the learner, or the player to move in
self-play), flattened; otherwise the compact int8 rows of docs/envs.md. The step and
reset take the batch's rows as bytes (``uint8``), whichever the kind, and read each row
as int8 or float32 at run time (``_observe_row``): one compiled step and reset serve both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from fourfold.kernels.jit import inlined, no_refcount
from fourfold.kernels.rng import rng_below, rng_state

SELF_PLAY = 0  # every ply is an agent's step; rewards for both seats
RANDOM = 1  # the agent plays one seat, a uniformly random opponent the other (level 1)
BEGINNER = 2  # the beginner of level 2 (a win at once, else a glance for a safe move)
GREEDY = 3  # the greedy bot (level 3 of the placement games, level 2 of the sliding ones)
BLOCKS = 64  # games are stepped in this many blocks (threads take blocks in turn)
LOOKAHEAD_ROWS = 3  # history rows for the opponents' look-ahead (my move, the reply)
CFG_MODE, CFG_ATTENTION, CFG_PLANES, CFG_MAX_STEPS = 0, 1, 2, 3  # fields of ``cfg``
TERMINATED, TRUNCATED, ERROR = 0, 1, 2  # columns of ``flags``
COMPACT, FULL, TAIL = 0, 1, 2  # what ``*_observe`` writes: int8 rows, every plane, the tail
# (passed as ``np.int64(FULL)``: numba compiles a function called with a constant for that
# constant's literal type, so ``observe`` would compile once for FULL and again for a variable)


@dataclass(frozen=True)
class Family:
    """One game's compiled kernels for the envs: what its ``family(game)`` returns."""

    t: npt.NDArray[Any]  # the kernel's tables
    ot: npt.NDArray[Any]  # what the observation planes need beyond ``t`` (or a dummy)
    x0: npt.NDArray[np.int64]  # the row of the starting position
    hist_shape: tuple[int, ...]  # the look-ahead history rows ``h``
    key_shape: tuple[int, ...]  # per ply, after the ``max_steps`` rows: repetition keys
    compact_size: int  # the compact observation's length
    compact_high: int  # its largest value
    width: int  # the longest list of legal actions
    kernels: tuple[Any, ...]  # step (one thread), step (threads), reset, choose, classify
    view: Any  # ``view(t, ot, x, h, keys, buf, viewer, o, mask)``: one seat's planes, mask
    #: ``load(position) -> (x, keys)``: a rules position (a view's observation) as a row
    load: Callable[[Any], tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]


def family_function(fn: Callable[..., Any]) -> Any:
    """A family function: compiled once, cached, without reference counting (the step
    loops run without it, and row views of shared arrays would otherwise cost atomic
    updates of one cache line that every thread fights over).

    Not inlined by numba (``inline="always"``): the templates call each family function
    at several sites, and an entry point inlined every one of them, so numba typed and
    LLVM optimised the same code many times over, in every entry point. Compiled once, a
    family function is linked into each entry point, where LLVM inlines it where it pays.
    This cut the CPU time of the cold compile of a family's step, threaded step and
    reset to about a third (docs/envs.md, "Compile time")."""
    return no_refcount(fn)


def hot_family_function(fn: Callable[..., Any]) -> Any:
    """A small family function that the opponents call once per legal move (``status``,
    ``push``, ``pop``): inlined at each call site, where a call (every array passed as
    its pointer, shape and strides) would cost more than the function's work."""
    return inlined(fn)


# -- observation rows ----------------------------------------------------------------------------


@inlined
def _observe_row(t, ot, x, keys, viewer, o, planes, observe):  # type: ignore[no-untyped-def]
    """``observe`` into the game's observation row ``o``, held as bytes (uint8): read as
    int8 for the compact rows, as float32 for the planes. The step and reset take the
    batch's observations as bytes, so that one compiled step and reset serve both kinds
    (compiled per array types, they were compiled twice: a minute of CPU a family); the
    family functions get the same typed rows as before."""
    if planes == COMPACT:
        observe(t, ot, x, keys, viewer, o.view(np.int8), planes)
    else:
        observe(t, ot, x, keys, viewer, o.view(np.float32), planes)


@inlined
def _track_row(t, ot, x, action, o, planes, track):  # type: ignore[no-untyped-def]
    """``track`` on the byte row ``o`` (read as ``_observe_row`` reads it)."""
    if planes == COMPACT:
        track(t, ot, x, action, o.view(np.int8), planes)
    else:
        track(t, ot, x, action, o.view(np.float32), planes)


# -- the opponents ----------------------------------------------------------------------------


@inlined
def random_move(t, x, h, keys, buf, rs, legal):  # type: ignore[no-untyped-def]
    """A uniformly random legal action (the level-1 opponent)."""
    return buf[rng_below(rs, legal(t, x, h, keys, buf))]


@inlined
def choose(t, x, h, keys, buf, reply, rs, mode, attention,  # type: ignore[no-untyped-def]
            legal, push, pop, status, wins_now):
    """The opponent's action in the position ``x`` (``mode``: RANDOM, BEGINNER, GREEDY)."""
    if mode == RANDOM:
        return random_move(t, x, h, keys, buf, rs, legal)
    count = legal(t, x, h, keys, buf)
    me, _ = status(t, x)
    if mode == BEGINNER:
        for j in range(count):  # the first move, in the reference order, that wins at once
            push(t, x, h, keys, buf[j])
            _, winner = status(t, x)
            pop(t, x, h)
            if winner == me:
                return buf[j]
        left = count
        chosen = buf[0]
        for _ in range(min(attention, count)):  # glance at moves drawn without replacement
            j = rng_below(rs, left)
            chosen = buf[j]
            buf[j] = buf[left - 1]
            left -= 1
            push(t, x, h, keys, chosen)
            _, winner = status(t, x)
            safe = winner < 0 and not wins_now(t, x, h, keys, reply)
            pop(t, x, h)
            if safe:
                break
        return chosen
    # GREEDY: classes 0 wins, 1 safe, 2 hands over a win; uniform within the best class
    best, pool = classify(t, x, h, keys, buf, reply, count, me, push, pop, status, wins_now)
    pick = rng_below(rs, pool)
    for j in range(count):
        if reply[buf.shape[0] + j] == best:
            if pick == 0:
                return buf[j]
            pick -= 1
    return buf[0]  # unreachable: the pool is never empty


@inlined
def classify(t, x, h, keys, buf, reply, count, me,  # type: ignore[no-untyped-def]
             push, pop, status, wins_now):
    """Write each legal action's class (0 wins at once, 1 safe, 2 hands over a win or
    loses) to ``reply[width + j]``, as ``GreedyBot.classify``; return the best class
    present and how many actions have it."""
    width = buf.shape[0]
    best = 3
    pool = 0
    for j in range(count):
        push(t, x, h, keys, buf[j])
        _, winner = status(t, x)
        if winner == me:
            c = 0
        elif winner >= 0 or wins_now(t, x, h, keys, reply):
            c = 2
        else:
            c = 1
        pop(t, x, h)
        reply[width + j] = c
        if c < best:
            best = c
            pool = 1
        elif c == best:
            pool += 1
    return best, pool


@inlined
def _opponent(t, x, h, keys, buf, reply, rs, learner, steps, max_steps, mode,  # type: ignore[no-untyped-def]
              attention, ot, o, planes, legal, apply, status, move, track):
    """The opponent moves until the learner is to move (or the game ends); ``move`` is
    the family's ``choose`` (``vector_entries``: inlined in the step, called in the
    reset)."""
    while True:
        mover, _ = status(t, x)
        if mover < 0 or mover == learner or steps[0] >= max_steps:
            return
        if mode == RANDOM:  # inlined: a call would cost more than this move
            action = random_move(t, x, h, keys, buf, rs, legal)
        else:
            action = move(t, x, h, keys, buf, reply, rs, mode, attention)
        _track_row(t, ot, x, action, o, planes, track)
        apply(t, x, h, keys, action)
        steps[0] += 1


# -- the batch step ----------------------------------------------------------------------------


@inlined
def _ended(t, x, i, steps, max_steps, rewards, flags, status):  # type: ignore[no-untyped-def]
    """Score a game that just ended (or hit the cap); return whether it did."""
    mover, winner = status(t, x)
    if mover < 0:
        flags[i, TERMINATED] = 1
        if winner >= 0:
            rewards[i, winner] = 1.0
            rewards[i, 1 - winner] = -1.0
        return True
    if steps[i] >= max_steps:
        flags[i, TRUNCATED] = 1
        return True
    return False


@inlined
def _restart(x, x0, i, steps):  # type: ignore[no-untyped-def]
    for j in range(x.shape[0]):
        x[j] = x0[j]
    steps[i] = 0


@inlined
def step_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
                lists, counts, to_move, obs, final, rewards, flags,
                legal, apply, status, move, observe, track):
    # at most 29 arguments: CPython compiles a call with 30 or more as ``f(*args)``, which
    # numba cannot inline
    mode = cfg[CFG_MODE]
    attention = cfg[CFG_ATTENTION]
    planes = TAIL if cfg[CFG_PLANES] != 0 else COMPACT
    max_steps = cfg[CFG_MAX_STEPS]
    width = lists.shape[1] // 3
    for i in range(lo, hi):
        x = xs[i]
        h = hs[i]
        kk = keys[i]
        o = obs[i]
        buf = lists[i, :width]
        reply = lists[i, width:]
        rs = rngs[i:i + 1]
        st = steps[i:i + 1]
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        flags[i, TERMINATED] = 0
        flags[i, TRUNCATED] = 0
        flags[i, ERROR] = 0
        a = actions[i]
        if a < 0 or a >= masks.shape[1] or masks[i, a] == 0:
            flags[i, ERROR] = 1
            continue
        viewer = learner[i] if mode != SELF_PLAY else to_move[i]
        _track_row(t, ot, x, a, o, planes, track)
        apply(t, x, h, kk, a)
        steps[i] += 1
        # phase 0: the opponent replies, and an ended game is scored and restarted;
        # phase 1: the opponent opens the new game (one call site each)
        for phase in range(2):
            if mode != SELF_PLAY:
                _opponent(t, x, h, kk, buf, reply, rs, learner[i], st, max_steps, mode,
                          attention, ot, o, planes, legal, apply, status, move, track)
            if phase == 1 or not _ended(t, x, i, steps, max_steps, rewards, flags, status):
                break
            _observe_row(t, ot, x, kk, viewer, o, planes, observe)
            fin = final[i]
            for j in range(o.shape[0]):
                fin[j] = o[j]
            _restart(x, x0, i, steps)
            if planes != COMPACT:
                _observe_row(t, ot, x, kk, viewer, o, np.int64(FULL), observe)
        _refresh(t, ot, x, h, kk, buf, masks, counts, to_move, o, i, learner, mode, planes,
                 legal, status, observe)


@inlined
def _refresh(t, ot, x, h, keys, buf, masks, counts, to_move, o, i, learner, mode,  # type: ignore[no-untyped-def]
             planes, legal, status, observe):
    """Write game ``i``'s legal actions, mask row, player to move and observation."""
    row = masks[i]
    for j in range(row.shape[0]):
        row[j] = 0
    count = legal(t, x, h, keys, buf)
    for j in range(count):
        row[buf[j]] = 1
    counts[i] = count
    mover, _ = status(t, x)
    to_move[i] = mover
    _observe_row(t, ot, x, keys, learner[i] if mode != SELF_PLAY else mover, o, planes,
                 observe)


@inlined
def reset_block(lo, hi, t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
                 lists, counts, to_move, obs,
                 legal, apply, status, move, observe, track):
    """Start games ``lo .. hi - 1`` afresh (the opponent opens where it moves first)."""
    mode = cfg[CFG_MODE]
    planes = TAIL if cfg[CFG_PLANES] != 0 else COMPACT
    width = lists.shape[1] // 3
    for i in range(lo, hi):
        x = xs[i]
        o = obs[i]
        _restart(x, x0, i, steps)
        counts[i] = 0
        if planes != COMPACT:
            _observe_row(t, ot, x, keys[i], learner[i], o, np.int64(FULL), observe)
        if mode != SELF_PLAY:
            _opponent(t, x, hs[i], keys[i], lists[i, :width], lists[i, width:], rngs[i:i + 1],
                      learner[i], steps[i:i + 1], cfg[CFG_MAX_STEPS], mode,
                      cfg[CFG_ATTENTION], ot, o, planes, legal, apply, status, move,
                      track)
        _refresh(t, ot, x, hs[i], keys[i], lists[i, :width], masks, counts, to_move, o, i,
                 learner, mode, planes, legal, status, observe)


@inlined
def seat_view(t, ot, x, h, keys, buf, viewer, o, mask, legal, status, observe):  # type: ignore[no-untyped-def]
    """One seat's planes and legal-action mask (all zeros when the seat does not act)
    from a kernel row: the AEC env's compiled observation (``CompiledEncoder``)."""
    for j in range(mask.shape[0]):
        mask[j] = 0
    mover, _ = status(t, x)
    if mover >= 0 and mover == viewer:
        count = legal(t, x, h, keys, buf)
        for j in range(count):
            mask[buf[j]] = 1
    observe(t, ot, x, keys, viewer, o, np.int64(FULL))


@njit(parallel=True, cache=True)
def sample_batch(legal_buf, counts, rngs, out):  # type: ignore[no-untyped-def]
    """A uniformly random legal action for every game (from the lists ``step`` wrote)."""
    n = out.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        _sample_block(b * n // blocks, (b + 1) * n // blocks, legal_buf, counts, rngs, out)


@njit(cache=True)
def sample_serial(legal_buf, counts, rngs, out):  # type: ignore[no-untyped-def]
    _sample_block(np.int64(0), out.shape[0], legal_buf, counts, rngs, out)


@no_refcount
def _sample_block(lo, hi, legal_buf, counts, rngs, out):  # type: ignore[no-untyped-def]
    for i in range(lo, hi):
        out[i] = legal_buf[i, rng_below(rngs[i:i + 1], counts[i])]


def seeded_rngs(seed: int, n: int, stream: int = 0) -> np.ndarray:
    """One xorshift state per game, from the seed (never zero); ``stream`` 1 gives the
    opponents' generators, independent of the sampling ones."""
    base = seed * 1_000_003 + stream * 0x5DEECE66D
    return np.array([rng_state(base + i)[0] for i in range(n)], dtype=np.uint64)
