"""The placement search's ``leaf`` hook values a child where it stands exactly as playing
it and settling it would (``fourfold.games.placement.kernel_search``).

The search values the children of every node this way before it plays any (one ply above
the horizon, at depth 0; higher up, at depth 1 or more, where ``QUIET`` says that the child
is to be searched and ``settle`` would say ``OPEN``), so the hook must agree with
``push_quiet``, ``settle`` and ``pop`` on every quiet move, whatever order the moves come
in (its per-cell summary is reused between them)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

import fourfold
from fourfold.games.placement import kernel_search as s
from fourfold.games.placement.kernel_engine import PlacementEngine
from fourfold.kernels.search import AT_HORIZON, OPEN, QUIET


@njit
def _both_ways(t, board, supply, st, hist, actions, count, scratch, row, ply, depth, out):  # type: ignore[no-untyped-def]
    """For each action: (the leaf's value, the value by playing it) at ``depth``, position
    unchanged."""
    p = (t, board, supply, st, hist)
    scratch[s.L_CELL] = -1
    for i in range(count):
        out[i, 0] = s._leaf(p, scratch, actions[i], ply, depth)
        s._push_quiet(p, actions[i])
        out[i, 1] = s._settle(p, row, ply, depth)
        s._pop(p)


@pytest.mark.parametrize(("name", "variant"), [("folio", "fixed-grid"), ("quarto", None),
                                                ("folio", "standard")])
def test_the_leaf_value_is_the_played_value(name: str, variant: str | None) -> None:
    game = fourfold.load(name, variant)
    engine = PlacementEngine(game)
    rng = random.Random(34)
    seen: set[tuple[bool, int]] = set()
    checked = 0
    while checked < 60:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 16)):
            moves = game.legal_moves(state)
            child = game.next_state(state, moves[rng.randrange(len(moves))])
            if game.outcome(child) is not None:
                break
            state = child
        engine.load(state)
        if engine.is_over() or engine.mover_wins_now():
            continue  # the search settles these before generating any move
        actions = np.array(engine.legal(), dtype=np.int64)
        if rng.random() < 0.5:
            rng.shuffle(actions)  # the summary is per cell: any order must agree
        before = (engine.board.copy(), engine.supply.copy(), engine.st.copy())
        out = np.zeros((len(actions), 2), dtype=np.int64)
        depth = rng.choice([0, 0, 1, 3])
        _both_ways(engine.t, engine.board, engine.supply, engine.st, engine.hist, actions,
                   len(actions), engine.scores[1], engine.moves[2], 2, depth, out)
        valued = out[:, 0] != OPEN  # OPEN: the search plays the move and settles it
        played = np.where(out[:, 1] == OPEN, QUIET, out[:, 1])  # QUIET: settle says OPEN
        assert (out[valued, 0] == played[valued]).all()
        assert all((a == b).all() for a, b in zip(before, (engine.board, engine.supply,
                                                          engine.st), strict=True))
        seen.update((depth > 0, int(v)) for v in out[:, 0])
        checked += 1
    if name == "folio" and variant == "standard":
        assert {v for _, v in seen} == {OPEN}  # no fixed board: every move is played
    else:
        assert (False, AT_HORIZON) in seen
        assert (True, QUIET) in seen
        assert (True, AT_HORIZON) not in seen
        for deep in (False, True):  # a piece given that wins at once
            assert any(d == deep and 0 < v < AT_HORIZON for d, v in seen)
