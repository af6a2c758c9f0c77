"""The compiled greedy playouts (MCTS's leaf values), pinned: the same seed plays the same
game, and the winners of sixty seeded playouts from the start are those the kernels gave
when these strings were taken (``x``: a draw or a playout cut at its ply cap).

Compile-time work on the kernels' ``greedy_playout`` (fewer inlined copies of ``push``)
must not change the policy or its use of the random numbers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import fourfold
from fourfold.kernels import kernel_engine

PINNED = {
    ("dao", None): "xx0xxxxxxxxxxxxxxxxx1x11xxxxxxxxxxxxxxxx0xxxx00xxxxxx0xxxxxx",
    ("icedao", None): "00110100111000000x1x0xxx1011x10000000100x111010x1x011x010110",
    ("quarto", None): "110010010001110010101101000110111011010110100000111111111001",
    ("folio", "standard"): "000011101110011011110100110111011101110010111100010001001011",
}


@pytest.mark.parametrize(("name", "variant"), list(PINNED), ids=[n for n, _ in PINNED])
def test_greedy_playouts_are_pinned_and_undone(name: str, variant: str | None) -> None:
    game = fourfold.load(name, variant)
    engine: Any = kernel_engine(game)
    assert engine is not None
    engine.load(game.initial_state())
    before = engine.st.copy()
    winners = [engine.greedy_playout(seed) for seed in range(60)]
    assert np.array_equal(engine.st, before)
    assert "".join("x" if w < 0 else str(w) for w in winners) == PINNED[(name, variant)]
