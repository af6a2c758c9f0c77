"""Compiled placement rules: move generation, apply/undo, win tests and random playouts.

One set of functions plays every placement ruleset (Folio standard, fixed-grid
and no-grid, Quarto); what differs is data (``PlacementTables``). A position
lives in three preallocated arrays that ``push`` and ``pop`` update in place,
so nothing is allocated per move:

* ``board[cell]``: the kind on a cell, or -1;
* ``supply[kind]``: copies neither placed nor in hand;
* ``st``: the scalars (``S_*`` below) and ``hist``, one saved ``st`` row per
  ply plus the action played, for ``pop``.

Actions use the reference encoding (``PlacementGame.encode``): ``place * (K + 1)
+ give`` with ``place == N`` for "no placement" and ``give == K`` for "no give",
and moves are generated in increasing action order, which is the reference's
``legal_moves`` order. The readable rules stay the reference; the tests play
thousands of random games through both side by side.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fourfold.games.placement.fast_tables import COVER_COLOURS, COVER_SIZES, RULE_SHARE
from fourfold.games.placement.kernel_tables import (
    GEO_ANY,
    GEO_TOUCH,
    MAX_LINES_PER_CELL,
    O_CELL_LINES,
    O_CELL_NLINES,
    O_CELL_X,
    O_CELL_Y,
    O_COL_MASK,
    O_COUNTS,
    O_FEATURES,
    O_LINE_CELLS,
    O_LINE_MASK,
    O_NEIGHBOURS,
    O_ROW_MASK,
    O_ZOBRIST,
    O_ZOBRIST_HAND,
    P_BOX,
    P_CELLS,
    P_FIRST,
    P_FULL,
    P_GEOMETRY,
    P_HEIGHT,
    P_KINDS,
    P_LINES,
    P_PLACE_MUL,
    P_RULE,
    P_TOTAL,
    P_WIDTH,
    PLACE_SHIFT,
)
from fourfold.kernels.index import unsigned
from fourfold.kernels.jit import inlined, no_refcount
from fourfold.kernels.rng import rng_below
from fourfold.kernels.sliding_loops import count_leaves

# fields of ``st``
S_HAND = 0  # kind to place next, -1 before the first give and at the end
S_PLACED = 1
S_OCC = 2  # bitboard of occupied cells
S_ADJ = 3  # bitboard of cells touching a placed piece
S_MINX = 4
S_MAXX = 5
S_MINY = 6
S_MAXY = 7
S_WINNER = 8  # -1 while nobody has won
S_HASH = 9  # Zobrist key of board and hand
S_DEPTH = 10  # plies pushed (rows of ``hist`` in use)
NUM_FIELDS = 11
HIST_ACTION = NUM_FIELDS  # column of ``hist`` holding the action
MAX_PLIES = 40


@inlined
def entry(t, table, i):  # type: ignore[no-untyped-def]
    """Entry ``i`` (>= 0) of the table ``O_*`` names in the flat array ``t``."""
    return t[unsigned(t[table] + i)]


@inlined
def place_of(t, action):  # type: ignore[no-untyped-def]
    """``action // (kinds + 1)``, the cell (``P_CELLS``: none) an action places on, by a
    multiply and a shift (a division costs more than the rest of ``push``)."""
    return (action * t[P_PLACE_MUL]) >> PLACE_SHIFT


def new_position(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Fresh ``board, supply, st, hist`` arrays holding the start position."""
    board = np.empty(int(t[P_CELLS]), dtype=np.int64)
    supply = np.empty(int(t[P_KINDS]), dtype=np.int64)
    st = np.empty(NUM_FIELDS, dtype=np.int64)
    hist = np.zeros((MAX_PLIES, NUM_FIELDS + 1), dtype=np.int64)
    reset(t, board, supply, st)
    return board, supply, st, hist


@inlined
def reset(t, board, supply, st):  # type: ignore[no-untyped-def]
    board[:] = -1
    o = t[O_COUNTS]
    supply[:] = t[o:o + t[P_KINDS]]
    st[:] = 0
    st[S_HAND] = -1
    st[S_WINNER] = -1
    st[S_MINX] = 1 << 20
    st[S_MINY] = 1 << 20
    st[S_MAXX] = -(1 << 20)
    st[S_MAXY] = -(1 << 20)


@inlined
def is_over(t, st):  # type: ignore[no-untyped-def]
    return st[S_WINNER] >= 0 or st[S_PLACED] == t[P_TOTAL]


@inlined
def to_move(t, st):  # type: ignore[no-untyped-def]
    """The player to move, or -1 once the game is over."""
    if is_over(t, st):
        return -1
    if st[S_HAND] < 0:
        return 1
    return st[S_PLACED] % 2


@inlined
def placeable(t, st):  # type: ignore[no-untyped-def]
    """Bitboard of the cells the next piece may go on."""
    p = t
    occ = st[S_OCC]
    if st[S_PLACED] == 0:
        return p[P_FIRST] & ~occ
    m = p[P_FULL] & ~occ
    geometry = p[P_GEOMETRY]
    if geometry == GEO_ANY:
        return m
    box = p[P_BOX]
    x0 = max(st[S_MAXX] - box + 1, 0)
    x1 = min(st[S_MINX] + box - 1, p[P_WIDTH] - 1)
    y0 = max(st[S_MAXY] - box + 1, 0)
    y1 = min(st[S_MINY] + box - 1, p[P_HEIGHT] - 1)
    cols = 0
    for x in range(x0, x1 + 1):
        cols |= entry(t, O_COL_MASK, x)
    rows = 0
    for y in range(y0, y1 + 1):
        rows |= entry(t, O_ROW_MASK, y)
    m &= cols & rows
    if geometry == GEO_TOUCH:
        m &= st[S_ADJ]
    return m


@inlined
def rule_holds(t, a, o):  # type: ignore[no-untyped-def]
    """The line rule on the AND ``a`` and the OR ``o`` of four feature words."""
    if t[P_RULE] == RULE_SHARE:
        return a != 0
    return (o & COVER_COLOURS) == COVER_COLOURS or (o & COVER_SIZES) == COVER_SIZES


@inlined
def wins_at(t, board, st, cell, kind):  # type: ignore[no-untyped-def]
    """Whether placing ``kind`` on the empty ``cell`` completes a winning line."""
    occ = st[S_OCC] | (np.int64(1) << cell)
    fk = entry(t, O_FEATURES, kind)
    for j in range(entry(t, O_CELL_NLINES, cell)):
        line = entry(t, O_CELL_LINES, cell * MAX_LINES_PER_CELL + j)
        mask = entry(t, O_LINE_MASK, line)
        if (occ & mask) == mask:
            a = fk
            o = fk
            for i in range(4):
                c = entry(t, O_LINE_CELLS, line * 4 + i)
                if c != cell:
                    v = entry(t, O_FEATURES, board[unsigned(c)])
                    a &= v
                    o |= v
            if rule_holds(t, a, o):
                return True
    return False


@inlined
def winning_cell(t, board, st):  # type: ignore[no-untyped-def]
    """A cell where the piece in hand wins at once, or -1.

    Scans the lines with exactly one empty cell (a few bit operations each)
    rather than every cell.
    """
    hand = st[S_HAND]
    if hand < 0 or st[S_PLACED] < 3:
        return -1
    occ = st[S_OCC]
    m = placeable(t, st)
    fh = entry(t, O_FEATURES, hand)
    for line in range(t[P_LINES]):
        mask = entry(t, O_LINE_MASK, line)
        gap = mask & ~occ
        if gap == 0 or (gap & (gap - 1)) != 0 or (gap & m) == 0:
            continue
        a = fh
        o = fh
        cell = -1
        for i in range(4):
            c = entry(t, O_LINE_CELLS, line * 4 + i)
            kind = board[unsigned(c)]
            if kind >= 0:
                v = entry(t, O_FEATURES, kind)
                a &= v
                o |= v
            else:
                cell = c
        if rule_holds(t, a, o):
            return cell
    return -1


@inlined
def legal_actions(t, board, supply, st, out):  # type: ignore[no-untyped-def]
    """Write the legal actions, in increasing order, to ``out``; return how many."""
    return generate(t, board, supply, st, out, True)


@inlined
def generate(t, board, supply, st, out, check_wins):  # type: ignore[no-untyped-def]
    """``legal_actions``; with ``check_wins`` false the caller knows no placement wins."""
    if is_over(t, st):
        return 0
    n = t[P_CELLS]
    k = t[P_KINDS]
    count = 0
    hand = st[S_HAND]
    if hand < 0:
        for g in range(k):
            if supply[g] > 0:
                out[unsigned(count)] = n * (k + 1) + g
                count += 1
        return count
    gives = 0  # the gives of the first placement, reused (shifted) for the others
    first = 0
    shift = 0
    m = placeable(t, st)
    check = check_wins and st[S_PLACED] >= 3
    for c in range(n):
        if (m >> c) & 1:
            base = c * (k + 1)
            if check and wins_at(t, board, st, c, hand):
                out[unsigned(count)] = base + k
                count += 1
                continue
            if gives == 0:
                first = count
                for g in range(k):
                    if supply[g] > 0:
                        out[unsigned(count)] = base + g
                        count += 1
                gives = count - first
                if gives == 0:  # nothing left to give
                    out[unsigned(count)] = base + k
                    count += 1
                    gives = -1
                else:
                    shift = -base
            elif gives < 0:
                out[unsigned(count)] = base + k
                count += 1
            else:
                for j in range(gives):
                    out[unsigned(count + j)] = out[unsigned(first + j)] + shift + base
                count += gives
    return count


@inlined
def _save(st, hist, action):  # type: ignore[no-untyped-def]
    """Keep the fields and ``action`` in the next row of ``hist`` for ``pop``; one ply deeper."""
    d = st[S_DEPTH]
    for i in range(NUM_FIELDS):
        hist[unsigned(d), i] = st[i]
    hist[unsigned(d), HIST_ACTION] = action
    st[S_DEPTH] = d + 1


@inlined
def push(t, board, supply, st, hist, action):  # type: ignore[no-untyped-def]
    """Play a legal action (no checks), saving what ``pop`` needs."""
    _save(st, hist, action)
    apply(t, board, supply, st, action)


@inlined
def push_quiet(t, board, supply, st, hist, action):  # type: ignore[no-untyped-def]
    """``push`` for a position where no placement wins (the caller checked)."""
    _save(st, hist, action)
    place_and_give(t, board, supply, st, action, False)


@inlined
def apply(t, board, supply, st, action):  # type: ignore[no-untyped-def]
    """Play a legal action (no checks) without saving anything to undo it."""
    place = place_of(t, action)
    won = place < t[P_CELLS] and st[S_PLACED] >= 3 and wins_at(t, board, st, place, st[S_HAND])
    place_and_give(t, board, supply, st, action, won)


@inlined
def place_and_give(t, board, supply, st, action, won):  # type: ignore[no-untyped-def]
    """``apply``, told whether the placement wins."""
    n = t[P_CELLS]
    k = t[P_KINDS]
    place = place_of(t, action)
    give = action - place * (k + 1)
    hand = st[S_HAND]
    if place < n:
        board[unsigned(place)] = hand
        st[S_OCC] |= np.int64(1) << place
        st[S_ADJ] |= entry(t, O_NEIGHBOURS, place)
        x = entry(t, O_CELL_X, place)
        y = entry(t, O_CELL_Y, place)
        st[S_MINX] = min(st[S_MINX], x)
        st[S_MAXX] = max(st[S_MAXX], x)
        st[S_MINY] = min(st[S_MINY], y)
        st[S_MAXY] = max(st[S_MAXY], y)
        st[S_HASH] ^= entry(t, O_ZOBRIST, place * k + hand)
        if won:
            st[S_WINNER] = st[S_PLACED] % 2
        st[S_PLACED] += 1
    st[S_HASH] ^= entry(t, O_ZOBRIST_HAND, hand if hand >= 0 else k)
    if give < k:
        supply[unsigned(give)] -= 1
        st[S_HAND] = give
    else:
        st[S_HAND] = -1
    st[S_HASH] ^= entry(t, O_ZOBRIST_HAND, st[S_HAND] if st[S_HAND] >= 0 else k)


@inlined
def pop(t, board, supply, st, hist):  # type: ignore[no-untyped-def]
    """Take back the last ``push``."""
    n = t[P_CELLS]
    k = t[P_KINDS]
    d = st[S_DEPTH] - 1
    action = hist[unsigned(d), HIST_ACTION]
    place = place_of(t, action)
    give = action - place * (k + 1)
    if give < k:
        supply[unsigned(give)] += 1
    if place < n:
        board[unsigned(place)] = -1
    for i in range(NUM_FIELDS):
        st[i] = hist[unsigned(d), i]


# -- playouts and move counts ------------------------------------------------------------------


@no_refcount
def playout(t, board, supply, st, hist, moves, rs):  # type: ignore[no-untyped-def]
    """Play uniformly random legal moves to the end, undo them; return the winner or -1."""
    start = st[S_DEPTH]
    while True:
        count = legal_actions(t, board, supply, st, moves)
        if count == 0:
            break
        push(t, board, supply, st, hist, moves[rng_below(rs, count)])
    winner = st[S_WINNER]
    while st[S_DEPTH] > start:
        pop(t, board, supply, st, hist)
    return winner


@njit(cache=True)
def playouts(t, board, supply, st, hist, moves, rs, games, results):  # type: ignore[no-untyped-def]
    """Run ``games`` random playouts; ``results`` gets wins of player 0, of player 1, draws.

    The benchmark loop: each game plays on scratch copies of the position with
    ``apply`` (nothing saved per move), as the C reference does.
    """
    _playouts(t, board, supply, st, board.copy(), supply.copy(), st.copy(), moves, rs, games,
              results)


@no_refcount
def _playouts(t, board, supply, st, b, s, x, moves, rs, games, results):  # type: ignore[no-untyped-def]
    """``playouts`` on the scratch arrays ``b, s, x``: compiled without reference counting."""
    for _ in range(games):
        for i in range(board.shape[0]):
            b[i] = board[i]
        for i in range(supply.shape[0]):
            s[i] = supply[i]
        for i in range(st.shape[0]):
            x[i] = st[i]
        while True:
            count = legal_actions(t, b, s, x, moves)
            if count == 0:
                break
            apply(t, b, s, x, moves[rng_below(rs, count)])
        w = x[S_WINNER]
        results[w if w >= 0 else 2] += 1


# perft: the sliding kernels' ``count_leaves``, on a position held as ``(board, supply, st)``
@inlined
def _perft_legal(t, pos, out):  # type: ignore[no-untyped-def]
    return legal_actions(t, pos[0], pos[1], pos[2], out)


@inlined
def _perft_push(t, pos, hist, keys, action):  # type: ignore[no-untyped-def]
    push(t, pos[0], pos[1], pos[2], hist, action)


@inlined
def _perft_pop(t, pos, hist):  # type: ignore[no-untyped-def]
    pop(t, pos[0], pos[1], pos[2], hist)


@njit(cache=True)
def perft(t, board, supply, st, hist, moves, depth):  # type: ignore[no-untyped-def]
    """Legal ply sequences of exactly ``depth`` plies (``moves`` is a ``(depth, A)`` buffer),
    walked without recursion (numba cannot load recursive functions from its cache)."""
    return count_leaves(t, (board, supply, st), hist, hist, moves, depth, _perft_legal,
                        _perft_push, _perft_pop)


@no_refcount
def greedy_playout(t, board, supply, st, hist, buf, rs):  # type: ignore[no-untyped-def]
    """A playout by a cheap greedy policy, undone at the end; returns the winner or -1.

    Each side wins at once when the piece in hand allows it; otherwise it places
    on a random cell and gives a random piece among those that do not let the
    opponent win at once (any piece if none is safe). Stronger than uniform
    playouts at the same order of cost, so MCTS leaves are valued better.

    Every ply's move goes through one ``push`` (tried gives included): each inlined
    ``push`` is compiled again, and four of them were most of this function's cold
    compile.
    """
    n = t[P_CELLS]
    k = t[P_KINDS]
    start = st[S_DEPTH]
    while not is_over(t, st):
        hand = st[S_HAND]
        gives = 0
        for g in range(k):
            if supply[g] > 0:
                buf[n + gives] = g
                gives += 1
        won = False
        trial = False  # a random give, tried until one is safe
        action = 0
        cell = 0
        if hand < 0:
            action = n * (k + 1) + buf[n + rng_below(rs, gives)]
        else:
            cell = winning_cell(t, board, st)
            if cell >= 0:
                action = cell * (k + 1) + k
                won = True
            else:
                m = placeable(t, st)
                cells = 0
                for c in range(n):
                    if (m >> c) & 1:
                        buf[cells] = c
                        cells += 1
                cell = buf[rng_below(rs, cells)]
                if gives == 0:
                    action = cell * (k + 1) + k
                else:
                    trial = True
        while True:
            i = 0
            if trial:
                i = rng_below(rs, gives)
                action = cell * (k + 1) + buf[n + i]
            push(t, board, supply, st, hist, action)
            if not trial or gives == 1 or winning_cell(t, board, st) < 0:
                break
            pop(t, board, supply, st, hist)
            gives -= 1
            buf[n + i] = buf[n + gives]
        if won:
            break
    winner = st[S_WINNER]
    while st[S_DEPTH] > start:
        pop(t, board, supply, st, hist)
    return winner
