"""Batch stepping on the compiled kernels: many games advanced by one call, in parallel.

Each family adapts its kernel (``fourfold.games.placement.kernel``, ``dao``, ``icedao``, the
same helpers the bots and solvers use, differential-tested against the rules) to one
shape: a game is a row ``x`` of int64 (placement: board, supply, scalars; sliding: the
scalars), a few history rows ``h`` for the opponents' one-ply look-ahead and the
repetition ``keys`` (sliding games only). The family functions below (``*_legal``,
``*_apply``, ``*_push`` / ``*_pop``, ``*_status``, ``*_wins_now``, ``*_observe``) are
inlined into one step loop (``_step_block``), as in ``fourfold.kernels.sliding_loops``.

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

Observations (``planes`` true) are exactly the tensors of ``fourfold.envs.observe`` for
the viewer (the learner, or the player to move in self-play), flattened; otherwise the
compact int8 rows of docs/envs.md.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from fourfold.games.dao import kernel as dk
from fourfold.games.icedao import kernel as ik
from fourfold.games.placement import kernel as pk
from fourfold.games.placement.kernel_tables import P_CELLS, P_KINDS
from fourfold.kernels.jit import inlined, no_refcount
from fourfold.kernels.rng import rng_state

SELF_PLAY = 0  # every ply is an agent's step; rewards for both seats
RANDOM = 1  # the agent plays one seat, a uniformly random opponent the other (level 1)
BEGINNER = 2  # the beginner of level 2 (a win at once, else a glance for a safe move)
GREEDY = 3  # the greedy bot (level 3 of the placement games, level 2 of the sliding ones)
BLOCKS = 64  # games are stepped in this many blocks (threads take blocks in turn)
LOOKAHEAD_ROWS = 3  # history rows for the opponents' look-ahead (my move, the reply)
CFG_MODE, CFG_ATTENTION, CFG_PLANES, CFG_MAX_STEPS = 0, 1, 2, 3  # fields of ``cfg``
TERMINATED, TRUNCATED, ERROR = 0, 1, 2  # columns of ``flags``
COMPACT, FULL, TAIL = 0, 1, 2  # what ``*_observe`` writes: int8 rows, every plane, the tail

# -- placement (Quarto, Folio grids): x = board | supply | st ------------------------------
# ``ot`` (float64): [A, then A x K attribute table, then K copies per kind]


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
def pl_push(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    n = t[P_CELLS]
    k = t[P_KINDS]
    pk.push(t, x[:n], x[n:n + k], x[n + k:], h, action)


@inlined
def pl_pop(t, x, h):  # type: ignore[no-untyped-def]
    n = t[P_CELLS]
    k = t[P_KINDS]
    pk.pop(t, x[:n], x[n:n + k], x[n + k:], h)


@inlined
def pl_status(t, x):  # type: ignore[no-untyped-def]
    """(player to move or -1 once over, winner or -1)."""
    st = x[t[P_CELLS] + t[P_KINDS]:]
    return pk.to_move(t, st), st[pk.S_WINNER]


@inlined
def pl_wins_now(t, x, h, keys, buf):  # type: ignore[no-untyped-def]
    """Whether the player to move can win at once (the piece in hand completes a line)."""
    n = t[P_CELLS]
    st = x[n + t[P_KINDS]:]
    if pk.to_move(t, st) < 0:
        return False
    return pk.winning_cell(t, x[:n], st) >= 0


@inlined
def pl_observe(t, ot, x, keys, viewer, o, planes):  # type: ignore[no-untyped-def]
    n = t[P_CELLS]
    k = t[P_KINDS]
    st = x[n + k:]
    mover = pk.to_move(t, st)
    if not planes:
        # board kinds (-1 empty), the kind in hand (-1 none), the supply, the player to move
        for c in range(n):
            o[c] = x[c]
        o[n] = st[pk.S_HAND]
        for g in range(k):
            o[n + 1 + g] = x[n + g]
        o[n + 1 + k] = mover
        return
    # PlacementEncoder: planes of n cells (one per cell of the geometry). ``planes`` 1
    # writes every plane; ``TAIL`` only the last four (placeable, give only, to act,
    # seat), the others being kept up to date move by move by ``pl_track``
    a = np.int64(ot[0])
    hand = st[pk.S_HAND]
    if planes != TAIL:
        for j in range(o.shape[0]):
            o[j] = 0.0
        for c in range(n):
            kind = x[c]
            if kind >= 0:
                o[kind * n + c] = 1.0
                for j in range(a):
                    o[(k + j) * n + c] = ot[1 + j * k + kind]
        if hand >= 0:
            base = (k + a + hand) * n
            for c in range(n):
                o[base + c] = 1.0
        for g in range(k):
            _supply_plane(ot, o, n, k, a, g, x[n + g])
    place = 3 * k + a
    m = pk.placeable(t, st) if mover >= 0 else 0
    give_only = 1.0 if mover >= 0 and hand < 0 else 0.0
    acting = 1.0 if mover >= 0 and mover == viewer else 0.0
    seat = np.float32(viewer) if viewer > 0 else 0.0
    for c in range(n):
        o[place * n + c] = (m >> c) & 1
        o[(place + 1) * n + c] = give_only
        o[(place + 2) * n + c] = acting
        o[(place + 3) * n + c] = seat


@inlined
def _supply_plane(ot, o, n, k, a, g, left):  # type: ignore[no-untyped-def]
    value = np.float32(left) / np.float32(ot[1 + a * k + g])
    base = (2 * k + a + g) * n
    for c in range(n):
        o[base + c] = value


@inlined
def pl_track(t, ot, x, action, o, planes):  # type: ignore[no-untyped-def]
    """Before ``action`` is applied: update the planes it changes (the piece placed, its
    attributes, the hand and the supply of the kind given), a few cache lines instead of
    the whole tensor."""
    if planes != TAIL:
        return
    n = t[P_CELLS]
    k = t[P_KINDS]
    a = np.int64(ot[0])
    hand = x[n + k + pk.S_HAND]
    place = action // (k + 1)
    give = action % (k + 1)
    if place < n:
        o[hand * n + place] = 1.0
        for j in range(a):
            o[(k + j) * n + place] = ot[1 + j * k + hand]
        base = (k + a + hand) * n
        for c in range(n):
            o[base + c] = 0.0
    if give < k:
        base = (k + a + give) * n
        for c in range(n):
            o[base + c] = 1.0
        _supply_plane(ot, o, n, k, a, give, x[n + give] - 1)


# -- classic Dao: x = st ------------------------------------------------------------------
# ``ot``: unused (the length cap is in ``t``)


@inlined
def dao_legal(t, x, h, keys, out):  # type: ignore[no-untyped-def]
    return dk.legal_actions(t, x, out)


@inlined
def dao_apply(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    dk.push(t, x, h, keys, action)
    x[dk.S_DEPTH] = 0  # nothing is ever popped: the look-ahead rows start at 0 again


@inlined
def dao_push(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    dk.push(t, x, h, keys, action)


@inlined
def dao_pop(t, x, h):  # type: ignore[no-untyped-def]
    dk.pop(t, x, h)


@inlined
def dao_track(t, ot, x, action, o, planes):  # type: ignore[no-untyped-def]
    """Nothing: Dao's planes are few and rewritten every step."""


@inlined
def dao_status(t, x):  # type: ignore[no-untyped-def]
    if x[dk.S_WINNER] >= 0 or x[dk.S_DRAW]:
        return -1, x[dk.S_WINNER]
    return x[dk.S_SIDE], -1


@inlined
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


@inlined
def _cap_fraction(t, cap_field, plies):  # type: ignore[no-untyped-def]
    cap = t[cap_field]
    if cap > 0:
        return min(plies / cap, 1.0)
    return 0.0


@inlined
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
    _sliding_tail(o, 3 * sq_n, sq_n, seen, mover >= 0 and mover == viewer,
                  _cap_fraction(t, dk.T_MAX_PLIES, x[dk.S_PLIES]))


@inlined
def _sliding_tail(o, base, sq_n, seen, acting, fraction):  # type: ignore[no-untyped-def]
    """The last four planes of the sliding encoders (``_common_sliding``)."""
    for sq in range(sq_n):
        if seen >= 1:
            o[base + sq] = 1.0
        if seen >= 2:
            o[base + sq_n + sq] = 1.0
        if acting:
            o[base + 2 * sq_n + sq] = 1.0
        o[base + 3 * sq_n + sq] = fraction


# -- Ice Dao: x = st ------------------------------------------------------------------------


@inlined
def ice_legal(t, x, h, keys, out):  # type: ignore[no-untyped-def]
    return ik.legal_actions(t, x, out)


@inlined
def ice_apply(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    ik.push(t, x, h, keys, action)
    x[ik.S_DEPTH] = 0


@inlined
def ice_push(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    ik.push(t, x, h, keys, action)


@inlined
def ice_pop(t, x, h):  # type: ignore[no-untyped-def]
    ik.pop(t, x, h)


@inlined
def ice_track(t, ot, x, action, o, planes):  # type: ignore[no-untyped-def]
    """Nothing: Ice Dao's planes are rewritten every step."""


@inlined
def ice_status(t, x):  # type: ignore[no-untyped-def]
    if x[ik.S_WINNER] >= 0 or x[ik.S_DRAW]:
        return -1, x[ik.S_WINNER]
    return x[ik.S_SIDE], -1


@inlined
def ice_wins_now(t, x, h, keys, buf):  # type: ignore[no-untyped-def]
    me, _ = ice_status(t, x)
    if me < 0:
        return False
    return ik.winning_action(t, x, buf) >= 0


@inlined
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
    _sliding_tail(o, 15 * sq_n, sq_n, seen, mover >= 0 and mover == viewer,
                  _cap_fraction(t, ik.T_MAX_PLIES, x[ik.S_PLIES]))


# -- the opponents ----------------------------------------------------------------------------


@inlined
def _choose(t, x, h, keys, buf, reply, rs, mode, attention,  # type: ignore[no-untyped-def]
            legal, push, pop, status, wins_now):
    """The opponent's action in the position ``x`` (``mode``: RANDOM, BEGINNER, GREEDY)."""
    count = legal(t, x, h, keys, buf)
    if mode == RANDOM:
        return buf[pk.rng_below(rs, count)]
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
            j = pk.rng_below(rs, left)
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
    pick = pk.rng_below(rs, pool)
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
              attention, ot, o, planes, legal, apply, push, pop, status, wins_now, track):
    """The opponent moves until the learner is to move (or the game ends)."""
    while True:
        mover, _ = status(t, x)
        if mover < 0 or mover == learner or steps[0] >= max_steps:
            return
        action = _choose(t, x, h, keys, buf, reply, rs, mode, attention,
                         legal, push, pop, status, wins_now)
        track(t, ot, x, action, o, planes)
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
def _step_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
                lists, counts, to_move, obs, final, rewards, flags,
                legal, apply, push, pop, status, wins_now, observe, track):
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
        track(t, ot, x, a, o, planes)
        apply(t, x, h, kk, a)
        steps[i] += 1
        # phase 0: the opponent replies, and an ended game is scored and restarted;
        # phase 1: the opponent opens the new game (one call site each)
        for phase in range(2):
            if mode != SELF_PLAY:
                _opponent(t, x, h, kk, buf, reply, rs, learner[i], st, max_steps, mode,
                          attention, ot, o, planes, legal, apply, push, pop, status,
                          wins_now, track)
            if phase == 1 or not _ended(t, x, i, steps, max_steps, rewards, flags, status):
                break
            observe(t, ot, x, kk, viewer, o, planes)
            fin = final[i]
            for j in range(o.shape[0]):
                fin[j] = o[j]
            _restart(x, x0, i, steps)
            if planes != COMPACT:
                observe(t, ot, x, kk, viewer, o, FULL)
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
    observe(t, ot, x, keys, learner[i] if mode != SELF_PLAY else mover, o, planes)


@inlined
def _reset_block(lo, hi, t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
                 lists, counts, to_move, obs,
                 legal, apply, push, pop, status, wins_now, observe, track):
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
            observe(t, ot, x, keys[i], learner[i], o, FULL)
        if mode != SELF_PLAY:
            _opponent(t, x, hs[i], keys[i], lists[i, :width], lists[i, width:], rngs[i:i + 1],
                      learner[i], steps[i:i + 1], cfg[CFG_MAX_STEPS], mode,
                      cfg[CFG_ATTENTION], ot, o, planes, legal, apply, push, pop, status,
                      wins_now, track)
        _refresh(t, ot, x, hs[i], keys[i], lists[i, :width], masks, counts, to_move, o, i,
                 learner, mode, planes, legal, status, observe)


# -- entry points, one set per family ----------------------------------------------------------
# The family's functions are named here, not passed in from Python, so that numba can cache
# the compiled code (it does not cache a function that takes functions as arguments). Each
# ``*_block`` runs without reference counting (``no_refcount``): the row views taken per
# game then cost no atomic updates of the shared arrays' counts (with them, two threads
# fight over one cache line and a step costs several times as much). ``*_step`` runs the
# whole batch on the calling thread; ``*_step_threads`` splits it in ``BLOCKS`` blocks
# that numba's threads take in turn. ``*_choose`` plays the opponent once and
# ``*_classify`` splits the moves as the greedy bot does (for the tests).


@no_refcount
def pl_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
             lists, counts, to_move, obs, final, rewards, flags):
    _step_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,
                lists, counts, to_move, obs, final, rewards, flags,
                pl_legal, pl_apply, pl_push, pl_pop, pl_status, pl_wins_now, pl_observe,
                pl_track)


@njit(cache=True)
def pl_step(t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
            lists, counts, to_move, obs, final, rewards, flags):
    pl_block(0, xs.shape[0], t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs,
             masks, lists, counts, to_move, obs, final, rewards, flags)


@njit(parallel=True, cache=True)
def pl_step_threads(t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
                    lists, counts, to_move, obs, final, rewards, flags):
    n = xs.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        pl_block(b * n // blocks, (b + 1) * n // blocks, t, ot, xs, x0, hs, keys, actions,
                 cfg, learner, steps, rngs, masks, lists, counts, to_move, obs, final, rewards,
                 flags)


@njit(cache=True)
def pl_reset(t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks, lists, counts,  # type: ignore[no-untyped-def]
             to_move, obs):
    _reset_block(0, xs.shape[0], t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks,
                 lists, counts, to_move, obs,
                 pl_legal, pl_apply, pl_push, pl_pop, pl_status, pl_wins_now, pl_observe,
                pl_track)


@njit(cache=True)
def pl_choose(t, x, h, keys, buf, reply, rs, mode, attention):  # type: ignore[no-untyped-def]
    return _choose(t, x, h, keys, buf, reply, rs, mode, attention,
                   pl_legal, pl_push, pl_pop, pl_status, pl_wins_now)


@njit(cache=True)
def pl_classify(t, x, h, keys, buf, reply):  # type: ignore[no-untyped-def]
    count = pl_legal(t, x, h, keys, buf)
    me, _ = pl_status(t, x)
    classify(t, x, h, keys, buf, reply, count, me, pl_push, pl_pop, pl_status, pl_wins_now)
    return count


@no_refcount
def dao_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
             lists, counts, to_move, obs, final, rewards, flags):
    _step_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,
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
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        dao_block(b * n // blocks, (b + 1) * n // blocks, t, ot, xs, x0, hs, keys, actions,
                 cfg, learner, steps, rngs, masks, lists, counts, to_move, obs, final, rewards,
                 flags)


@njit(cache=True)
def dao_reset(t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks, lists, counts,  # type: ignore[no-untyped-def]
             to_move, obs):
    _reset_block(0, xs.shape[0], t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks,
                 lists, counts, to_move, obs,
                 dao_legal, dao_apply, dao_push, dao_pop, dao_status, dao_wins_now, dao_observe,
                dao_track)


@njit(cache=True)
def dao_choose(t, x, h, keys, buf, reply, rs, mode, attention):  # type: ignore[no-untyped-def]
    return _choose(t, x, h, keys, buf, reply, rs, mode, attention,
                   dao_legal, dao_push, dao_pop, dao_status, dao_wins_now)


@njit(cache=True)
def dao_classify(t, x, h, keys, buf, reply):  # type: ignore[no-untyped-def]
    count = dao_legal(t, x, h, keys, buf)
    me, _ = dao_status(t, x)
    classify(t, x, h, keys, buf, reply, count, me, dao_push, dao_pop, dao_status,
             dao_wins_now)
    return count


@no_refcount
def ice_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,  # type: ignore[no-untyped-def]
             lists, counts, to_move, obs, final, rewards, flags):
    _step_block(lo, hi, t, ot, xs, x0, hs, keys, actions, cfg, learner, steps, rngs, masks,
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
    blocks = min(n, BLOCKS)
    for b in prange(blocks):
        ice_block(b * n // blocks, (b + 1) * n // blocks, t, ot, xs, x0, hs, keys, actions,
                 cfg, learner, steps, rngs, masks, lists, counts, to_move, obs, final, rewards,
                 flags)


@njit(cache=True)
def ice_reset(t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks, lists, counts,  # type: ignore[no-untyped-def]
             to_move, obs):
    _reset_block(0, xs.shape[0], t, ot, xs, x0, hs, keys, cfg, learner, steps, rngs, masks,
                 lists, counts, to_move, obs,
                 ice_legal, ice_apply, ice_push, ice_pop, ice_status, ice_wins_now, ice_observe,
                ice_track)


@njit(cache=True)
def ice_choose(t, x, h, keys, buf, reply, rs, mode, attention):  # type: ignore[no-untyped-def]
    return _choose(t, x, h, keys, buf, reply, rs, mode, attention,
                   ice_legal, ice_push, ice_pop, ice_status, ice_wins_now)


@njit(cache=True)
def ice_classify(t, x, h, keys, buf, reply):  # type: ignore[no-untyped-def]
    count = ice_legal(t, x, h, keys, buf)
    me, _ = ice_status(t, x)
    classify(t, x, h, keys, buf, reply, count, me, ice_push, ice_pop, ice_status,
             ice_wins_now)
    return count


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


def seeded_rngs(seed: int, n: int, stream: int = 0) -> np.ndarray:
    """One xorshift state per game, from the seed (never zero); ``stream`` 1 gives the
    opponents' generators, independent of the sampling ones."""
    base = seed * 1_000_003 + stream * 0x5DEECE66D
    return np.array([rng_state(base + i)[0] for i in range(n)], dtype=np.uint64)
