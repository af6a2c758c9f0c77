"""Folio's piece set: the extra pieces checked against set-up steps 1-3, and identical
pieces treated as one kind."""

from __future__ import annotations

from itertools import combinations_with_replacement, permutations

import pytest

import fourfold
from fourfold.core.errors import ConfigurationError
from fourfold.games.folio.pieces import check_extra, parse_extra, piece_name


def steps_allow(extra: tuple[int, ...]) -> bool:
    """Brute force over the text: step 2 picks a colour for each size, all different;
    step 3 adds any size in the colour step 2 left out."""
    wanted = sorted(extra)
    for colours in permutations(range(4), 3):
        step2 = [c * 3 + s for s, c in enumerate(colours)]
        left = ({0, 1, 2, 3} - set(colours)).pop()
        for size in range(3):
            if sorted([*step2, left * 3 + size]) == wanted:
                return True
    return False


def test_extra_sets_match_the_three_steps() -> None:
    accepted = 0
    for extra in combinations_with_replacement(range(12), 4):
        try:
            check_extra(extra)
            ok = True
        except ValueError:
            ok = False
        assert ok == steps_allow(extra), [piece_name(k) for k in extra]
        accepted += ok
    # four colours in some order (4! ways) with one of the three sizes doubled, counted
    # as sets: 3 choices of doubled size x C(4,2) colour pairs x 2 = 36
    assert accepted == 36


def test_extra_option_refuses_broken_sets_with_reasons() -> None:
    with pytest.raises(ConfigurationError, match="two extras are red"):
        fourfold.load("folio", extra="Rs,Rm,Gl,Bl")
    with pytest.raises(ConfigurationError, match="no small piece"):
        fourfold.load("folio", extra="Rm,Ym,Gl,Bl")
    with pytest.raises(ConfigurationError, match="4 pieces"):
        fourfold.load("folio", extra="Rs,Ym,Gl")
    with pytest.raises(ConfigurationError, match="colour letter"):
        fourfold.load("folio", extra="Rs,Ym,Gl,Xl")


def test_other_extra_sets_play() -> None:
    game = fourfold.load("folio", "fixed-grid", extra="Bs+Rm+Yl+Gm")
    assert parse_extra("Bs,Rm,Yl,Gm") == game.info.options["extra"]
    assert sum(game.pieces.counts) == 16
    assert [game.pieces.name(k) for k, n in enumerate(game.pieces.counts) if n == 2] == [
        "Rm", "Yl", "Gm", "Bs",
    ]
    assert game.info.option_strings()["extra"] == "Rm,Yl,Gm,Bs"


def test_identical_pieces_are_one_give() -> None:
    game = fourfold.load("folio")
    start = game.initial_state()
    opening = [game.format_move(start, m) for m in game.legal_moves(start)]
    assert len(opening) == 12 and len(set(opening)) == 12
    state = game.play(game.initial_state(), "Rs")
    state = game.play(state, "d4 Rs")  # the second small red can still be given
    assert state.supply[0] == 0
    with pytest.raises(fourfold.core.errors.IllegalMoveError, match="no Rs is left"):
        game.play(state, "e4 Rs")
