"""``kernel.search`` on bitboards, for the rulesets whose lines win by a shared feature bit
on a fixed 4x4 board, one piece of each kind (Quarto).

The same search and scores as ``kernel.search``, on another representation of the
position, with one more way to order moves:

* ``kernel`` keeps, per line, its count of pieces and the AND and OR of their feature
  words, and finds the kinds a placement makes unsafe by reading all ten lines. Here
  each feature bit ``b`` has a cell mask (the cells holding a piece with that bit), and
  one table (``BitTables.win_cells``, 65,536 entries) gives, for any mask, the cells
  that would complete one of its lines. The piece in hand wins when, for one of its
  bits, an empty cell completes that bit's mask; after placing ``kind`` on ``cell``, a
  kind is unsafe to give when it holds a bit whose mask (with the cell, if ``kind``
  holds the bit) an empty cell completes: eight look-ups, no line read.
* The raw key of a position deeper than ``canon_max`` is two words kept up to date as
  the pieces go on: the kind on each cell, 4 bits each, and the occupied cells with the
  hand, tagged so that it never equals a canonical key (``RAW_TAG``). With one piece of
  each kind the supply follows from them. (``kernel`` packs a raw key field by field.)
* **Fewest replies first** (``FEWEST_REPLIES``, a run-time setting; 0 turns it off):
  at nodes with at least that many pieces left, moves are tried in the order of how
  many moves the opponent then has that do not lose at once, fewest first (ties by
  the history of cut-offs), instead of by how many pieces stay safe to give. A move
  leaving the opponent few replies both tends to be good and, when it is, has a small
  subtree to prove it. Measured (docs/solutions.md): from 2 pieces placed, 46% fewer
  nodes.

* **The last three pieces and the reply counts from bit words.** With three pieces left
  the value follows from each empty cell's threat bits and the lines through two or three
  of them, with no piece placed (``three_left``); the reply counts read the masks with the
  placed piece's bits added, and each cell's bits from two transposed 8x8 bit matrices
  (``after_placing``, ``count_replies``). Measured in docs/solutions.md, *Session 12*.

* **The table's move alone first.** A node whose table entry holds a best move tries
  it before finding its other moves: those (each placement's unsafe gives, the reply
  counts, the children's entries) are worked out only if it does not cut
  (``more_moves``), which most such nodes never need. The order of the moves is the
  same (the table's move always came first); only the children's entries are read
  after that move rather than before it.

With that ordering off the search visits the same nodes as ``kernel.search`` wherever
the table never has to replace an entry (the raw keys land in other slots); the tests
compare both, scores always and node counts on small trees, and the scores with the
ordering on. ``Solver.search`` uses this search where it applies (``applies``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from fourfold.games.placement.fast_tables import RULE_SHARE
from fourfold.games.placement.solver.kernel import (
    ABORTED,
    CANON_MAX,
    CHECK_EVERY,
    DEAD_LINES,
    ETC_MAX,
    FEWEST_REPLIES,
    FULL_BOARD,
    HAND,
    INF,
    MOVE_SHIFT,
    NODES,
    OCC,
    PLACED,
    PRUNE,
    TT_SKIP,
    WIN,
    Workspace,
    all_bits,
    available,
    bit_count,
    judge_child,
    look_up,
    node_key,
    out_of_budget,
    remember,
)
from fourfold.games.placement.solver.tables import (
    CELLS,
    P_KINDS,
    P_RULE,
    P_TOTAL,
    P_TOUCH,
    SolverTables,
    board_lines,
)
from fourfold.kernels.bit_ops import low_bit_index
from fourfold.kernels.jit import inlined, no_refcount, no_refcount_nogil
from fourfold.kernels.search import take_best

FEATURE_BITS = 8
# fields of ``BitWork.words``
MASKS = 0  # MASKS + b: the cells holding a piece with feature bit b
AVAIL = 8  # the kinds neither on the board nor in hand
BOARD = 9  # the kind on each occupied cell, 4 bits per cell
REPLIES = 10  # REPLIES + k: scratch, the opponent's replies after a give of kind k
# THREATS + b: scratch, the empty cells completing a line of bit b's mask (``threats``)
THREATS = REPLIES + 16
FRAMES = THREATS + FEATURE_BITS  # per depth, a node's frame (``search``):

# fields of a node's frame, ``s[FRAMES + FRAME * n + field]`` at depth ``n`` (``search``)
F_ALPHA = 0  # its window, narrowed by the table
F_BETA = 1
F_BEST = 2  # the best score so far and its move
F_BEST_MOVE = 3
F_COUNT = 4  # its moves, in ``w.moves[n]``
F_NEXT = 5  # the next of them to search
F_MOVE = 6  # the move being searched
F_HAND = 7  # the piece in hand
F_USE_TT = 8  # whether it is kept in the table, under this key and these maps
F_HI = 9
F_LO = 10
F_BMAP = 11
F_PMAP = 12
F_STAGE = 13  # which of its moves are in ``w.moves[n]``: TT_ONLY or ALL
FRAME = 14
# a node's stages: the table's move alone, then (if it did not cut) all the others
TT_ONLY = 0
ALL = 1
NUM_WORDS = FRAMES + FRAME * (CELLS + 1)
# set in the second word of every raw key: canonical keys keep both words below 2**60
RAW_TAG = np.int64(1) << 61


class BitTables(NamedTuple):
    """What the bitboard search reads besides ``SolverTables``."""

    win_cells: npt.NDArray[np.uint16]  # (65536,) cells completing a line of the mask
    kinds_holding: npt.NDArray[np.int64]  # (256,) the kinds holding one of the bits
    two_lines: npt.NDArray[np.uint16]  # (65536,) the lines holding two cells of the mask
    clear_lines: npt.NDArray[np.uint16]  # (65536,) the lines holding no cell of the mask
    lines_cells: npt.NDArray[np.uint16]  # (1024,) the cells of a set of lines
    pair_line: npt.NDArray[np.uint16]  # (256,) [a * 16 + b] the line through cells a, b


class BitWork(NamedTuple):
    words: npt.NDArray[np.int64]  # (NUM_WORDS,) see the fields above


def applies(t: SolverTables) -> bool:
    """Whether the bitboard search can stand for ``kernel.search`` on this ruleset: lines
    won by a shared bit, a fixed board, one piece of each kind (at most 16). It also
    needs the searches' shortcuts as they are by default (``in_use``)."""
    return (
        int(t.params[P_RULE]) == RULE_SHARE
        and int(t.params[P_TOUCH]) == 0
        and int(t.params[P_KINDS]) <= 16
        and bool(np.all(t.counts == 1))
    )


def in_use(w: Workspace) -> bool:
    """Whether the search's settings are those the bitboard search implements: unsafe
    gives pruned, no dead-line merging (the tests turn each off to compare)."""
    return int(w.st[PRUNE]) == 1 and int(w.st[DEAD_LINES]) == 0


def build_bit_tables(t: SolverTables) -> BitTables:
    """The completing cells of every cell mask, the kinds holding any of a set of
    feature bits, and the line through each two cells."""
    masks = np.arange(1 << CELLS, dtype=np.int64)
    win = np.zeros(1 << CELLS, dtype=np.int64)
    two = np.zeros(1 << CELLS, dtype=np.int64)
    clear = np.zeros(1 << CELLS, dtype=np.int64)
    line_masks = [sum(1 << c for c in line) for line in board_lines()]
    for i, line_mask in enumerate(line_masks):
        inside = masks & line_mask
        counts = np.zeros(1 << CELLS, dtype=np.int64)
        for c in range(CELLS):
            counts += (inside >> c) & 1
        win |= np.where(counts == 3, line_mask & ~inside, 0)
        two |= np.where(counts == 2, 1 << i, 0)
        clear |= np.where(counts == 0, 1 << i, 0)
    cells = [0] * (1 << len(line_masks))
    for lines in range(1 << len(line_masks)):
        for i, line_mask in enumerate(line_masks):
            if (lines >> i) & 1:
                cells[lines] |= line_mask
    holding = [sum(1 << k for k, f in enumerate(t.features) if int(f) & word)
               for word in range(1 << FEATURE_BITS)]
    pair_line = np.zeros(CELLS * CELLS, dtype=np.uint16)
    for line_mask in line_masks:
        for a in range(CELLS):
            for b in range(CELLS):
                if a != b and (line_mask >> a) & 1 and (line_mask >> b) & 1:
                    pair_line[a * CELLS + b] = line_mask
    return BitTables(win.astype(np.uint16), np.array(holding, dtype=np.int64),
                     two.astype(np.uint16), clear.astype(np.uint16),
                     np.array(cells, dtype=np.uint16), pair_line)


def new_bit_work() -> BitWork:
    """The bitboard words of one solver (filled from its workspace by ``root_search``)."""
    return BitWork(np.zeros(NUM_WORDS, dtype=np.int64))


@inlined
def load_words(t, w, s):
    """The words of the position in ``w`` (its board, supply and hand)."""
    for b in range(FEATURE_BITS):
        s[MASKS + b] = 0
    s[BOARD] = 0
    for c in range(CELLS):
        kind = w.board[c]
        if kind >= 0:
            f = t.features[kind]
            for b in range(FEATURE_BITS):
                if (f >> b) & 1:
                    s[MASKS + b] |= 1 << c
            s[BOARD] |= kind << (4 * c)
    s[AVAIL] = available(t, w)


@inlined
def bit_place(t, w, s, cell, kind):
    f = t.features[kind]
    bit = np.int64(1) << cell
    for b in range(FEATURE_BITS):
        s[MASKS + b] |= ((f >> b) & 1) << cell
    s[BOARD] |= kind << (4 * cell)
    w.board[cell] = kind
    w.st[OCC] |= bit
    w.st[PLACED] += 1


@inlined
def bit_unplace(t, w, s, cell):
    f = t.features[w.board[cell]]
    bit = np.int64(1) << cell
    for b in range(FEATURE_BITS):
        s[MASKS + b] &= ~(((f >> b) & 1) << cell)
    s[BOARD] &= ~(np.int64(15) << (4 * cell))
    w.board[cell] = -1
    w.st[OCC] &= ~bit
    w.st[PLACED] -= 1


@inlined
def give(w, s, kind):
    """Hand ``kind`` (from the supply) to the side to move next."""
    w.st[HAND] = kind
    w.supply[kind] -= 1
    s[AVAIL] ^= np.int64(1) << kind


@inlined
def take_back(w, s, kind, hand):
    """Undo ``give(w, s, kind)``; ``hand`` was in hand before."""
    s[AVAIL] ^= np.int64(1) << kind
    w.supply[kind] += 1
    w.st[HAND] = hand


@inlined
def open_bits(bt, s, rest, cell, holding):
    """The feature bits whose mask, with ``cell`` added for the bits of ``holding`` (a
    piece there holding them), one cell of ``rest`` would complete to a line."""
    out = np.int64(0)
    for b in range(FEATURE_BITS):
        mask = s[MASKS + b] | (((holding >> b) & 1) << cell)
        out |= np.int64((bt.win_cells[mask] & rest) != 0) << b
    return out


@inlined
def threats(bt, s, at, empty):
    """Keep in ``s[at + b]`` the empty cells completing a line of bit ``b``'s mask, and
    return the bits some empty cell completes (as ``open_bits(bt, s, empty, 0, 0)``)."""
    out = np.int64(0)
    for b in range(FEATURE_BITS):
        hit = bt.win_cells[s[MASKS + b]] & empty
        s[at + b] = hit
        out |= np.int64(hit != 0) << b
    return out


@inlined
def open_bits_kept(bt, s, at, rest, cell, holding):
    """``open_bits`` where ``s[at + b]`` holds ``threats`` of a superset of ``rest``: the
    bits ``holding`` lacks need no look-up. Without a branch on each bit (which bits a
    piece holds is as good as random, so such a branch was mispredicted half the time):
    every bit is read from the threat words, then the bits held are looked up in turn."""
    out = np.int64(0)
    for b in range(FEATURE_BITS):
        out |= np.int64((s[at + b] & rest) != 0) << b
    out &= ~holding
    add = np.int64(1) << cell
    m = holding
    while m:
        b = low_bit_index(m)
        m &= m - 1
        out |= np.int64((bt.win_cells[s[MASKS + b] | add] & rest) != 0) << b
    return out


@inlined
def unsafe_after(t, bt, s, empty, cell, kind):
    """The kinds that would complete a winning line if given once ``kind`` is on the
    empty ``cell`` (where it does not win), without placing it."""
    rest = empty & ~(np.int64(1) << cell)
    return bt.kinds_holding[open_bits(bt, s, rest, cell, t.features[kind])]


@inlined
def unsafe_after_kept(t, bt, s, empty, cell, kind):
    """``unsafe_after`` once ``threats(bt, s, THREATS, empty)`` has run."""
    rest = empty & ~(np.int64(1) << cell)
    return bt.kinds_holding[open_bits_kept(bt, s, THREATS, rest, cell, t.features[kind])]


@inlined
def two_left(t, bt, w, s, n, hand, last):
    """``kernel.two_left``: a draw if ``hand`` can go where the last piece does not win."""
    empty = FULL_BOARD & ~w.st[OCC]
    out = -(WIN - (n + 2))
    cells = empty
    while cells:
        c = low_bit_index(cells)
        cells &= cells - 1
        if (last & ~unsafe_after(t, bt, s, empty, c, hand)) != 0:
            out = 0
            break
    return out


@inlined
def cell_threats(s, cell):
    """The feature bits ``b`` whose threat word ``s[THREATS + b]`` holds ``cell``: a piece
    holding one of them placed there completes a line whose other three cells are
    filled."""
    out = np.int64(0)
    for b in range(FEATURE_BITS):
        out |= ((s[THREATS + b] >> cell) & 1) << b
    return out


@inlined
def pair_bits(t, bt, s, empty, a, b):
    """``(shared, lone)`` for the empty cells ``a`` and ``b``: when the line through them
    has its other two cells filled, the feature bits both those pieces hold (else 0);
    when it holds the third empty cell and one piece, that piece's bits (else 0)."""
    line = np.int64(bt.pair_line[a * CELLS + b])
    if line == 0:
        return np.int64(0), np.int64(0)
    other = line & ~((np.int64(1) << a) | (np.int64(1) << b))
    c1 = low_bit_index(other)
    c2 = low_bit_index(other & (other - 1))
    f1 = t.features[(s[BOARD] >> (4 * c1)) & 15]
    f2 = t.features[(s[BOARD] >> (4 * c2)) & 15]
    if (empty >> c1) & 1:
        return np.int64(0), f2
    if (empty >> c2) & 1:
        return np.int64(0), f1
    return f1 & f2, np.int64(0)


@inlined
def three_left(t, bt, w, s, n, hand):
    """``kernel.three_left`` worked out from bit words, without placing a piece
    (``threats(bt, s, THREATS, empty)`` has run; ``hand`` wins nowhere).

    With three cells empty, whether a piece placed on one of them completes a line
    depends only on which of the other two are filled, and by which pieces: the lines
    through a cell ``e`` whose other three cells are filled give the bits ``T[e]``
    (``cell_threats``); the line through two empty cells ``e``, ``d`` whose other two
    are filled gives the bits ``P[e, d]`` both those pieces hold; a line through all
    three, the bits ``Q`` of its one piece (``pair_bits``). So once ``hand`` is on ``c``
    and ``g`` on ``d``, the last piece ``L`` wins on the last cell ``e`` when it holds a
    bit of ``T[e] | P[c, e] & hand | P[d, e] & g | Q & hand & g``, and ``g`` is unsafe to
    give when it would win on ``d`` or ``e`` with ``hand`` on ``c``. The side to move wins
    (on the last piece) when some placement and safe give leave ``L`` winning wherever
    ``g`` goes; it draws when some placement has a safe give, and else loses."""
    avail = s[AVAIL]
    empty = FULL_BOARD & ~w.st[OCC]
    e0 = low_bit_index(empty)
    rest = empty & (empty - 1)
    e1 = low_bit_index(rest)
    e2 = low_bit_index(rest & (rest - 1))
    t0 = cell_threats(s, e0)
    t1 = cell_threats(s, e1)
    t2 = cell_threats(s, e2)
    p01, lone = pair_bits(t, bt, s, empty, e0, e1)
    p02, _ = pair_bits(t, bt, s, empty, e0, e2)
    p12, _ = pair_bits(t, bt, s, empty, e1, e2)
    fa = t.features[low_bit_index(avail)]
    fb = t.features[low_bit_index(avail & (avail - 1))]
    fh = t.features[hand]
    best = -INF
    for i in range(3):
        # ``hand`` on cell i; d and e are the other two cells
        if i == 0:
            td, te, pcd, pce, pde = t1, t2, p01, p02, p12
        elif i == 1:
            td, te, pcd, pce, pde = t0, t2, p01, p12, p02
        else:
            td, te, pcd, pce, pde = t0, t1, p02, p12, p01
        on_d = td | (pcd & fh)  # the bits completing a line on d once hand is on c
        on_e = te | (pce & fh)
        safe_a = (fa & (on_d | on_e)) == 0
        safe_b = (fb & (on_d | on_e)) == 0
        if not safe_a and not safe_b:
            best = max(best, -(WIN - (n + 2)))
            continue
        best = max(best, 0)
        if safe_a:  # give a, the last piece is b
            extra = (pde & fa) | (lone & fh & fa)
            if (fb & (on_e | extra)) != 0 and (fb & (on_d | extra)) != 0:
                return WIN - (n + 3)
        if safe_b:
            extra = (pde & fb) | (lone & fh & fb)
            if (fa & (on_e | extra)) != 0 and (fa & (on_d | extra)) != 0:
                return WIN - (n + 3)
    return best


@no_refcount
def last_pieces(t, bt, w, s, n, hand):
    """``kernel.last_pieces`` on bitboards (two or three pieces left, ``hand`` wins
    nowhere; ``threats(bt, s, THREATS, empty)`` has run)."""
    if n + 2 == t.params[P_TOTAL]:
        return two_left(t, bt, w, s, n, hand, s[AVAIL])
    return three_left(t, bt, w, s, n, hand)


@inlined
def transpose8(x):
    """The 8x8 bit matrix ``x`` (byte ``i`` its row ``i``, bit ``j`` of a byte its column
    ``j``) transposed: byte ``j`` of the result holds column ``j``."""
    t = (x ^ (x >> 7)) & np.int64(0x00AA00AA00AA00AA)
    x = x ^ t ^ (t << 7)
    t = (x ^ (x >> 14)) & np.int64(0x0000CCCC0000CCCC)
    x = x ^ t ^ (t << 14)
    t = (x ^ (x >> 28)) & np.int64(0x00000000F0F0F0F0)
    return x ^ t ^ (t << 28)


@inlined
def after_placing(bt, w, s, cell, holding):
    """What ``count_replies`` reads of the position once a piece holding the feature bits
    ``holding`` is on the empty ``cell`` (not placed: its bits are added to the masks as
    they are read): ``(empty, opened, single_lo, single_hi, pair_lo, pair_hi)``, the empty
    cells, the bits some empty cell then completes (the kinds holding one are unsafe to
    give, as ``unsafe_after`` finds), and for each empty cell, as the bytes of two 8x8 bit
    matrices (cells 0-7 and 8-15, ``transpose8``), the bits whose one threat is that cell
    and the bits for which the cell lies on a line holding two cells of the bit's mask and
    no piece lacking it."""
    add = np.int64(1) << cell
    empty = FULL_BOARD & ~w.st[OCC] & ~add
    occupied = FULL_BOARD & ~empty
    opened = np.int64(0)
    single_lo = np.int64(0)
    single_hi = np.int64(0)
    pair_lo = np.int64(0)
    pair_hi = np.int64(0)
    for b in range(FEATURE_BITS):
        mask = s[MASKS + b] | (((holding >> b) & 1) << cell)
        hit = bt.win_cells[mask] & empty
        lines = bt.two_lines[mask] & bt.clear_lines[occupied & ~mask]
        pair = bt.lines_cells[lines] & empty
        opened |= np.int64(hit != 0) << b
        single = hit & -np.int64((hit & (hit - 1)) == 0)
        single_lo |= (single & 255) << (8 * b)
        single_hi |= (single >> 8) << (8 * b)
        pair_lo |= (pair & 255) << (8 * b)
        pair_hi |= (pair >> 8) << (8 * b)
    return (empty, opened, transpose8(single_lo), transpose8(single_hi), transpose8(pair_lo),
            transpose8(pair_hi))


@inlined
def count_replies(t, bt, s, after, safe, avail):
    """``s[REPLIES + g]`` for each kind ``g`` of ``safe``: the moves the opponent would
    have that do not lose at once (a placement and a safe give), once ``g`` is given from
    ``avail`` in the position ``after`` describes (``after_placing``). For each empty cell:
    ``t0`` the bits a piece lacking the bit there would leave completable (a bit with a
    threat other than that cell alone), ``t1`` those a piece holding it would."""
    empty, opened, single_lo, single_hi, pair_lo, pair_hi = after
    m = safe
    while m:
        s[REPLIES + low_bit_index(m)] = 0
        m &= m - 1
    cells = empty
    while cells:
        c = low_bit_index(cells)
        cells &= cells - 1
        shift = 8 * (c & 7)
        if c < 8:
            t0 = opened & ~((single_lo >> shift) & 255)
            t1 = t0 | ((pair_lo >> shift) & 255)
        else:
            t0 = opened & ~((single_hi >> shift) & 255)
            t1 = t0 | ((pair_hi >> shift) & 255)
        m = safe
        while m:
            low = m & -m
            m ^= low
            g = low_bit_index(low)
            f = t.features[g]
            s[REPLIES + g] += bit_count(avail & ~low & ~bt.kinds_holding[(t1 & f) | (t0 & ~f)])


@inlined
def logical_shift(x, k):
    """``x >> k`` with zeros shifted in (numba's ``>>`` on int64 copies the sign bit)."""
    return (x >> k) & ((np.int64(1) << (64 - k)) - 1)


@inlined
def raw_key(w, s):
    """The position's exact key: the kinds on the board, mixed by an invertible map (so
    that the table's index, which reads mostly low bits, depends on every cell), then
    the occupied cells and the hand."""
    x = s[BOARD]
    x ^= logical_shift(x, 31)
    x *= np.int64(-7723592293110705685)  # 0x94D049BB133111EB, odd: invertible
    x ^= logical_shift(x, 29)
    return x, RAW_TAG | (w.st[OCC] << 4) | w.st[HAND]


@no_refcount
def look_up_children(t, bt, w, s, n, hand, count, alpha, beta):
    """``kernel.look_up_children`` on bitboards."""
    moves = w.moves[n]
    order = w.order[n]
    bits = all_bits(t)
    for a in range(count):
        mv = moves[a]
        c = mv >> MOVE_SHIFT
        g = mv & 31
        bit_place(t, w, s, c, hand)
        give(w, s, g)
        chi, clo, _, _ = node_key(t, w, np.int64(0), bits)
        take_back(w, s, g, hand)
        bit_unplace(t, w, s, c)
        cut, low = judge_child(w, order, a, chi, clo, alpha, beta)
        if cut:
            return True, low, mv
    return False, 0, -1


# what ``search``'s loop does next
ENTER = 0  # enter the node at the current depth with the window (alpha, beta)
NEXT = 1  # search the next move of the node at the current depth
RETURN = 2  # the node at the current depth scored ``score``: back to its parent


@inlined
def is_safe(t, bt, w, s, empty, hand, mv):
    """Whether ``mv`` places ``hand`` on an empty cell and gives a kind from the supply
    that does not then win at once (``threats(bt, s, THREATS, empty)`` has run)."""
    c = mv >> MOVE_SHIFT
    g = mv & 31
    if not (empty >> c) & 1 or not (s[AVAIL] >> g) & 1:
        return False
    return (unsafe_after_kept(t, bt, s, empty, c, hand) >> g) & 1 == 0


@inlined
def all_moves(t, bt, w, s, n, hand, skip):
    """Put the safe moves of the node at depth ``n`` but ``skip`` in ``w.moves[n]``, each
    with its order in ``w.order[n]``; return their count and the best score and move found
    without searching (a loss in two plies where every give from a cell loses), -INF if
    none. ``threats(bt, s, THREATS, empty)`` has run."""
    st = w.st
    total = t.params[P_TOTAL]
    empty = FULL_BOARD & ~st[OCC]
    avail = s[AVAIL]
    count = np.int64(0)  # not a literal: one compile of look_up_children
    best = -INF
    best_move = -1
    moves = w.moves[n]
    order = w.order[n]
    fewest = st[FEWEST_REPLIES] > 0 and total - n >= st[FEWEST_REPLIES]
    cells = empty
    while cells:
        c = low_bit_index(cells)
        cells &= cells - 1
        if fewest:
            after = after_placing(bt, w, s, c, t.features[hand])
            safe = avail & ~bt.kinds_holding[after[1]]
        else:
            safe = avail & ~unsafe_after_kept(t, bt, s, empty, c, hand)
        if safe == 0:
            # every piece we could give wins for the opponent on the next ply
            score = -(WIN - (n + 2))
            if score > best:
                best = score
                best_move = (c << MOVE_SHIFT) | low_bit_index(avail)
            continue
        if fewest:
            count_replies(t, bt, s, after, safe, avail)
        left = bit_count(safe)
        m = safe
        while m:
            low = m & -m
            m ^= low
            g = low_bit_index(low)
            mv = (c << MOVE_SHIFT) | g
            if mv == skip:
                continue
            moves[count] = mv
            if fewest:
                order[count] = ((256 - s[REPLIES + g]) << 32) + w.history[mv]
            else:
                order[count] = ((20 - left) << 32) + w.history[mv]
            count += 1
    return count, best, best_move


@inlined
def children_cut(t, bt, w, s, n, hand, count, best, best_move, alpha, beta):
    """Enhanced transposition cut-offs: when a child's stored bounds already refute the
    node, ``(0, its score, its move)``; else the moves as they were."""
    st = w.st
    total = t.params[P_TOTAL]
    if count > 1 and n < st[ETC_MAX] and n + 1 <= st[CANON_MAX] and total - (n + 1) > TT_SKIP:
        cut, low, mv = look_up_children(t, bt, w, s, n, hand, count, alpha, beta)
        if cut:
            return 0, low, mv
    return count, best, best_move


@no_refcount
def more_moves(t, bt, w, s, n):
    """The table's move of the node at depth ``n`` did not cut (a cut-off ends the node
    before this): its other moves, found, ordered and checked against their children's
    entries as ``enter`` does for a node without a stored move; the frame's count, best
    and stage updated."""
    at = FRAMES + FRAME * n
    s[at + F_NEXT] = 0
    s[at + F_STAGE] = ALL
    hand = s[at + F_HAND]
    # the threat words are scratch that the table move's subtree wrote over
    threats(bt, s, THREATS, FULL_BOARD & ~w.st[OCC])
    count, best, best_move = all_moves(t, bt, w, s, n, hand, s[at + F_MOVE])
    if best > s[at + F_BEST]:
        s[at + F_BEST] = best
        s[at + F_BEST_MOVE] = best_move
    if s[at + F_BEST] >= s[at + F_BETA]:
        count = 0
    alpha = max(s[at + F_ALPHA], s[at + F_BEST])
    count, best, best_move = children_cut(t, bt, w, s, n, hand, count, s[at + F_BEST],
                                          s[at + F_BEST_MOVE], alpha, s[at + F_BETA])
    s[at + F_BEST] = best
    s[at + F_BEST_MOVE] = best_move
    s[at + F_COUNT] = count


@inlined
def enter(t, bt, w, s, alpha, beta):
    """Enter the node at depth ``st[PLACED]`` in the window ``(alpha, beta)``: ``(RETURN,
    score)`` when it is decided without searching a move, else ``(NEXT, 0)`` with its
    frame and ordered moves ready."""
    st = w.st
    st[NODES] += 1
    if st[ABORTED] == 1:
        return RETURN, 0
    if (st[NODES] & (CHECK_EVERY - 1)) == 0 and out_of_budget(w):
        st[ABORTED] = 1
        return RETURN, 0
    n = st[PLACED]
    hand = st[HAND]
    total = t.params[P_TOTAL]
    empty = FULL_BOARD & ~st[OCC]
    if t.features[hand] & threats(bt, s, THREATS, empty):
        return RETURN, WIN - (n + 1)
    if n + 1 == total:
        return RETURN, 0
    if n + 3 >= total:
        return RETURN, last_pieces(t, bt, w, s, n, hand)
    ceiling = WIN - (n + 3) if n + 3 <= total else 0
    floor = -(WIN - (n + 2))
    if ceiling <= alpha:
        return RETURN, ceiling
    if floor >= beta:
        return RETURN, floor

    use_tt = total - n > TT_SKIP
    bmap = 0
    pmap = 0
    hi = np.int64(0)
    lo = np.int64(0)
    if n <= st[CANON_MAX]:
        hi, lo, bmap, pmap = node_key(t, w, np.int64(0), all_bits(t))
    elif use_tt:
        hi, lo = raw_key(w, s)
    decided, known, alpha, beta, tt_first = look_up(t, w, use_tt, hi, lo, bmap, pmap,
                                                    alpha, beta)
    if decided:
        return RETURN, known

    best = -INF
    best_move = -1
    if tt_first >= 0 and is_safe(t, bt, w, s, empty, hand, tt_first):
        # the table's move alone first: the rest are found and ordered only if it does not
        # cut (``more_moves``), which most nodes with a stored move never need
        w.moves[n][0] = tt_first
        count = 1
        stage = TT_ONLY
    else:
        count, best, best_move = all_moves(t, bt, w, s, n, hand, -1)
        stage = ALL
        if best >= beta:
            count = 0
        count, best, best_move = children_cut(t, bt, w, s, n, hand, count, best, best_move,
                                              alpha, beta)
    at = FRAMES + FRAME * n
    s[at + F_ALPHA] = alpha
    s[at + F_BETA] = beta
    s[at + F_BEST] = best
    s[at + F_BEST_MOVE] = best_move
    s[at + F_COUNT] = count
    s[at + F_NEXT] = 0
    s[at + F_HAND] = hand
    s[at + F_USE_TT] = use_tt
    s[at + F_HI] = hi
    s[at + F_LO] = lo
    s[at + F_BMAP] = bmap
    s[at + F_PMAP] = pmap
    s[at + F_STAGE] = stage
    return NEXT, 0


@inlined
def in_line_score(t, bt, w, s, n, g):
    """The score of the child with three pieces left that giving ``g`` at depth ``n`` led
    to (``enter`` and ``last_pieces`` there, without the call)."""
    st = w.st
    st[NODES] += 1
    if (st[NODES] & (CHECK_EVERY - 1)) == 0 and out_of_budget(w):
        st[ABORTED] = 1
        return 0
    if t.features[g] & threats(bt, s, THREATS, FULL_BOARD & ~st[OCC]):
        return WIN - (n + 2)
    return three_left(t, bt, w, s, n + 1, g)


@no_refcount
def search(t, bt, w, s, alpha, beta):
    """``kernel.search`` on bitboards: the same score (and, with ``FEWEST_REPLIES`` off,
    the same order of moves). A loop over the nodes of the path, each with its frame in
    ``s``, rather than a recursive call per node (a call copies every array argument)."""
    st = w.st
    root = st[PLACED]
    total = t.params[P_TOTAL]
    action, score = enter(t, bt, w, s, alpha, beta)
    while True:
        n = st[PLACED]
        at = FRAMES + FRAME * n
        if action == NEXT:
            a = s[at + F_NEXT]
            if a < s[at + F_COUNT]:
                s[at + F_NEXT] = a + 1
                mv = take_best(w.moves[n], w.order[n], a, s[at + F_COUNT])
                s[at + F_MOVE] = mv
                c = mv >> MOVE_SHIFT
                g = mv & 31
                hand = s[at + F_HAND]
                bit_place(t, w, s, c, hand)
                give(w, s, g)
                if n + 4 != total:
                    best = max(s[at + F_ALPHA], s[at + F_BEST])
                    action, score = enter(t, bt, w, s, -s[at + F_BETA], -best)
                    continue
                # the child has three pieces left: scored here, then back at this node
                score = -in_line_score(t, bt, w, s, n, g)
                take_back(w, s, g, hand)
                bit_unplace(t, w, s, c)
            elif s[at + F_STAGE] == TT_ONLY:
                more_moves(t, bt, w, s, n)
                continue
            else:
                score = s[at + F_BEST]
                remember(t, w, s[at + F_USE_TT] == 1, s[at + F_HI], s[at + F_LO], score,
                         s[at + F_BEST_MOVE], s[at + F_ALPHA], s[at + F_BETA],
                         s[at + F_BMAP], s[at + F_PMAP], total - n)
                action = RETURN
                if n == root:
                    return score
                continue
        else:  # RETURN: the node at depth n scored ``score``; undo its parent's move
            if n == root:
                return score
            n -= 1
            at = FRAMES + FRAME * n
            mv = s[at + F_MOVE]
            take_back(w, s, mv & 31, s[at + F_HAND])
            bit_unplace(t, w, s, mv >> MOVE_SHIFT)
            score = -score
        # the parent at depth n has the score of its move ``s[at + F_MOVE]``
        if st[ABORTED] == 1:
            score = 0
            action = RETURN
            continue
        action = NEXT
        if score > s[at + F_BEST]:
            mv = s[at + F_MOVE]
            s[at + F_BEST] = score
            s[at + F_BEST_MOVE] = mv
            if score >= s[at + F_BETA]:
                w.history[mv] += 1 << (total - n)
                s[at + F_NEXT] = s[at + F_COUNT]  # a cut-off: no more moves
                s[at + F_STAGE] = ALL


@no_refcount_nogil
def root_search(t, bt, w, s, alpha, beta):
    """``search`` from the position loaded into ``w`` (its words are computed first)."""
    load_words(t, w, s)
    return search(t, bt, w, s, alpha, beta)



@no_refcount
def first_move(t, bt, w, s, alpha, beta):
    """The move ``search`` would try first at the position loaded into ``w``, searched in
    ``(alpha, beta)`` with the table and history as they are; -1 when the node is
    decided before a move is tried (by the rules, the table or its children's entries)."""
    load_words(t, w, s)
    action, _ = enter(t, bt, w, s, alpha, beta)
    if action == RETURN:
        return -1
    n = w.st[PLACED]
    count = s[FRAMES + FRAME * n + F_COUNT]
    if count == 0:
        return -1
    return take_best(w.moves[n], w.order[n], 0, count)
