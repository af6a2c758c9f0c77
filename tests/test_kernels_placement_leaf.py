"""The placement search's ``leaf`` hook values a child where it stands exactly as playing
it and settling it at the horizon would (``fourfold.games.placement.kernel_search``).

The search values the children of every node one ply above the horizon this way, so the
hook must agree with ``push_quiet``, ``settle`` at depth 0 and ``pop`` on every quiet move,
whatever order the moves come in (its per-cell summary is reused between them)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

import fourfold
from fourfold.games.placement import kernel_search as s
from fourfold.games.placement.kernel_engine import PlacementEngine
from fourfold.kernels.search import AT_HORIZON, OPEN


@njit
def _both_ways(t, board, supply, st, hist, actions, count, scratch, row, ply, out):  # type: ignore[no-untyped-def]
    """For each action: (the leaf's value, the value by playing it), position unchanged."""
    p = (t, board, supply, st, hist)
    scratch[s.L_CELL] = -1
    for i in range(count):
        out[i, 0] = s._leaf(p, scratch, actions[i], ply)
        s._push_quiet(p, actions[i])
        out[i, 1] = s._settle(p, row, ply, 0)
        s._pop(p)


@pytest.mark.parametrize(("name", "variant"), [("folio", "fixed-grid"), ("quarto", None),
                                                ("folio", "standard")])
def test_the_leaf_value_is_the_played_value(name: str, variant: str | None) -> None:
    game = fourfold.load(name, variant)
    engine = PlacementEngine(game)
    rng = random.Random(34)
    seen: set[int] = set()
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
        _both_ways(engine.t, engine.board, engine.supply, engine.st, engine.hist, actions,
                   len(actions), engine.scores[1], engine.moves[2], 2, out)
        valued = out[:, 0] != OPEN  # OPEN: the search plays the move instead
        assert (out[valued, 0] == out[valued, 1]).all()
        assert all((a == b).all() for a, b in zip(before, (engine.board, engine.supply,
                                                          engine.st), strict=True))
        seen.update(int(v) for v in out[:, 0])
        checked += 1
    if name == "folio" and variant == "standard":
        assert seen == {OPEN}  # no fixed board: every move is played
    else:
        assert AT_HORIZON in seen
        assert any(0 < v < AT_HORIZON for v in seen)  # a piece given that wins at once
