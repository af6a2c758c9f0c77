"""The compiled exact search on a 4x4 board: negamax alpha-beta with a transposition table.

A node is a position in which the side to move holds a piece (``hand``) and
must place it, then give the opponent one of the remaining kinds. Scores are
from the side to move and say how the game ends under perfect play:
``WIN - n`` for a win on the placement that puts the ``n``-th piece on the
board, ``-(WIN - n)`` for a loss there, ``0`` for a draw. The winner wants the
game short and the loser long, so the best score is the exact distance too;
because ``n`` counts pieces on the board, not plies from the root, a score
means the same from every root and goes into the table unchanged.

What makes it fast:

* a side holding a piece that completes a line wins at once, so every node
  first looks at the lines holding three pieces;
* a give that lets the opponent win at once is never searched (a piece is
  *unsafe* when it completes some three-piece line: a table gives the unsafe
  kinds of a line from its AND or OR word, and ``unsafe_after`` finds them for
  each placement without making it); a placement after which
  every remaining kind is unsafe loses on the next ply, and a node where that
  holds for every placement is lost. ``prune=False`` searches those gives too,
  which the tests use to check that the shortcut changes no value;
* dead lines (``DEAD_LINES``, on for same-colour-or-size): a line is *dead*
  when no choice of the pieces off the board could make it a winning line
  (``live_lines``), a cell when every line through it is. Which piece is on a
  dead cell, and which dead cells are filled, no longer matters, so keys leave
  out their kinds (the supply says which pieces are left) and placements try
  one empty dead cell. Only the feature bits some live line can still be won
  by matter (pieces only leave the pool, so a bit that stops mattering never
  matters again): kinds equal on them are given only once (``distinct_kinds``)
  and keyed as one class. A position with no live line is a draw;
* the transposition table keys shallow positions (up to ``canon_max`` pieces)
  by their canonical form under all board and piece symmetries
  (``canonical_key``) and deeper ones by their exact packed form. Keys hold
  the whole position (board, hand and supply; dead cells and classes as
  above), so a hit is never a collision. Each index has two slots in adjacent rows of one array:
  the first keeps the entry with fewer pieces placed (the larger subtree), the
  second always takes the new one. Positions with at most ``TT_SKIP`` pieces
  left are searched again rather than looked up;
* the small helpers are inlined into the recursive search (a call would copy
  both tuples of arrays), which runs without reference counting;
* moves: the table's best move first, then placements that leave the opponent
  fewest safe pieces, ties broken by a history of earlier cut-offs;
* enhanced transposition cut-offs: a node with fewer than ``ETC_MAX`` pieces placed
  first looks up every child in the table. A child whose stored bound already
  refutes it (a fail-high here) ends the node without a search; the others are
  ordered by what the table says of them: children known to be at least as good as
  ``alpha`` first, children known to fail low last (measured: at 5-7 pieces placed
  the move that cut off came 3-6 moves down the list before; docs/solutions.md);
* two pieces left: the side to move draws if it can place its piece so that the
  last piece does not win, and loses otherwise, without a search of the last ply;
  three pieces left: each placement and safe give is scored by that rule, without a
  node for the opponent's reply; and a node with four pieces left scores each child
  (three left) in line, without calling ``search`` (the same nodes are counted);
* compile time: the canonical key, the children's look-ups and the scoring of the last
  pieces are functions of their own (``node_key``, ``look_up_children``,
  ``last_pieces``), called at few nodes, rather than copies inlined into ``search``
  (numba's cold compile for a first solve: 85.7 CPU s with the copies, 53.8 without;
  docs/solutions.md).

Everything lives in preallocated arrays (``Workspace``); nothing is allocated
per node. The search stops at a node limit, a deadline or Ctrl-C, sets ``ABORTED``
and unwinds; nothing it computed after that is stored, and the caller discards it.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, objmode

from fourfold.games.placement.fast_tables import COVER_COLOURS, RULE_SHARE
from fourfold.games.placement.solver.tables import (
    CELLS,
    P_BOARD_MAPS,
    P_FEATURE_BITS,
    P_KINDS,
    P_RULE,
    P_TOTAL,
    P_TOUCH,
)
from fourfold.kernels.bit_ops import low_bit_index, popcount
from fourfold.kernels.jit import inlined, no_refcount, no_refcount_nogil
from fourfold.kernels.search import take_best

WIN = 32  # a win when the n-th piece is placed scores WIN - n
# the layout of keys and table entries; saved tables (``table_file``) record it, so
# change it whenever keys or entries change
KEY_FORMAT = 4
INF = 100
FULL_BOARD = (1 << CELLS) - 1
NUM_LINES = 10
MOVE_SHIFT = 5  # a move is cell << MOVE_SHIFT | give
MAX_MOVES = 16 * 16

# fields of ``Workspace.st``
OCC = 0
HAND = 1
PLACED = 2
NODES = 3
NODE_LIMIT = 4
ABORTED = 5
PRUNE = 6
CANON_MAX = 7
HAS_DEADLINE = 8
DEAD_LINES = 9
INTERRUPTED = 10  # set by the SIGINT handler ``deferred_interrupt`` installs
ETC_MAX = 11  # nodes with fewer pieces placed look their children up first (``search``)
# nodes with at least this many pieces left order their moves by the opponent's replies
# (``bitboard.search`` only; 0: never)
FEWEST_REPLIES = 12
NUM_FIELDS = 13

CHECK_EVERY = 1 << 14  # nodes between limit checks
# positions with at most this many pieces left to place skip the table: their
# subtrees cost less to search again than a table access (measured on Quarto)
TT_SKIP = 5
# popcount of a 4-bit word
POP4 = np.array([bin(i).count("1") for i in range(16)], dtype=np.int64)

# columns of ``Workspace.tt``: one row per entry, so an entry (and its index's other
# slot) is a single memory access. The data word packs, 8 or 16 bits each and offset
# to be non-negative: the lower bound, the upper bound, the best move and the work
# (pieces left to place when stored, the replacement priority). The key words are kept
# XOR the data word (``store``, ``find``).
TT_HI = 0
TT_LO = 1
TT_DATA = 2
EMPTY_DATA = (128 - INF) | ((INF + 128) << 8)  # bounds -INF and INF, no move, work -1


class Workspace(NamedTuple):
    """The position being searched, the search's scratch space and its table."""

    board: npt.NDArray[np.int64]  # kind on each cell, -1 if empty
    supply: npt.NDArray[np.int64]  # copies of each kind neither placed nor in hand
    line_count: npt.NDArray[np.int64]  # pieces on each line
    line_and: npt.NDArray[np.int64]  # AND of their feature words
    line_or: npt.NDArray[np.int64]  # OR of their feature words
    pool: npt.NDArray[np.int64]  # (8,) pieces off the board (hand and supply) with each feature bit
    class_count: npt.NDArray[np.int64]  # (kinds,) scratch for the key: supply per class
    saved: npt.NDArray[np.int64]  # (17, 3, 2) line words before each placement
    st: npt.NDArray[np.int64]  # scalars, see the field names above
    deadline: npt.NDArray[np.float64]  # (1,) perf_counter time to stop at
    moves: npt.NDArray[np.int64]  # (17, MAX_MOVES) move lists per depth
    order: npt.NDArray[np.int64]  # (17, MAX_MOVES) their ordering keys
    history: npt.NDArray[np.int64]  # (16 << MOVE_SHIFT,) cut-off counts per move
    images: npt.NDArray[np.int64]  # (32,) occupancy images under each board map
    tt: npt.NDArray[np.int64]  # (entries, 3): key hi, key lo (each XOR data), packed data


def new_workspace(kinds: int, table_bits: int,
                  table: npt.NDArray[np.int64] | None = None) -> Workspace:
    """Arrays for one solver; the table has ``2**table_bits`` entries of 24 bytes (``table``,
    if given, is used as it is: one shared with another process, ``paired``)."""
    w = Workspace(
        board=np.full(CELLS, -1, dtype=np.int64),
        supply=np.zeros(kinds, dtype=np.int64),
        line_count=np.zeros(NUM_LINES, dtype=np.int64),
        line_and=np.zeros(NUM_LINES, dtype=np.int64),
        line_or=np.zeros(NUM_LINES, dtype=np.int64),
        pool=np.zeros(8, dtype=np.int64),
        class_count=np.zeros(kinds, dtype=np.int64),
        saved=np.zeros((CELLS + 1, 3, 2), dtype=np.int64),
        st=np.zeros(NUM_FIELDS, dtype=np.int64),
        deadline=np.zeros(1, dtype=np.float64),
        moves=np.zeros((CELLS + 1, MAX_MOVES), dtype=np.int64),
        order=np.zeros((CELLS + 1, MAX_MOVES), dtype=np.int64),
        history=np.zeros(CELLS << MOVE_SHIFT, dtype=np.int64),
        images=np.zeros(32, dtype=np.int64),
        tt=np.empty((1 << table_bits, 3), dtype=np.int64) if table is None else table,
    )
    if table is None:
        clear_table(w)
    return w


def clear_table(w: Workspace) -> None:
    """Empty the transposition table."""
    w.tt[:, TT_HI] = -1 ^ EMPTY_DATA  # key words XOR data (``store``): no key is -1
    w.tt[:, TT_LO] = -1 ^ EMPTY_DATA
    w.tt[:, TT_DATA] = EMPTY_DATA


@inlined
def clear_lines(w):
    """An empty board and empty lines in the work arrays ``w`` (here's or the floating box's)."""
    w.board[:] = -1
    w.line_count[:] = 0
    w.line_and[:] = (1 << 8) - 1
    w.line_or[:] = 0


@inlined
def push_lines(lines, w, cell, d, f):
    """Add the feature word ``f`` to each line through ``cell`` (as the tables ``lines`` lay
    them out), keeping the lines' words before it in ``w.saved[d]`` for ``pop_lines``."""
    for j in range(lines.cell_nlines[cell]):
        line = lines.cell_lines[cell, j]
        w.saved[d, j, 0] = w.line_and[line]
        w.saved[d, j, 1] = w.line_or[line]
        w.line_count[line] += 1
        w.line_and[line] &= f
        w.line_or[line] |= f


@inlined
def pop_lines(lines, w, cell, d):
    """Undo ``push_lines(lines, w, cell, d, ...)``."""
    for j in range(lines.cell_nlines[cell]):
        line = lines.cell_lines[cell, j]
        w.line_count[line] -= 1
        w.line_and[line] = w.saved[d, j, 0]
        w.line_or[line] = w.saved[d, j, 1]


@njit(cache=True)
def clear_position(t, w):
    """An empty board (the supply and hand are set by ``load``)."""
    clear_lines(w)
    w.pool[:] = 0
    for k in range(t.params[P_KINDS]):
        for b in range(8):
            if (t.features[k] >> b) & 1:
                w.pool[b] += t.counts[k]
    w.st[OCC] = 0
    w.st[PLACED] = 0
    w.st[HAND] = -1


@inlined
def place(t, w, cell, kind):
    """Put ``kind`` on the empty ``cell``, keeping the line words up to date."""
    d = w.st[PLACED]
    f = t.features[kind]
    push_lines(t, w, cell, d, f)
    for b in range(8):
        if (f >> b) & 1:
            w.pool[b] -= 1
    w.board[cell] = kind
    w.st[OCC] |= 1 << cell
    w.st[PLACED] = d + 1


@inlined
def place_on_lines(t, w, cell, kind):
    """``place`` without the pool's counts, which only ``live_lines`` reads: for the scoring
    of the last pieces (``three_left``), undone by ``unplace_on_lines``."""
    d = w.st[PLACED]
    push_lines(t, w, cell, d, t.features[kind])
    w.board[cell] = kind
    w.st[OCC] |= 1 << cell
    w.st[PLACED] = d + 1


@inlined
def unplace_on_lines(t, w, cell):
    """Undo ``place_on_lines`` (on ``cell``)."""
    d = w.st[PLACED] - 1
    pop_lines(t, w, cell, d)
    w.board[cell] = -1
    w.st[OCC] &= ~(1 << cell)
    w.st[PLACED] = d


@inlined
def unplace(t, w, cell):
    """Undo the last ``place`` (on ``cell``)."""
    d = w.st[PLACED] - 1
    pop_lines(t, w, cell, d)
    f = t.features[w.board[cell]]
    for b in range(8):
        if (f >> b) & 1:
            w.pool[b] += 1
    w.board[cell] = -1
    w.st[OCC] &= ~(1 << cell)
    w.st[PLACED] = d


@inlined
def three_word(t, land, lor):
    """The word indexing ``unsafe_by_word`` for a line of three pieces whose features AND
    to ``land`` and OR to ``lor``: the AND under ``RULE_SHARE``, the OR under ``RULE_COVER``."""
    if t.params[P_RULE] == RULE_SHARE:
        return land
    return lor


@inlined
def line_unsafe(t, w, line):
    """The kinds completing a winning line on ``line``, which holds three pieces."""
    return t.unsafe_by_word[three_word(t, w.line_and[line], w.line_or[line])]


@inlined
def can_win(t, w, kind):
    """Whether ``kind`` completes a winning line somewhere (all such cells are placeable)."""
    found = False
    for line in range(NUM_LINES):
        if w.line_count[line] == 3 and (line_unsafe(t, w, line) >> kind) & 1:
            found = True
            break
    return found


@inlined
def unsafe_after(t, w, cell, kind):
    """Bitmask of the kinds that would complete a winning line if given once ``kind``
    is on ``cell`` (computed without placing it).

    Lines through the cell holding three pieces fill up (the piece does not win
    there: ``can_win`` was false), those holding two get a third piece."""
    f = t.features[kind]
    through = t.line_bits[cell]
    out = 0
    for line in range(NUM_LINES):
        count = w.line_count[line]
        if (through >> line) & 1:
            if count == 2:
                out |= t.unsafe_by_word[three_word(t, w.line_and[line] & f, w.line_or[line] | f)]
        elif count == 3:
            out |= line_unsafe(t, w, line)
    return out


@inlined
def available(t, w):
    m = 0
    for k in range(t.params[P_KINDS]):
        if w.supply[k] > 0:
            m |= 1 << k
    return m


@inlined
def placeable(t, w):
    """Bitboard of the empty cells the piece in hand may go on."""
    occ = w.st[OCC]
    empty = FULL_BOARD & ~occ
    if t.params[P_TOUCH] == 1 and occ != 0:
        empty &= touching(t.neighbours, occ, CELLS)
    return empty


@inlined
def bit_count(m):
    """The number of bits set in ``m`` (>= 0)."""
    return popcount(m)


@inlined
def touching(neighbours, occ, cells):
    """The cells next to an occupied one (``occ``'s bits among the first ``cells``)."""
    adj = np.int64(0)
    for c in range(cells):
        if (occ >> c) & 1:
            adj |= neighbours[c]
    return adj


@inlined
def all_bits(t):
    return (1 << t.params[P_FEATURE_BITS]) - 1


@inlined
def live_lines(t, w):
    """``(live, bits)``: the lines that some choice of the pieces off the board could
    still make winning lines, and the feature bits that matter to them.

    ``RULE_SHARE``: a feature bit shared by the line's pieces is held by enough of the
    pieces left; ``bits`` are those bits, over all lines. ``RULE_COVER``: the colours
    (or sizes) the line lacks are among the pieces left, and the line has room for
    them; ``bits`` are all feature bits. Pieces only leave the pool, so a line found
    dead stays dead, and a bit that stops mattering never matters again."""
    enough1 = 0  # feature bits held by at least 1, 2, 3, 4 pieces off the board
    enough2 = 0
    enough3 = 0
    enough4 = 0
    for b in range(t.params[P_FEATURE_BITS]):
        c = w.pool[b]
        if c >= 1:
            enough1 |= 1 << b
        if c >= 2:
            enough2 |= 1 << b
        if c >= 3:
            enough3 |= 1 << b
        if c >= 4:
            enough4 |= 1 << b
    live = 0
    bits = 0 if t.params[P_RULE] == RULE_SHARE else all_bits(t)
    for line in range(NUM_LINES):
        count = w.line_count[line]
        if count == 4:
            continue
        alive = False
        if t.params[P_RULE] == RULE_SHARE:
            need = enough4
            if count == 1:
                need = enough3
            elif count == 2:
                need = enough2
            elif count == 3:
                need = enough1
            routes = w.line_and[line] & need
            alive = routes != 0
            bits |= routes
        else:
            lor = w.line_or[line]
            colours = lor & COVER_COLOURS
            missing = ~colours & COVER_COLOURS
            if POP4[colours] == count and (missing & ~enough1) == 0:
                alive = True
            sizes = (lor >> 4) & 7
            missing = ~sizes & 7
            if POP4[missing] <= 4 - count and ((missing << 4) & ~enough1) == 0:
                alive = True
        if alive:
            live |= 1 << line
    return live, bits


@inlined
def distinct_kinds(t, w, avail, bits):
    """The kinds of ``avail`` that differ, on ``bits``, from every earlier one: giving
    a kind or one equal to it on the bits that matter leads to the same value."""
    out = 0
    for k in range(t.params[P_KINDS]):
        if (avail >> k) & 1:
            word = t.features[k] & bits
            new = True
            for j in range(k):
                if (out >> j) & 1 and t.features[j] & bits == word:
                    new = False
                    break
            if new:
                out |= 1 << k
    return out


@inlined
def dead_cells(t, live):
    """The cells on no line of ``live``: which piece is on them, and which of them are
    filled, no longer matters. None where a piece must touch a placed one (Folio
    no-grid): there a filled cell still matters to where the next pieces may go."""
    on_live = FULL_BOARD
    if t.params[P_TOUCH] == 0:
        on_live = 0
        for line in range(NUM_LINES):
            if (live >> line) & 1:
                on_live |= t.line_mask[line]
    return FULL_BOARD & ~on_live


@inlined
def merged(t, w):
    """``(dead, relevant)``: the dead cells the search merges and the feature bits its
    keys keep (none and all unless ``DEAD_LINES`` is on)."""
    dead = 0
    relevant = all_bits(t)
    if w.st[DEAD_LINES] == 1:
        live, relevant = live_lines(t, w)
        dead = dead_cells(t, live)
    return dead, relevant


@inlined
def put(hi, lo, pos, value, nbits):
    """Append ``nbits`` bits of ``value`` to the 120-bit key ``(hi, lo)`` at bit ``pos``
    (counted from the top of ``hi``); returns the key and the next position."""
    end = pos + nbits
    if end <= 60:
        hi |= value << (60 - end)
    elif pos >= 60:
        lo |= value << (120 - end)
    else:
        spill = end - 60
        hi |= value >> spill
        lo |= (value & ((1 << spill) - 1)) << (60 - spill)
    return hi, lo, end


@inlined
def _pack(t, w, inverse, p, image, dimage, relevant):
    """The packed key of the position moved by the board map with ``inverse`` and piece
    map ``p``; ``image`` is the image of the occupied and dead cells, ``dimage`` of the
    dead ones, ``relevant`` the feature bits live lines can still be won by.

    Kinds are keyed by their class: the least kind equal to them on ``relevant``.
    The fields, from the top of ``hi`` on: ``image`` and ``dimage`` (16 bits each),
    the class of each live occupied cell in cell order and of the hand (4 bits
    each), the image of ``relevant`` (8 bits), and the supply's count of each class
    (in unary, for the kinds that are their class's least). Dead cells hold no
    kind. Equal keys mean equal live contents and hand up to kinds equal on the
    bits that matter, equal dead cells, and as many pieces of each class left,
    hence equal values. At most 75 + 3 n bits for ``n`` pieces placed, so both words
    stay below 2**60 and signed comparison orders them.
    """
    hi = 0
    lo = 0
    pos = 0
    hi, lo, pos = put(hi, lo, pos, image, 16)
    hi, lo, pos = put(hi, lo, pos, dimage, 16)
    pm = t.piece_map[p]
    moved = t.feature_map[p, relevant]
    rep = t.rep_of[moved]
    live = image & ~dimage
    for j in range(CELLS):
        if (live >> j) & 1:
            hi, lo, pos = put(hi, lo, pos, rep[pm[w.board[inverse[j]]]], 4)
    hi, lo, pos = put(hi, lo, pos, rep[pm[w.st[HAND]]], 4)
    hi, lo, pos = put(hi, lo, pos, moved, 8)
    kinds = t.params[P_KINDS]
    for k in range(kinds):
        w.class_count[k] = 0
    for k in range(kinds):
        w.class_count[rep[pm[k]]] += w.supply[k]
    for r in range(kinds):
        if rep[r] == r:
            c = w.class_count[r]
            hi, lo, pos = put(hi, lo, pos, ((1 << c) - 1) << 1, c + 1)
    return hi, lo


@inlined
def raw_key(t, w, dead, relevant):
    """The packed key of the position as it stands (board and piece map 0: identity)."""
    return _pack(t, w, t.cell_inverse[0], 0, w.st[OCC] | dead, dead, relevant)


@inlined
def canonical_key(t, w, dead, relevant):
    """The least packed key over every board and piece symmetry, with the maps giving it."""
    nb = t.params[P_BOARD_MAPS]
    if dead != 0 or relevant != all_bits(t):
        return least_key_packed(t, w, t.cell_map, t.cell_inverse, nb, dead, relevant)
    # the occupancy's image under each map, four cells at a time (``nibble_images``)
    occ = w.st[OCC]
    least = 1 << 40
    for b in range(nb):
        image = 0
        for q in range(4):
            image |= t.nibble_images[b, q, (occ >> (4 * q)) & 15]
        pair = image << 16
        w.images[b] = pair
        if pair < least:
            least = pair
    return _least_by_fields(t, w, t.cell_inverse, nb, least, relevant)


@inlined
def _board_images(w, cell_map, nb, filled, dead):
    """``w.images[b]``: the image pair ``(filled << 16) | dead`` under each cell map; returns
    the least pair."""
    least = 1 << 40
    for b in range(nb):
        image = 0
        dimage = 0
        for c in range(CELLS):
            if (filled >> c) & 1:
                image |= 1 << cell_map[b, c]
                if (dead >> c) & 1:
                    dimage |= 1 << cell_map[b, c]
        pair = (image << 16) | dimage
        w.images[b] = pair
        if pair < least:
            least = pair
    return least


@inlined
def _first_kind(w, cell_inverse, b, live):
    """The kind the piece maps of cell map ``b`` must send to 0: the first live piece in the
    image's cell order, or the hand on a board with no live piece."""
    if live == 0:
        return w.st[HAND]
    j = 0
    while not (live >> j) & 1:
        j += 1
    return w.board[cell_inverse[b, j]]


@inlined
def _compare_images(t, w, cell_inverse, live, b1, p1, b2, p2):
    """The sign of key(b1, p1) - key(b2, p2) when every feature bit matters and no cell is
    dead, where both keys share their images: they differ only from the kinds on the live
    cells on (in the image's cell order), then the hand, then the supply of each kind
    (more copies left: a larger key)."""
    m1 = t.piece_map[p1]
    m2 = t.piece_map[p2]
    out = 0
    for j in range(CELLS):
        if (live >> j) & 1:
            a = m1[w.board[cell_inverse[b1, j]]]
            c = m2[w.board[cell_inverse[b2, j]]]
            if a != c:
                out = -1 if a < c else 1
                break
    if out == 0:
        a = m1[w.st[HAND]]
        c = m2[w.st[HAND]]
        if a != c:
            out = -1 if a < c else 1
    if out == 0:
        i1 = t.piece_inverse[p1]
        i2 = t.piece_inverse[p2]
        for r in range(t.params[P_KINDS]):
            a = w.supply[i1[r]]
            c = w.supply[i2[r]]
            if a != c:
                out = -1 if a < c else 1
                break
    return out


@inlined
def least_key(t, w, cell_map, cell_inverse, nb, dead, relevant):
    """The least packed key over the first ``nb`` cell maps and every piece map, with the
    maps giving it (the first such, in the order of the maps): ``least_key_packed``'s
    answer, found with less work.

    When no cell is dead and every feature bit matters (always, unless ``DEAD_LINES``
    is on), kinds are their own classes and the key's fields after the images are the
    mapped kinds in cell order, the hand and the supply of each kind, each at the same
    place for every candidate; so candidates are compared field by field, stopping at
    the first difference (usually the first or second cell), and only the winner is
    packed. Otherwise every candidate is packed (``least_key_packed``).
    """
    if dead != 0 or relevant != all_bits(t):
        return least_key_packed(t, w, cell_map, cell_inverse, nb, dead, relevant)
    least = _board_images(w, cell_map, nb, w.st[OCC], 0)
    return _least_by_fields(t, w, cell_inverse, nb, least, relevant)


@inlined
def _least_by_fields(t, w, cell_inverse, nb, least, relevant):
    """``least_key``'s search once ``w.images`` holds each map's image pair (no dead cells)
    and ``least`` the least of them."""
    least_image = least >> 16
    best_b = -1
    best_p = 0
    for b in range(nb):
        if w.images[b] != least:
            continue
        first = _first_kind(w, cell_inverse, b, least_image)
        for z in range(t.zero_maps.shape[1]):
            p = t.zero_maps[first, z]
            if best_b < 0 or _compare_images(t, w, cell_inverse, least_image,
                                             b, p, best_b, best_p) < 0:
                best_b = b
                best_p = p
        if least == 0:
            break
    hi, lo = _pack(t, w, cell_inverse[best_b], best_p, least_image, 0, relevant)
    return hi, lo, best_b, best_p


@inlined
def least_key_packed(t, w, cell_map, cell_inverse, nb, dead, relevant):
    """The least packed key over the first ``nb`` cell maps and every piece map, found by
    packing every candidate: the reference that ``least_key`` must equal (tests).

    The images of the occupied-or-dead and of the dead cells lead the key, so only
    cell maps giving their least pair compete; among piece maps only those sending
    the first live piece (in the image's cell order; the hand if there is none) to
    kind 0, whose class is 0 whatever the bits, are tried.
    """
    least = _board_images(w, cell_map, nb, w.st[OCC] | dead, dead)
    least_image = least >> 16
    least_dead = least & FULL_BOARD
    live = least_image & ~least_dead
    best_hi = np.int64(1) << 62
    best_lo = np.int64(1) << 62
    best_b = 0
    best_p = 0
    for b in range(nb):
        if w.images[b] != least:
            continue
        first = _first_kind(w, cell_inverse, b, live)
        for z in range(t.zero_maps.shape[1]):
            p = t.zero_maps[first, z]
            hi, lo = _pack(t, w, cell_inverse[b], p, least_image, least_dead, relevant)
            if hi < best_hi or (hi == best_hi and lo < best_lo):
                best_hi = hi
                best_lo = lo
                best_b = b
                best_p = p
        if least == 0:
            break
    return best_hi, best_lo, best_b, best_p


@inlined
def slot(w, hi, lo):
    x = hi * 0x2545F4914F6CDD1D ^ lo * 0x5851F42D4C957F2D
    x ^= x >> 31
    return x & (w.tt.shape[0] - 2)


@inlined
def find(w, hi, lo):
    """``(row, data)``: the table row holding the position keyed ``(hi, lo)`` and its data
    word, read once and checked against the key; ``(-1, -1)`` if none. A row keeps its
    key words XOR its data word (``store``), so a row being written by another process
    as it is read (a table shared by two, ``paired``) fails the check rather than pairing
    one position's key with another's data."""
    i = slot(w, hi, lo)
    row = -1
    data = np.int64(-1)
    for j in range(i, i + 2):
        d = w.tt[j, TT_DATA]
        if w.tt[j, TT_HI] ^ d == hi and w.tt[j, TT_LO] ^ d == lo:
            row = j
            data = d
            break
    return row, data


@inlined
def probe(w, hi, lo):
    """The data word of the position keyed ``(hi, lo)`` (``find``), or -1 if it is not kept."""
    return find(w, hi, lo)[1]


@inlined
def entry_lower(data):
    return (data & 0xFF) - 128


@inlined
def entry_upper(data):
    return ((data >> 8) & 0xFF) - 128


@inlined
def entry_move(data):
    return ((data >> 16) & 0xFFFF) - 1


@inlined
def entry_work(data):
    return ((data >> 32) & 0xFF) - 1


@inlined
def narrow(data, alpha, beta):
    """What a table entry (its data word) says of a search in ``(alpha, beta)``: ``(True,
    score, ...)`` when its bounds decide it, else ``(False, 0, alpha, beta)`` narrowed to
    them."""
    low = entry_lower(data)
    high = entry_upper(data)
    if low >= beta or low == high:
        return True, low, alpha, beta
    if high <= alpha:
        return True, high, alpha, beta
    return False, 0, max(alpha, low), min(beta, high)


@inlined
def _data(lower, upper, move, work):
    return (lower + 128) | ((upper + 128) << 8) | ((move + 1) << 16) | ((work + 1) << 32)


@inlined
def store(w, hi, lo, lower, upper, move, work):
    """Keep bounds ``[lower, upper]`` and the best move of a position searched with
    ``work`` pieces left: tightening its entry if present, else in the index's first
    slot if that holds no more work, else in the second. The key words are kept XOR the
    data word (``find``)."""
    j, old = find(w, hi, lo)
    if j >= 0:
        lower = max(lower, entry_lower(old))
        upper = min(upper, entry_upper(old))
        if move < 0:
            move = entry_move(old)
        work = entry_work(old)
    else:
        i = slot(w, hi, lo)
        j = i if work >= entry_work(w.tt[i, TT_DATA]) else i + 1
    data = _data(lower, upper, move, work)
    w.tt[j, TT_DATA] = data
    w.tt[j, TT_HI] = hi ^ data
    w.tt[j, TT_LO] = lo ^ data


@inlined
def look_up(t, w, use_tt, hi, lo, bmap, pmap, alpha, beta):
    """What the table says of a node keyed ``(hi, lo)`` (by the board and piece maps
    ``bmap``, ``pmap``) and searched in ``(alpha, beta)``: ``(decided, score, alpha, beta,
    first)``. Decided, with its score, when the stored bounds settle it; else the window
    narrowed to them and the stored best move in this position's frame (``first``, -1 if
    none)."""
    first = -1
    data = probe(w, hi, lo) if use_tt else np.int64(-1)
    if data >= 0:
        decided, known, alpha, beta = narrow(data, alpha, beta)
        if decided:
            return True, known, alpha, beta, first
        kept = entry_move(data)
        if kept >= 0:
            c = t.cell_inverse[bmap, kept >> MOVE_SHIFT]
            g = t.piece_inverse[pmap, kept & 31]
            first = (c << MOVE_SHIFT) | g
    return False, 0, alpha, beta, first


@inlined
def remember(t, w, use_tt, hi, lo, best, best_move, alpha, beta, bmap, pmap, work):
    """Store a node's fail-soft ``best`` (searched in ``(alpha, beta)``) as bounds, with its
    best move in the canonical frame."""
    lower = best if best > alpha else -INF
    upper = best if best < beta else INF
    if use_tt:
        store(w, hi, lo, lower, upper, _stored_move(t, bmap, pmap, best_move), work)


@inlined
def judge_child(w, order, a, chi, clo, alpha, beta):
    """What the table says of child ``a`` (keyed ``(chi, clo)``) of a node searched in
    ``(alpha, beta)``: ``(True, score)`` when its stored bound already refutes the node
    (the node fails high with ``score``), else ``(False, 0)`` after moving the child up the
    order (``order[a]``) if the table calls it good, down if useless."""
    child = probe(w, chi, clo)
    if child >= 0:
        mine_low = -entry_upper(child)  # the child's upper bound is our lower one
        mine_high = -entry_lower(child)
        if mine_low >= beta:
            return True, mine_low
        if order[a] < (1 << 40):
            if mine_low > alpha:
                order[a] += 1 << 38
            elif mine_high <= alpha:
                order[a] -= 1 << 38
    return False, 0


@no_refcount
def node_key(t, w, dead, relevant):
    """``canonical_key`` compiled once, as its own function: ``search`` calls it for a node
    and for each child it looks up, rather than holding two inlined copies of it (and of
    ``least_key_packed``), which doubled the cold compile of ``search``. Only positions
    with at most ``CANON_MAX`` pieces are keyed this way, so the call costs little."""
    return canonical_key(t, w, dead, relevant)


@no_refcount
def look_up_children(t, w, n, hand, count, alpha, beta):
    """Enhanced transposition cut-offs at a node with ``n`` pieces placed, ``hand`` in hand
    and ``count`` moves in ``w.moves[n]``: ``(True, score, move)`` when a child's stored
    bound already refutes it (the node fails high with ``score``), else ``(False, 0, -1)``
    after moving children the table calls good up the order (``w.order[n]``) and those it
    calls useless down. Its own function, called only near the root, so ``search`` does
    not hold another copy of the key computations."""
    st = w.st
    moves = w.moves[n]
    order = w.order[n]
    for a in range(count):
        mv = moves[a]
        c = mv >> MOVE_SHIFT
        g = mv & 31
        place(t, w, c, hand)
        st[HAND] = g
        w.supply[g] -= 1
        cdead, cbits = merged(t, w)
        chi, clo, _, _ = node_key(t, w, cdead, cbits)
        w.supply[g] += 1
        st[HAND] = hand
        unplace(t, w, c)
        cut, low = judge_child(w, order, a, chi, clo, alpha, beta)
        if cut:
            return True, low, mv
    return False, 0, -1


@njit(cache=True)
def out_of_budget(w):
    """Whether the search must stop: its node limit or deadline reached, or Ctrl-C.

    The clock is read in ``objmode`` even without a deadline: that moment of Python is
    when a pending SIGINT's handler runs, and ``deferred_interrupt`` (which the solver
    holds around every search) makes that handler set ``INTERRUPTED`` rather than
    raise inside numba's glue, which would surface as a ``SystemError``."""
    st = w.st
    if st[NODE_LIMIT] > 0 and st[NODES] >= st[NODE_LIMIT]:
        return True
    with objmode(now="float64"):
        now = time.perf_counter()
    if st[INTERRUPTED] == 1:
        return True
    return st[HAS_DEADLINE] == 1 and now >= w.deadline[0]


@inlined
def _stored_move(t, bmap, pmap, move):
    """A move as the table keeps it: in the canonical position's frame."""
    if move < 0:
        return -1
    cell = t.cell_map[bmap, move >> MOVE_SHIFT]
    give = t.piece_map[pmap, move & 31]
    return (cell << MOVE_SHIFT) | give


@inlined
def two_left(t, w, n, hand, last):
    """The score of a position with two pieces left (``n`` placed, ``hand`` in hand, the
    kinds ``last`` for the last one) where ``hand`` wins nowhere: place it and give the
    last piece, a draw unless that piece wins wherever the piece in hand goes."""
    cells = placeable(t, w)
    out = -(WIN - (n + 2))
    for c in range(CELLS):
        if (cells >> c) & 1 and (last & ~unsafe_after(t, w, c, hand)) != 0:
            out = 0
            break
    return out


@inlined
def three_left(t, w, n, hand):
    """The score of a position with three pieces left where ``hand`` wins nowhere, without
    a node for each reply: each placement and safe give leads to a ``two_left`` position
    for the opponent (who cannot win at once, the give being safe); a placement with no
    safe give loses on the next ply."""
    avail = available(t, w)
    cells = placeable(t, w)
    ceiling = WIN - (n + 3)
    best = -INF
    for c in range(CELLS):
        if not (cells >> c) & 1:
            continue
        safe = avail & ~unsafe_after(t, w, c, hand)
        if safe == 0:
            best = max(best, -(WIN - (n + 2)))
            continue
        place_on_lines(t, w, c, hand)
        m = safe
        while m:
            low = m & -m
            m ^= low
            g = low_bit_index(low)
            w.supply[g] -= 1
            rest = avail if w.supply[g] > 0 else avail ^ low
            score = -two_left(t, w, n + 1, g, rest)
            w.supply[g] += 1
            best = max(best, score)
            if best == ceiling:
                break
        unplace_on_lines(t, w, c)
        if best == ceiling:
            break
    return best


@no_refcount
def last_pieces(t, w, n, hand):
    """The score of a position with two or three pieces left where ``hand`` wins nowhere
    (``two_left``, ``three_left``), compiled once as its own function: ``search`` reaches
    such positions through a call only at a root (its nodes with four pieces left score
    their children with ``three_left`` in line)."""
    if n + 2 == t.params[P_TOTAL]:
        return two_left(t, w, n, hand, available(t, w))
    return three_left(t, w, n, hand)


@no_refcount_nogil
def search(t, w, alpha, beta):
    """The score of the position in ``w`` for the side to move (fail-soft alpha-beta)."""
    st = w.st
    st[NODES] += 1
    if st[ABORTED] == 1:
        return 0
    if (st[NODES] & (CHECK_EVERY - 1)) == 0 and out_of_budget(w):
        st[ABORTED] = 1
        return 0
    n = st[PLACED]
    hand = st[HAND]
    total = t.params[P_TOTAL]
    if can_win(t, w, hand):
        return WIN - (n + 1)
    if n + 1 == total:
        return 0
    if n + 3 >= total and st[PRUNE] == 1:
        return last_pieces(t, w, n, hand)
    dead = 0
    avail = available(t, w)
    gives = avail
    bits = all_bits(t)
    if st[DEAD_LINES] == 1:
        live, bits = live_lines(t, w)
        if live == 0:
            return 0  # no line can be won any more: a draw
        dead = dead_cells(t, live)
        gives = distinct_kinds(t, w, avail, bits)
    # bounds: the opponent never gets a winning piece while a safe one exists, so
    # the earliest win is our next placement but one, the earliest loss the next ply
    ceiling = WIN - (n + 3) if n + 3 <= total else 0
    floor = -(WIN - (n + 2))
    if ceiling <= alpha:
        return ceiling
    if floor >= beta:
        return floor

    use_tt = total - n > TT_SKIP
    bmap = 0
    pmap = 0
    hi = 0
    lo = 0
    if n <= st[CANON_MAX]:
        hi, lo, bmap, pmap = node_key(t, w, dead, bits)
    elif use_tt:
        hi, lo = raw_key(t, w, dead, bits)
    decided, known, alpha, beta, tt_first = look_up(t, w, use_tt, hi, lo, bmap, pmap,
                                                    alpha, beta)
    if decided:
        return known

    prune = st[PRUNE] == 1
    cells = placeable(t, w)
    # placements on empty dead cells all lead to the same position: keep the first
    empty_dead = cells & dead
    if empty_dead != 0:
        first_dead = empty_dead & -empty_dead
        cells = (cells & ~dead) | first_dead
        if tt_first >= 0 and (dead >> (tt_first >> MOVE_SHIFT)) & 1:
            tt_first = (low_bit_index(first_dead) << MOVE_SHIFT) | (tt_first & 31)
    if tt_first >= 0 and not (gives >> (tt_first & 31)) & 1:
        # the table's give stands for the kind equal to it on the bits that matter
        word = t.features[tt_first & 31] & bits
        for k in range(t.params[P_KINDS]):
            if (gives >> k) & 1 and t.features[k] & bits == word:
                tt_first = (tt_first & ~31) | k
                break
    count = np.int64(0)  # not a literal: one compile of look_up_children
    best = -INF
    best_move = -1
    moves = w.moves[n]
    order = w.order[n]
    for c in range(CELLS):
        if not (cells >> c) & 1:
            continue
        safe = gives & ~unsafe_after(t, w, c, hand) if prune else gives
        if safe == 0:
            # every piece we could give wins for the opponent on the next ply
            score = -(WIN - (n + 2))
            if score > best:
                best = score
                best_move = c << MOVE_SHIFT
                for g in range(t.params[P_KINDS]):
                    if (avail >> g) & 1:
                        best_move |= g
                        break
            continue
        left = bit_count(safe)
        m = safe
        while m:
            low = m & -m
            m ^= low
            mv = (c << MOVE_SHIFT) | low_bit_index(low)
            moves[count] = mv
            if mv == tt_first:
                order[count] = 1 << 40
            else:
                order[count] = ((20 - left) << 32) + w.history[mv]
            count += 1

    alpha_used = alpha
    beta_used = beta
    if best >= beta:
        count = np.int64(0)
    if count > 1 and n < st[ETC_MAX] and n + 1 <= st[CANON_MAX] and total - (n + 1) > TT_SKIP:
        # enhanced transposition cut-offs, and the table's word on each child for the order
        cut, low, mv = look_up_children(t, w, n, hand, count, alpha, beta)
        if cut:
            best = low
            best_move = mv
            count = np.int64(0)
    in_line = prune and n + 4 == total
    for a in range(count):
        mv = take_best(moves, order, a, count)
        c = mv >> MOVE_SHIFT
        g = mv & 31
        place(t, w, c, hand)
        st[HAND] = g
        w.supply[g] -= 1
        if in_line:
            # the child has three pieces left: what ``search`` would do there, without
            # the call (the same node count, budget check and score)
            st[NODES] += 1
            if (st[NODES] & (CHECK_EVERY - 1)) == 0 and out_of_budget(w):
                st[ABORTED] = 1
                score = 0
            elif can_win(t, w, g):
                score = -(WIN - (n + 2))
            else:
                score = -three_left(t, w, n + 1, g)
        else:
            score = -search(t, w, -beta, -max(alpha, best))
        w.supply[g] += 1
        st[HAND] = hand
        unplace(t, w, c)
        if st[ABORTED] == 1:
            return 0
        if score > best:
            best = score
            best_move = mv
            if best >= beta:
                w.history[mv] += 1 << (total - n)
                break

    remember(t, w, use_tt, hi, lo, best, best_move, alpha_used, beta_used, bmap, pmap,
             total - n)
    return best


@njit(cache=True)
def position_key(t, w):
    """The canonical key of the loaded position, as the search keys it."""
    dead, relevant = merged(t, w)
    return node_key(t, w, dead, relevant)


@njit(cache=True)
def position_key_packed(t, w):
    """``position_key`` by packing every candidate key (``least_key_packed``): the tests'
    reference for the comparisons ``least_key`` makes instead."""
    dead, relevant = merged(t, w)
    return least_key_packed(t, w, t.cell_map, t.cell_inverse, t.params[P_BOARD_MAPS], dead,
                            relevant)
