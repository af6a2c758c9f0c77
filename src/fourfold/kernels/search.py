"""One alpha-beta for every kernel: an iterative negamax over hooks the kernel inlines.

Negamax with alpha-beta over a kernel's in-place position, a transposition
table keyed by the kernel's position key (always-replace, one slot per index;
16 bytes a slot: the key and one word packing move, value and bound, so a probe
reads one cache line and the table takes half the memory it took with four words),
the table's move tried first (before the other moves are even generated), then
the rest in the order the kernel's ``arrange`` and ``choose`` give them.

The loop runs over an explicit stack of frames (one row of ``frames`` per ply,
fields ``F_*``) rather than recursing: numba cannot reload recursive functions
from its cache, and the loop allocates nothing, so a kernel compiles it without
reference counting (``fourfold.kernels.jit.no_refcount``).

How a kernel uses it (the protocol). The position is one tuple ``pos`` of the
kernel's arrays (for instance ``(t, st, hist, keys)``), handed unchanged to the
hooks, which are ``inlined`` functions of the kernel:

* ``settle(pos, row, ply, depth)``: the value of a position that needs no search
  (from the side to move: ``WIN - ply`` won, ``-(WIN - ply)`` lost, ``0`` drawn,
  ``WIN - ply - 1`` for a win on the next move), ``AT_HORIZON`` when the depth
  limit cuts this line, or ``OPEN`` to search it; ``row`` is scratch space.
* ``key(pos)``: the transposition-table key of the position (an int64).
* ``legal(pos, row)``: write the moves to search into ``row``; return how many.
* ``push(pos, action)`` and ``pop(pos)``: play a move and take it back.
* ``arrange(row, scores, count, tt_move, history)``: after ``legal``, drop the
  table's move (it has been searched already) and prepare the order; returns
  ``(first, count)``: the moves left are ``row[first:count]``. ``scores`` is a
  scratch row the kernel may fill (for instance with history scores).
* ``choose(row, scores, i, count, history)``: put the next move to search at
  ``row[i]`` (choosing among ``row[i:count]``) and return it.
* ``leaf(pos, scratch, action, ply, depth)`` (only with ``root_search_leaves``): what
  ``settle(pos, row, ply, depth)`` would return after ``push(pos, action)``, without
  playing it (the position unchanged), ``QUIET`` where ``settle`` would say ``OPEN`` (the
  child is pushed and searched without settling it again), or ``OPEN`` to have the move
  pushed and settled as usual. Every child is valued this way first: one ply above the
  horizon most are settled where they stand, higher up the moves that give the opponent
  a win at once are. ``scratch`` is the node's ``scores`` row (``arrange`` may reset what
  ``leaf`` keeps in it); the children count as nodes exactly as pushed ones do, so the
  search, its nodes and its results are the same. The loop values such children in a
  tight inner loop (locals, no frame traffic).
* ``child_key(pos, action)`` (only with ``root_search_leaves``): ``key(pos)`` after
  ``push(pos, action)``, without playing it. Valuing child ``i`` of a node that will
  probe its children's slots (depth above 1), the loop prefetches
  (``kernels/prefetch.py``) the table slot of the sibling ``AHEAD`` moves later (the moves
  ``choose_in_order`` takes next), so it arrives while the siblings before it are valued
  or searched: hints only, no value depends on them.

There is one loop (``_loop``): ``negamax`` and ``root_search`` compile it without
``leaf``, ``negamax_leaves`` and ``root_search_leaves`` with it; the flag ``in_place`` is
a constant once inlined, so a kernel without ``leaf`` compiles none of that code.

The wrapper that the kernel compiles (``no_refcount``) calls ``root_search``
with its arrays and hooks; numba inlines the loop and, through it, the hooks,
so a node pays no call. Numba's cache is keyed by the wrapper's file and, through
``fourfold.kernels.jit``, by every package module that file imports: a change to this
file recompiles the kernels that inline it.

Scores are from the side to move: ``WIN - plies`` for a win (faster wins score
higher), ``0`` for a draw and for positions at the horizon. ``stats`` carries
counters in and out (nodes, node limit, abort flag, horizon flag); when the node
limit is hit the search unwinds its line and its result is discarded.
"""

from __future__ import annotations

import numpy as np

from fourfold.kernels.index import unsigned
from fourfold.kernels.jit import inlined
from fourfold.kernels.prefetch import prefetch_row

WIN = 10_000
INF = 1 << 30
MATE_BOUND = WIN - 1000  # scores beyond this are proven wins or losses
OPEN = INF + 1  # from ``settle``: search this position
AT_HORIZON = INF + 2  # from ``settle``: the depth limit cuts this line (worth 0, not exact)
AHEAD = 2  # the sibling whose table slot is prefetched, this many moves ahead of the one valued
QUIET = INF + 3  # from ``leaf``: search this child; ``settle`` would say ``OPEN`` (skip it)

# fields of ``stats``
NODES = 0
LIMIT = 1
ABORTED = 2
HORIZON = 3  # set when some line was cut off by the depth limit (the result is not exact)
NUM_STATS = 4

# bound kinds in the transposition table
EXACT = 0
LOWER = 1
UPPER = 2

# a table entry is 16 bytes (four to a cache line): the key, and one word packing the
# best move (+ 1, bits 0-23), the value (+ ``VALUE_BIAS``, bits 24-47) and the info
# (``depth * 8 + 4 if exact (no horizon below) + bound``, bits 48-62)
TT_KEY = 0
TT_DATA = 1
TT_FIELDS = 2
VALUE_SHIFT = 24
VALUE_BIAS = 1 << 23
INFO_SHIFT = 48
FIELD_MASK = (1 << 24) - 1

# fields of a search frame (one per ply of the current line)
F_DEPTH = 0
F_ALPHA = 1
F_BETA = 2
F_ALPHA0 = 3
F_BEST = 4
F_BEST_MOVE = 5
F_COUNT = 6  # -1 until the moves are generated
F_NEXT = 7
F_KEY = 8
F_TT_MOVE = 9  # the table's move, tried before the others are generated
F_CURRENT = 10  # the move being searched
F_HORIZON = 11  # the caller's horizon flag, saved while this node's subtree runs
NUM_FRAME = 12

# steps of the search loop
ENTER = 0
NEXT = 1
RETURN = 2
DESCEND = 3  # push the move ``F_CURRENT`` and enter the child (at the end of the same pass)


def new_frames(plies: int) -> np.ndarray:
    return np.zeros((plies, NUM_FRAME), dtype=np.int64)


HUGE_PAGE = 1 << 21  # bytes of a huge page on x86-64 Linux


def new_table(bits: int) -> np.ndarray:
    """A transposition table of ``2**bits`` entries (allocated once per bot).

    A table of a huge page or more starts on a huge-page boundary: NumPy asks Linux for
    huge pages for its large arrays (``madvise``), and the kernel can back only the whole
    2 MB pages inside an array with them, so an unaligned 4 MB table got one and the rest
    in 4 KB pages, each probe there a likely TLB miss on top of the cache miss."""
    rows = 1 << bits
    size = rows * TT_FIELDS * 8
    if size >= HUGE_PAGE:
        raw = np.zeros(size + HUGE_PAGE, dtype=np.uint8)
        start = -raw.ctypes.data % HUGE_PAGE
        table = raw[start:start + size].view(np.int64).reshape(rows, TT_FIELDS)
    else:
        table = np.zeros((rows, TT_FIELDS), dtype=np.int64)
    table[:, TT_KEY] = -1
    return table


def new_stats() -> np.ndarray:
    return np.zeros(NUM_STATS, dtype=np.int64)


@inlined
def _store(tt, frames, ply, stats):  # type: ignore[no-untyped-def]
    """Save the finished node at ``ply`` in the transposition table; return its value."""
    best = frames[ply, F_BEST]
    bound = EXACT
    if best <= frames[ply, F_ALPHA0]:
        bound = UPPER
    elif best >= frames[ply, F_BETA]:
        bound = LOWER
    key = frames[ply, F_KEY]
    slot = unsigned(key & (tt.shape[0] - 1))
    stored = best
    if stored > MATE_BOUND:
        stored += ply
    elif stored < -MATE_BOUND:
        stored -= ply
    exact = 4 if stats[HORIZON] == 0 else 0  # no line below was cut by the depth limit
    info = frames[ply, F_DEPTH] * 8 + exact + bound
    tt[slot, TT_KEY] = key
    tt[slot, TT_DATA] = ((frames[ply, F_BEST_MOVE] + 1) | ((stored + VALUE_BIAS) << VALUE_SHIFT)
                         | (info << INFO_SHIFT))
    stats[HORIZON] |= frames[ply, F_HORIZON]
    return best


@inlined
def _no_leaf(pos, scratch, action, ply, depth):  # type: ignore[no-untyped-def]
    """The ``leaf`` of a kernel without one: every child is pushed."""
    return OPEN


@inlined
def _no_key(pos, action):  # type: ignore[no-untyped-def]
    """The ``child_key`` of a kernel without one (never called)."""
    return 0


@inlined
def negamax(  # type: ignore[no-untyped-def]
    pos, moves, scores, frames, tt, history, stats, depth, alpha, beta, ply,
    settle, key, legal, push, pop, arrange, choose,
):
    """The negamax value of the position searched ``depth`` plies deep (``ply`` plies
    below the root). When the node limit is hit it takes back the moves it pushed,
    sets ``stats[ABORTED]`` and returns 0."""
    return _loop(pos, moves, scores, frames, tt, history, stats, depth, alpha, beta, ply,
                 settle, key, legal, push, pop, arrange, choose, _no_leaf, _no_key, False)


@inlined
def negamax_leaves(  # type: ignore[no-untyped-def]
    pos, moves, scores, frames, tt, history, stats, depth, alpha, beta, ply,
    settle, key, legal, push, pop, arrange, choose, leaf, child_key,
):
    """``negamax`` where the children of a node at depth 1 are valued by ``leaf`` where
    it can (not pushed), and a pushed child's table slot is prefetched at once: the same
    search, nodes and results."""
    return _loop(pos, moves, scores, frames, tt, history, stats, depth, alpha, beta, ply,
                 settle, key, legal, push, pop, arrange, choose, leaf, child_key, True)


@inlined
def _abort(pos, stats, nodes, ply, base, pop):  # type: ignore[no-untyped-def]
    """The node limit is hit: take back the moves pushed since ``base``, flag the abort."""
    stats[NODES] = nodes
    stats[ABORTED] = 1
    while ply > base:
        pop(pos)
        ply -= 1


@inlined
def _fold(tt, frames, ply, stats, history, value, action):  # type: ignore[no-untyped-def]
    """The child ``action`` of the node at ``ply`` is worth ``value`` (from this node's
    side): keep it if best, raise alpha; on a cutoff store the node. Returns the next step
    and, on a cutoff, the node's value."""
    if value > frames[ply, F_BEST]:
        frames[ply, F_BEST] = value
        frames[ply, F_BEST_MOVE] = action
        if value > frames[ply, F_ALPHA]:
            frames[ply, F_ALPHA] = value
            if value >= frames[ply, F_BETA]:
                history[action] += frames[ply, F_DEPTH] * frames[ply, F_DEPTH]
                return RETURN, _store(tt, frames, ply, stats)
    return NEXT, value


@inlined
def _loop(  # type: ignore[no-untyped-def]
    pos, moves, scores, frames, tt, history, stats, depth, alpha, beta, ply,
    settle, key, legal, push, pop, arrange, choose, leaf, child_key, in_place,
):
    """The search loop of ``negamax`` (``in_place`` false: ``leaf`` is never called) and
    of ``negamax_leaves`` (``in_place`` true). ``in_place`` is a constant where the
    kernel's wrapper calls it, so each kernel compiles only its own branch."""
    base = ply
    step = ENTER
    value = 0
    frames[ply, F_DEPTH] = depth
    frames[ply, F_ALPHA] = alpha
    frames[ply, F_BETA] = beta
    mask = tt.shape[0] - 1
    nodes = stats[NODES]  # counted in a local, written back on return
    limit = stats[LIMIT]
    quiet = False  # the node entered next needs no ``settle`` (its parent's ``leaf`` said so)
    while True:
        if step == ENTER:
            depth = frames[ply, F_DEPTH]
            alpha = frames[ply, F_ALPHA]
            beta = frames[ply, F_BETA]
            nodes += 1
            step = RETURN
            if nodes >= limit:
                _abort(pos, stats, nodes, ply, base, pop)
                return 0
            if quiet:  # ``leaf`` has settled it already: to be searched
                quiet = False
                value = OPEN
            else:
                value = settle(pos, moves[ply], ply, depth)
            if value != OPEN:
                if value == AT_HORIZON:
                    stats[HORIZON] = 1
                    value = 0
                continue
            k = key(pos)
            frames[ply, F_KEY] = k
            slot = unsigned(k & mask)
            tt_move = -1
            if tt[slot, TT_KEY] == k:
                data = tt[slot, TT_DATA]
                tt_move = (data & FIELD_MASK) - 1
                info = data >> INFO_SHIFT
                if info >> 3 >= depth:
                    stored = ((data >> VALUE_SHIFT) & FIELD_MASK) - VALUE_BIAS
                    if stored > MATE_BOUND:
                        stored -= ply
                    elif stored < -MATE_BOUND:
                        stored += ply
                    bound = info & 3
                    if (bound == EXACT or (bound == LOWER and stored >= beta)
                            or (bound == UPPER and stored <= alpha)):
                        if not info & 4:
                            stats[HORIZON] = 1  # the stored value was cut by a horizon
                        value = stored
                        continue
            frames[ply, F_HORIZON] = stats[HORIZON]
            stats[HORIZON] = 0
            frames[ply, F_ALPHA0] = alpha
            frames[ply, F_BEST] = -INF
            frames[ply, F_BEST_MOVE] = -1
            frames[ply, F_COUNT] = -1  # not generated yet
            frames[ply, F_NEXT] = 0
            frames[ply, F_TT_MOVE] = tt_move
            step = NEXT
            if tt_move >= 0:
                frames[ply, F_CURRENT] = tt_move
                step = DESCEND
        elif step == NEXT:
            count = frames[ply, F_COUNT]
            if count < 0:
                count = legal(pos, moves[ply])
                first, count = arrange(moves[ply], scores[ply], count,
                                       frames[ply, F_TT_MOVE], history)
                frames[ply, F_NEXT] = first
                frames[ply, F_COUNT] = count
                if in_place and frames[ply, F_DEPTH] > 1:
                    for j in range(first, min(first + AHEAD, count)):
                        prefetch_row(tt, unsigned(child_key(pos, moves[ply, j]) & mask))
            i = frames[ply, F_NEXT]
            action = -1
            if in_place:
                # the children, valued where they stand while ``leaf`` can: a tight loop
                # over locals, folded back into the frame when it stops at a child to search
                d = frames[ply, F_DEPTH]
                best = frames[ply, F_BEST]
                best_move = frames[ply, F_BEST_MOVE]
                alpha = frames[ply, F_ALPHA]
                beta = frames[ply, F_BETA]
                cut = False
                while i < count:
                    if d > 1 and i + AHEAD < count:
                        # a later sibling's slot, fetched while this one is valued or searched
                        prefetch_row(tt, unsigned(child_key(pos, moves[ply, i + AHEAD]) & mask))
                    action = choose(moves[ply], scores[ply], i, count, history)
                    value = leaf(pos, scores[ply], action, ply + 1, d - 1)
                    if value == OPEN:
                        break
                    if value == QUIET:
                        quiet = True
                        break
                    i += 1
                    nodes += 1  # the child, valued where it stands
                    if nodes >= limit:
                        _abort(pos, stats, nodes, ply, base, pop)
                        return 0
                    if value == AT_HORIZON:
                        stats[HORIZON] = 1
                        value = 0
                    value = -value
                    if value > best:
                        best = value
                        best_move = action
                        if value > alpha:
                            alpha = value
                            if value >= beta:
                                cut = True
                                break
                frames[ply, F_BEST] = best
                frames[ply, F_BEST_MOVE] = best_move
                frames[ply, F_ALPHA] = alpha
                frames[ply, F_NEXT] = i
                if cut:
                    history[action] += d * d
                    value = _store(tt, frames, ply, stats)
                    step = RETURN
                    continue
            if i >= count:
                step = RETURN
                if frames[ply, F_BEST] == -INF:  # no move at all: a draw, stored nowhere
                    stats[HORIZON] |= frames[ply, F_HORIZON]
                    value = 0
                else:
                    value = _store(tt, frames, ply, stats)
                continue
            if action < 0 or not in_place:
                action = choose(moves[ply], scores[ply], i, count, history)
            frames[ply, F_NEXT] = i + 1
            frames[ply, F_CURRENT] = action
            step = DESCEND
        else:  # RETURN: ``value`` is the value of the node at ``ply``
            if ply == base:
                stats[NODES] = nodes
                return value
            pop(pos)
            ply -= 1
            step, value = _fold(tt, frames, ply, stats, history, -value,
                                frames[ply, F_CURRENT])
        if step == DESCEND:
            # the one place a move is pushed below the root (the table's move, or the next
            # one): each inlined ``push`` is compiled again (one copy fewer: Ice Dao's cold
            # ``search_root`` 28.2 -> 22.7 CPU s, Dao's 14.0 -> 11.2)
            push(pos, frames[ply, F_CURRENT])
            if in_place and frames[ply, F_COUNT] < 0:  # the table's move (no moves listed)
                prefetch_row(tt, unsigned(key(pos) & mask))
            frames[ply + 1, F_DEPTH] = frames[ply, F_DEPTH] - 1
            frames[ply + 1, F_ALPHA] = -frames[ply, F_BETA]
            frames[ply + 1, F_BETA] = -frames[ply, F_ALPHA]
            ply += 1
            step = ENTER


@inlined
def root_search(  # type: ignore[no-untyped-def]
    pos, moves, scores, frames, tt, history, stats, root, count, depth, values,
    settle, key, legal, push_root, push, pop, arrange, choose,
):
    """Search the root actions ``root[:count]`` in that order to ``depth`` plies.

    ``push_root`` plays a root action (``push`` plays the moves below, which may
    skip checks ``settle`` has made). ``values[i]`` gets each action's score (exact
    for the best, a bound for the others); returns the index of the best action, or
    -1 if the node limit stopped the search (the position is then as it was).
    """
    return _root(pos, moves, scores, frames, tt, history, stats, root, count, depth, values,
                 settle, key, legal, push_root, push, pop, arrange, choose, _no_leaf, _no_key,
                 False)


@inlined
def root_search_leaves(  # type: ignore[no-untyped-def]
    pos, moves, scores, frames, tt, history, stats, root, count, depth, values,
    settle, key, legal, push_root, push, pop, arrange, choose, leaf, child_key,
):
    """``root_search`` valuing the children of nodes at depth 1 with ``leaf`` (the same
    search, nodes and results)."""
    return _root(pos, moves, scores, frames, tt, history, stats, root, count, depth, values,
                 settle, key, legal, push_root, push, pop, arrange, choose, leaf, child_key,
                 True)


@inlined
def _root(  # type: ignore[no-untyped-def]
    pos, moves, scores, frames, tt, history, stats, root, count, depth, values,
    settle, key, legal, push_root, push, pop, arrange, choose, leaf, child_key, in_place,
):
    alpha = -INF
    best = -1
    for i in range(count):
        push_root(pos, root[i])
        value = -_loop(pos, moves, scores, frames, tt, history, stats,
                       depth - 1, -INF, -alpha, 1,
                       settle, key, legal, push, pop, arrange, choose, leaf, child_key,
                       in_place)
        pop(pos)
        if stats[ABORTED]:
            return -1
        values[i] = value
        if value > alpha:
            alpha = value
            best = i
    return best


@inlined
def arrange_best_first(row, scores, count, tt_move, history):  # type: ignore[no-untyped-def]
    """An ``arrange`` for long move lists: the table's move leaves (the last move takes
    its place), then the move with the best history score (the first such) goes first;
    the rest keep the generated order (``choose`` with ``choose_in_order``)."""
    if tt_move >= 0:
        for i in range(count):
            if row[i] == tt_move:
                count -= 1
                row[i] = row[count]
                break
    pick = _first_best(row, count, history)
    if pick > 0:
        action = row[pick]
        row[pick] = row[0]
        row[0] = action
    return 0, count


@inlined
def _first_best(row, count, history):  # type: ignore[no-untyped-def]
    """The index of the first move of ``row[:count]`` with the highest history score (0 if
    none). Four interleaved running maxima (each the first best of its own quarter of the
    moves, combined by the lowest index among the best) instead of one: the compare and
    select of each move no longer waits for the one before."""
    t0 = t1 = t2 = t3 = -1  # history scores are >= 0
    p0 = p1 = p2 = p3 = 0
    j = 0
    while j + 4 <= count:
        h0 = history[unsigned(row[unsigned(j)])]
        h1 = history[unsigned(row[unsigned(j + 1)])]
        h2 = history[unsigned(row[unsigned(j + 2)])]
        h3 = history[unsigned(row[unsigned(j + 3)])]
        if h0 > t0:
            t0 = h0
            p0 = j
        if h1 > t1:
            t1 = h1
            p1 = j + 1
        if h2 > t2:
            t2 = h2
            p2 = j + 2
        if h3 > t3:
            t3 = h3
            p3 = j + 3
        j += 4
    top = max(max(t0, t1), max(t2, t3))
    pick = count
    if t0 == top:
        pick = p0
    if t1 == top and p1 < pick:
        pick = p1
    if t2 == top and p2 < pick:
        pick = p2
    if t3 == top and p3 < pick:
        pick = p3
    while j < count:  # the last few, after every index above
        h = history[unsigned(row[unsigned(j)])]
        if h > top:
            top = h
            pick = j
        j += 1
    return pick if count > 0 else 0


@inlined
def choose_in_order(row, scores, i, count, history):  # type: ignore[no-untyped-def]
    """A ``choose`` that keeps the arranged order."""
    return row[i]


@inlined
def arrange_by_history(row, scores, count, tt_move, history):  # type: ignore[no-untyped-def]
    """An ``arrange`` for short move lists: each move scored by its history (a snapshot
    in ``scores``); the table's move leaves (the first move takes its place)."""
    first = 0
    for i in range(count):
        scores[i] = history[row[i]]
    if tt_move >= 0:
        for i in range(count):
            if row[i] == tt_move:
                row[i] = row[0]
                scores[i] = scores[0]
                first = 1
                break
    return first, count


@inlined
def take_best(row, scores, i, count):  # type: ignore[no-untyped-def]
    """A selection sort step: swap the move of ``row[i:count]`` with the highest score (the
    first such) into place ``i`` and return it (``scores[i]`` is left stale: a later step
    reads only the scores after it)."""
    pick = i
    for j in range(i + 1, count):
        if scores[j] > scores[pick]:
            pick = j
    action = row[pick]
    row[pick] = row[i]
    scores[pick] = scores[i]
    row[i] = action
    return action


@inlined
def choose_by_score(row, scores, i, count, history):  # type: ignore[no-untyped-def]
    """A ``choose`` that takes the best-scored move left (the first such)."""
    return take_best(row, scores, i, count)
