"""The alpha-beta's tree, pinned: every kernel's search visits the same nodes, in the same
order, with the same values and best moves as when these digests were taken.

Speed work on ``fourfold.kernels.search`` and the kernels' hooks (table layout, leaf
valuation, prefetching, move generation) must not change the search itself. Each digest
covers, for a few positions per ruleset, an iterative deepening from a forgotten table:
every depth's best move, root values, node count and exactness, the last depth stopped
by its node limit. A change that legitimately reorders the search must say why and show
the values unchanged (``tests/test_kernels_search.py``) before these are retaken."""

from __future__ import annotations

import hashlib
import random

import pytest

import fourfold
from fourfold.kernels import kernel_engine

PINNED = {
    "folio-standard": ("8868704de6af9552", 171310),
    "folio-fixed-grid": ("576ac63e66e6bf7a", 125856),
    "folio-no-grid": ("7ce21d64fb11cb2f", 116607),
    "quarto": ("33c6a693d047e129", 181752),
    "icedao": ("39e56d81a0e9bb02", 60455),
    "dao": ("c5734693b855070e", 18277),
}


def search_digest(name: str, variant: str | None) -> tuple[str, int]:
    game = fourfold.load(name, variant)
    engine = kernel_engine(game)
    assert engine is not None
    digest = hashlib.sha256()
    total = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.initial_state()
        for _ in range(2 + 2 * seed):
            child = game.next_state(state, rng.choice(game.legal_moves(state)))
            if game.outcome(child) is not None:
                break
            state = child
        engine.forget()
        engine.load(state)
        root = engine.legal()
        for depth in range(1, 7):
            result = engine.search(root, depth, 20_000 if depth < 6 else 8_000)
            values = result.values if result.best >= 0 else None  # aborted: discarded
            digest.update(repr((result.best, values, result.nodes, result.exact)).encode())
            total += result.nodes
    return digest.hexdigest()[:16], total


@pytest.mark.parametrize("ruleset", sorted(PINNED))
def test_the_search_visits_the_pinned_tree(ruleset: str) -> None:
    name, _, variant = ruleset.partition("-")
    assert search_digest(name, variant or None) == PINNED[ruleset]
