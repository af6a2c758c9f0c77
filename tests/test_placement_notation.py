"""Folio and Quarto notation (RULES.md §4): plies, cells, pieces and position strings."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fourfold
from fourfold.core.errors import FourfoldError, NotationError
from fourfold.games.placement.state import Ply


def test_plies_in_notation() -> None:
    game = fourfold.load("folio")
    start = game.initial_state()
    assert game.parse_move(start, "Gs") == Ply(None, 6)
    state = game.play(start, "Gs")
    assert game.parse_move(state, "d4 Rl") == Ply((3, 3), 2)
    assert game.parse_move(state, "  D4   rL ") == Ply((3, 3), 2)  # forgiving case and spaces
    assert game.format_move(state, Ply((3, 3), 2)) == "d4 Rl"
    assert game.parse_move(state, "d4") == Ply((3, 3), None)
    quarto = fourfold.load("quarto")
    assert quarto.format_move(quarto.initial_state(), Ply(None, 0b1111)) == "TDRH"
    assert quarto.parse_move(quarto.initial_state(), "sLqF") == Ply(None, 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("d4 Gs Rs", "too many parts"),
        ("z9 Gs", "bad cell 'z9'"),
        ("i1 Gs", "not on the board"),
        ("d4 Gx", "bad piece 'Gx'"),
        ("d4 Xs", "colour letter R, Y, G or B"),
    ],
)
def test_bad_plies_say_why(text: str, message: str) -> None:
    game = fourfold.load("folio")
    state = game.play(game.initial_state(), "Gs")
    with pytest.raises(NotationError, match=message):
        game.parse_move(state, text)


def test_position_strings() -> None:
    game = fourfold.load("folio", "fixed-grid")
    assert game.format_position(game.initial_state()) == "- -"
    state = game.play(game.play(game.initial_state(), "Gs"), "b2 Rl")
    assert game.format_position(state) == "b2=Gs Rl"
    assert game.parse_position("b2=Gs Rl") == state
    nogrid = fourfold.load("folio", "no-grid")
    s = nogrid.play(nogrid.play(nogrid.play(nogrid.initial_state(), "Gs"), "0,0 Rl"), "-1,1 Bm")
    assert nogrid.format_position(s) == "0,0=Gs;-1,1=Rl Bm"
    assert nogrid.parse_position("0,0=Gs;-1,1=Rl Bm") == s


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("b2=Gs", "expected two fields"),
        ("b2:Gs Rl", "not of the form cell=piece"),
        ("b2=Gs;b2=Rs Rl", "two pieces on b2"),
        ("a1=Rs;a2=Rs;a3=Rs Ym", "more Rs placed than the set holds"),
        ("a1=Gs Gs", "not left in the set"),
        ("a1=Gs -", "a piece must be in hand"),
        ("a1=Rs;a2=Ys;a3=Gs;a4=Bs Rm", "the game is over"),
    ],
)
def test_impossible_positions_say_why(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        fourfold.load("folio", "fixed-grid").parse_position(text)


def sample_strings(variant: str) -> list[str]:
    """Positions and plies from real games, the seeds of the mutation fuzzer."""
    game = fourfold.load("folio", variant)
    out = []
    rng = random.Random(variant)
    state = game.initial_state()
    while game.outcome(state) is None:
        move = rng.choice(game.legal_moves(state))
        out += [game.format_position(state), game.format_move(state, move)]
        state = game.apply(state, move)
    return out


SEEDS = {v: sample_strings(v) for v in ("standard", "fixed-grid", "no-grid")}
EDIT_CHARS = "abcdh0123489-,;=.RYGBsml TDLQHF\x00é"


@pytest.mark.parametrize("variant", list(SEEDS))
@given(data=st.data())
def test_mutated_strings_raise_only_notation_errors(variant: str, data: st.DataObject) -> None:
    game = fourfold.load("folio", variant)
    text = data.draw(st.sampled_from(SEEDS[variant]))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        ch = data.draw(st.sampled_from(EDIT_CHARS))
        if op == "insert":
            text = text[:i] + ch + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + ch + text[i + 1 :]
    try:
        state = game.parse_position(text)
        assert game.parse_position(game.format_position(state)) == state
    except NotationError:
        pass
    state = game.play(game.initial_state(), "Rs")
    with contextlib.suppress(FourfoldError):
        game.apply(state, game.parse_move(state, text))
