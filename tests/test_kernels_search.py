"""The one alpha-beta (``fourfold.kernels.search``) under each kernel's hooks.

Every kernel runs the same loop: an exact search (no line cut by the depth limit)
gives the true game values, the same as the readable rules' search; a win in one is
found; and a search stopped by its node limit takes back every move it pushed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import fourfold
from fourfold.kernels import ReferenceEngine, kernel_engine
from fourfold.kernels.engine import WIN, Engine

GAMES = [("dao", None), ("icedao", None), ("quarto", None), ("folio", "fixed-grid")]


def kernel(name: str, variant: str | None) -> Engine:
    engine = kernel_engine(fourfold.load(name, variant))
    assert engine is not None
    return engine


def played(game: Any, plies: int, seed: int) -> Any:
    """The position after ``plies`` random moves (fewer if the game ends)."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        moves = game.legal_moves(state)
        if not moves or game.outcome(state) is not None:
            break
        child = game.next_state(state, moves[rng.randrange(len(moves))])
        if game.outcome(child) is not None:
            break
        state = child
    return state


@pytest.mark.parametrize(("name", "variant"), GAMES)
def test_a_search_out_of_nodes_takes_back_its_moves(name: str, variant: str | None) -> None:
    engine = kernel(name, variant)
    game = engine.game
    aborted = 0
    for seed in range(20):
        state = played(game, 4, seed)
        engine.load(state)
        root = engine.legal()
        before = (root, engine.to_move(), engine.perft(2))
        result = engine.search(root, 12, 200)
        assert (engine.legal(), engine.to_move(), engine.perft(2)) == before
        aborted += result.best == -1
    assert aborted >= 10


@pytest.mark.parametrize(("name", "variant"), GAMES)
def test_a_win_in_one_is_found(name: str, variant: str | None) -> None:
    engine = kernel(name, variant)
    game = engine.game
    found = 0
    for seed in range(400):
        engine.load(played(game, 4 + seed % 20, seed))
        if engine.to_move() < 0 or not engine.mover_wins_now():
            continue
        root = engine.legal()
        result = engine.search(root, 3, 10_000_000)
        assert result.best >= 0 and result.values[result.best] == WIN - 1
        engine.push(root[result.best])
        assert engine.winner() >= 0
        engine.pop()
        found += 1
        if found == 5:
            break
    assert found == 5


def test_exact_quarto_values_equal_the_readable_rules_search() -> None:
    engine = kernel("quarto", None)
    game = engine.game
    reference = ReferenceEngine(game)
    checked = 0
    for seed in range(40):
        state = played(game, 11, seed)
        engine.load(state)
        if engine.to_move() < 0:
            continue
        root = engine.legal()
        fast = engine.search(root, 12, 50_000_000)
        reference.load(state)
        slow = reference.search(root, 12, 50_000_000)
        assert fast.exact and slow.exact
        assert fast.best == slow.best
        assert fast.values[fast.best] == slow.values[slow.best]
        checked += 1
        if checked == 4:
            break
    assert checked == 4
