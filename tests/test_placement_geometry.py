"""Where pieces may go: the Chebyshev rule, first-piece squares, no-grid adjacency
and the 4x4 box; each checked against a brute-force reading of the rule text."""

from __future__ import annotations

import random

import pytest

import fourfold
from fourfold.core.errors import IllegalMoveError, NotationError

CENTRAL = {"d4", "e4", "d5", "e5"}


def cells_of(game: object, state: object) -> set[str]:
    g = game
    return {
        g.geometry.format_cell(m.place)  # type: ignore[attr-defined]
        for m in g.legal_moves(state)  # type: ignore[attr-defined]
        if m.place is not None
    }


def test_first_piece_on_a_central_square() -> None:
    game = fourfold.load("folio", "standard")
    state = game.play(game.initial_state(), "Gs")
    assert cells_of(game, state) == CENTRAL
    with pytest.raises(IllegalMoveError, match="central squares d4, e4, d5, e5"):
        game.play(state, "a1 Rs")


def test_chebyshev_rule_matches_the_text() -> None:
    """Every later piece within 3 squares of every placed piece, in any direction."""
    game = fourfold.load("folio", "standard")
    for seed in range(40):
        rng = random.Random(seed)
        state = game.initial_state()
        while game.outcome(state) is None:
            if state.hand is not None and state.placed:
                expected = {
                    game.geometry.format_cell((x, y))
                    for x in range(8)
                    for y in range(8)
                    if (x, y) not in state.occupied
                    and all(max(abs(x - a), abs(y - b)) <= 3 for a, b in state.occupied)
                }
                assert cells_of(game, state) == expected
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        xs = [c[0] for c in state.occupied]
        ys = [c[1] for c in state.occupied]
        assert max(xs) - min(xs) <= 3 and max(ys) - min(ys) <= 3


def test_chebyshev_refusal_names_the_far_piece() -> None:
    game = fourfold.load("folio", "standard")
    state = game.parse_position("d4=Rs Gs")
    with pytest.raises(IllegalMoveError, match="h4 is 4 squares from the piece on d4"):
        game.play(state, "h4 Rm")
    with pytest.raises(IllegalMoveError, match="d4 is already occupied"):
        game.play(state, "d4 Rm")
    assert "g7" in cells_of(game, state) and "a1" in cells_of(game, state)


def test_no_grid_adjacency_and_box() -> None:
    game = fourfold.load("folio", "no-grid")
    state = game.play(game.initial_state(), "Gs")
    assert cells_of(game, state) == {"0,0"}
    state = game.play(state, "0,0 Rs")
    assert cells_of(game, state) == {f"{x},{y}" for x in (-1, 0, 1) for y in (-1, 0, 1)} - {"0,0"}
    with pytest.raises(IllegalMoveError, match="does not touch any placed piece"):
        game.play(state, "2,0 Rm")
    state = game.play(state, "-1,-1 Rm")  # diagonal contact counts
    with pytest.raises(IllegalMoveError, match="span 5x1"):
        game.play(game.parse_position("0,0=Rs;1,0=Rs;2,0=Ys;3,0=Ym Bs"), "-1,0 Bm")


def test_no_grid_rule_matches_the_text() -> None:
    game = fourfold.load("folio", "no-grid")
    for seed in range(40):
        rng = random.Random(seed)
        state = game.initial_state()
        while game.outcome(state) is None:
            if state.hand is not None and state.placed:
                occ = state.occupied
                expected = set()
                for x in range(-4, 5):
                    for y in range(-4, 5):
                        touches = any(max(abs(x - a), abs(y - b)) == 1 for a, b in occ)
                        xs = [x] + [a for a, _ in occ]
                        ys = [y] + [b for _, b in occ]
                        fits = max(xs) - min(xs) <= 3 and max(ys) - min(ys) <= 3
                        if (x, y) not in occ and touches and fits:
                            expected.add(f"{x},{y}")
                assert cells_of(game, state) == expected
            state = game.apply(state, rng.choice(game.legal_moves(state)))


def test_fixed_grid_takes_any_empty_square() -> None:
    game = fourfold.load("folio", "fixed-grid")
    state = game.play(game.initial_state(), "Gs")
    assert len(cells_of(game, state)) == 16
    state = game.play(state, "a1 Rs")
    assert "a1" not in cells_of(game, state) and len(cells_of(game, state)) == 15
    with pytest.raises(NotationError, match="not on the board"):
        game.play(state, "e1 Rm")


def test_unreachable_positions_are_refused() -> None:
    with pytest.raises(NotationError, match="central square"):
        fourfold.load("folio", "standard").parse_position("a1=Rs Gs")
    with pytest.raises(NotationError, match="span 5x1"):
        fourfold.load("folio", "standard").parse_position("a4=Rs;e4=Rm Gs")
    with pytest.raises(NotationError, match="not connected"):
        fourfold.load("folio", "no-grid").parse_position("0,0=Rs;2,0=Rm Gs")
    with pytest.raises(NotationError, match="at 0,0"):
        fourfold.load("folio", "no-grid").parse_position("1,0=Rs Gs")
