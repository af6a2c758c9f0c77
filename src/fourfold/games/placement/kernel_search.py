"""Alpha-beta for the placement games: the hooks of the one search core.

``fourfold.kernels.search`` runs the loop; here are the placement kernel's
terminal rules and move order. A side that holds a piece it can win with wins
at once, so every node first looks for such a cell; that also refutes "gives"
that hand the opponent a win at the cost of one cheap scan. Every push below
the root happens after that scan found no winning placement, so it skips the
win test (``push_quiet``). Move lists are long (a cell and a piece to give), so
only the move with the best history score is brought forward.

Every child is first valued where it stands (``_leaf``, the search's ``leaf`` hook):
whether the piece given wins at once on the board with the placement made. One ply above
the horizon that settles the child; higher up it settles the children that hand the
opponent a win (about half of those the search would push), and the others are pushed
as ``QUIET``, their ``_settle`` (which would look for the same win) skipped. On a fixed
board (``GEO_ANY``) the lines that would have a single gap after a placement are summed
up once per cell: each line's three pieces (the AND or the OR of their feature words)
look up in the kill table (``kernel_tables``) the kinds that would complete it, and the
union is kept in the node's ``scores`` row; each piece given is then one bit test. The
children count as nodes as before and the search is the same.
"""

from __future__ import annotations

from fourfold.games.placement.fast_tables import RULE_SHARE
from fourfold.games.placement.kernel import (
    S_HAND,
    S_HASH,
    S_OCC,
    S_PLACED,
    S_WINNER,
    entry,
    generate,
    place_of,
    pop,
    push,
    push_quiet,
    winning_cell,
)
from fourfold.games.placement.kernel_tables import (
    GEO_ANY,
    KILL_KINDS,
    O_FEATURES,
    O_KILL,
    O_LINE_CELLS,
    O_LINE_MASK,
    O_ZOBRIST,
    O_ZOBRIST_HAND,
    P_CELLS,
    P_GEOMETRY,
    P_KINDS,
    P_LINES,
    P_RULE,
    P_TOTAL,
)
from fourfold.kernels.index import unsigned
from fourfold.kernels.jit import inlined, no_refcount
from fourfold.kernels.search import (
    AT_HORIZON,
    OPEN,
    QUIET,
    WIN,
    arrange_best_first,
    choose_in_order,
    root_search_leaves,
)

# the leaf summary in a node's ``scores`` row: the cell it is for (-1: none yet) and the
# kinds that, given after a placement there, let the opponent win at once (``_kills``)
L_CELL = 0
L_KILLS = 1


@inlined
def _settle(p, row, ply, depth):  # type: ignore[no-untyped-def]
    t, board, st = p[0], p[1], p[3]
    if st[S_WINNER] >= 0:
        return -(WIN - ply)  # the player who just placed won
    if st[S_PLACED] == t[P_TOTAL]:
        return 0
    if winning_cell(t, board, st) >= 0:
        return WIN - ply - 1
    if depth <= 0:
        return AT_HORIZON
    return OPEN


@inlined
def _key(p):  # type: ignore[no-untyped-def]
    return p[3][S_HASH]


@inlined
def _child_key(p, action):  # type: ignore[no-untyped-def]
    """``_key`` after ``_push_quiet(action)``, without playing it (the key ``place_and_give``
    leaves)."""
    t, st = p[0], p[3]
    k = t[P_KINDS]
    place = place_of(t, action)
    give = action - place * (k + 1)
    hand = st[S_HAND]
    h = st[S_HASH]
    if place < t[P_CELLS]:
        h ^= entry(t, O_ZOBRIST, place * k + hand)
    h ^= entry(t, O_ZOBRIST_HAND, hand if hand >= 0 else k)
    return h ^ entry(t, O_ZOBRIST_HAND, give if give < k else k)


@inlined
def _legal(p, row):  # type: ignore[no-untyped-def]
    return generate(p[0], p[1], p[2], p[3], row, False)


@inlined
def _push(p, action):  # type: ignore[no-untyped-def]
    push(p[0], p[1], p[2], p[3], p[4], action)


@inlined
def _push_quiet(p, action):  # type: ignore[no-untyped-def]
    push_quiet(p[0], p[1], p[2], p[3], p[4], action)


@inlined
def _pop(p):  # type: ignore[no-untyped-def]
    pop(p[0], p[1], p[2], p[3], p[4])


@inlined
def _arrange(row, scores, count, tt_move, history):  # type: ignore[no-untyped-def]
    """``arrange_best_first``, forgetting the leaf summary of the node before (the row of
    ``scores`` is this node's from now on)."""
    scores[L_CELL] = -1
    return arrange_best_first(row, scores, count, tt_move, history)


@inlined
def _kills(t, board, st, cell):  # type: ignore[no-untyped-def]
    """The kinds (as bits ``1 << kind``) that complete a line once the piece in hand is on
    ``cell``: each line left with one empty cell looks up its other three pieces' AND
    (``RULE_SHARE``) or OR (``RULE_COVER``) in the kill table."""
    occ = st[S_OCC] | (1 << cell)
    fh = entry(t, O_FEATURES, st[S_HAND])
    share = t[P_RULE] == RULE_SHARE
    kills = 0
    for line in range(t[P_LINES]):
        gap = entry(t, O_LINE_MASK, line) & ~occ
        if gap == 0 or (gap & (gap - 1)) != 0:
            continue  # full, or more than one empty cell (on a fixed board any is placeable)
        a = -1
        o = 0
        for i in range(4):
            c = entry(t, O_LINE_CELLS, line * 4 + i)
            if c == cell:
                a &= fh
                o |= fh
            else:
                kind = board[unsigned(c)]
                if kind >= 0:
                    v = entry(t, O_FEATURES, kind)
                    a &= v
                    o |= v
        kills |= entry(t, O_KILL, a if share else o)
    return kills


@inlined
def _leaf(p, scratch, action, ply, depth):  # type: ignore[no-untyped-def]
    """``_settle`` at ``depth`` after ``_push_quiet(action)``, without playing it (``QUIET``
    where it would say ``OPEN``); ``OPEN`` (play it and settle it) for a move that places
    nothing or gives nothing, off a fixed board, or with more kinds than the kill table
    holds."""
    t, board, st = p[0], p[1], p[3]
    k = t[P_KINDS]
    place = place_of(t, action)
    give = action - place * (k + 1)
    if place >= t[P_CELLS] or give >= k or t[P_GEOMETRY] != GEO_ANY or k > KILL_KINDS:
        return OPEN
    placed = st[S_PLACED] + 1
    if placed == t[P_TOTAL]:
        return 0
    if placed < 3:
        return AT_HORIZON if depth <= 0 else QUIET
    if scratch[L_CELL] != place:
        scratch[L_KILLS] = _kills(t, board, st, place)
        scratch[L_CELL] = place
    if (scratch[L_KILLS] >> give) & 1:
        return WIN - ply - 1
    return AT_HORIZON if depth <= 0 else QUIET


@no_refcount
def search_root(  # type: ignore[no-untyped-def]
    t, board, supply, st, hist, moves, scores, frames, tt, history, stats, root, count,
    depth, values,
):
    """Search the root actions ``root[:count]`` in that order to ``depth`` plies.

    ``values[i]`` gets each action's score (exact for the best, a bound for the
    others); returns the index of the best action, or -1 if aborted.
    """
    return root_search_leaves((t, board, supply, st, hist), moves, scores, frames, tt,
                              history, stats, root, count, depth, values,
                              _settle, _key, _legal, _push, _push_quiet, _pop,
                              _arrange, choose_in_order, _leaf, _child_key)
