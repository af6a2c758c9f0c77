"""Folio freeform notation: decimals, plies and positions round-trip; parsers raise only
NotationError on junk."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import fourfold
from fourfold.ai import make_bot
from fourfold.core.errors import FourfoldError, NotationError
from fourfold.games.folio.freeform.notation import (
    format_number,
    format_point,
    parse_number,
    parse_point,
)
from fourfold.games.folio.freeform.state import CHALLENGE, FreeformPly


def load(**options: Any) -> Any:
    return fourfold.load("folio", "freeform", **options)


@pytest.mark.parametrize(
    ("value", "text"),
    [(1.0, "1.0"), (0.0, "0.0"), (-0.0, "0.0"), (-0.5, "-0.5"), (1.25, "1.25"),
     (0.000001, "0.000001"), (-7.123456, "-7.123456"), (12.0, "12.0")],
)
def test_numbers(value: float, text: str) -> None:
    assert format_number(value) == text
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["1e3", "1.", ".5", "+1", "1.2345678", "nan", "inf", "1,5", ""])
def test_bad_numbers(text: str) -> None:
    with pytest.raises(ValueError):
        parse_number(text)


@given(
    x=st.integers(-8_000_000, 8_000_000),
    y=st.integers(-8_000_000, 8_000_000),
)
def test_points_round_trip(x: int, y: int) -> None:
    point = parse_point(f"{x / 1e6:.6f},{y / 1e6:.6f}")
    assert parse_point(format_point(point)) == point


def test_plies() -> None:
    game = load()
    start = game.initial_state()
    assert game.parse_move(start, "Gs") == FreeformPly(None, game.pieces.parse("Gs"))
    state = game.parse_position("0.0,0.0=Rs;1.5,0.25=Rl Ym")
    assert game.parse_move(state, "challenge") == CHALLENGE
    assert game.parse_move(state, "Challenge") == CHALLENGE
    move = game.parse_move(state, "1.25,-0.5 Gs")
    assert move == FreeformPly((1.25, -0.5), game.pieces.parse("Gs"))
    assert game.format_move(state, move) == "1.25,-0.5 Gs"
    assert game.parse_move(state, "1,0") == FreeformPly((1.0, 0.0), None)
    assert game.format_move(state, FreeformPly((1.0, 0.0), None)) == "1.0,0.0"
    assert game.format_move(state, CHALLENGE) == "challenge"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty move"),
        ("1.0,0.0 Gs Rs", "too many parts"),
        ("1.0 Gs", "a point is written x,y"),
        ("1.0,a Gs", "not a decimal number"),
        ("1.0,0.0 Qq", "bad piece"),
    ],
)
def test_bad_plies(text: str, reason: str) -> None:
    game = load()
    state = game.parse_position("0.0,0.0=Rs Ym")
    with pytest.raises(NotationError, match=reason):
        game.parse_move(state, text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("0.0,0.0=Rs", "expected the pieces"),
        ("1.0,0.0=Rs Ym", "the first piece goes at the centre"),
        ("0.0,0.0=Rs;0.5,0.0=Ym Gl", "at least 1.0 apart"),
        ("0.0,0.0=Rs;9.0,0.0=Ym Gl", "off the table"),
        ("0.0,0.0=Rs;1.0,0.0=Rs;2.0,0.0=Rs Gl", "more Rs placed"),
        ("0.0,0.0=Rs -", "a piece must be in hand"),
        ("0.0,0.0=Rs Rs Rs", "expected the pieces"),
        ("- - challenge", "a challenge needs"),
        ("0.0,0.0Rs Gl", "not of the form"),
        ("0.0,0.0=Rs;1.0,0.0=Ym;2.0,0.0=Gl;3.0,0.0=Bs;4.0,0.0=Bl Gs", "already over"),
    ],
)
def test_bad_positions(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason):
        load().parse_position(text)


def test_positions_round_trip_through_bot_games() -> None:
    game = load()
    for seed in range(2):
        bots = [make_bot("freeform", game, p, seed=seed + 10 * p) for p in (0, 1)]
        state = game.initial_state()
        while True:
            text = game.format_position(state)
            again = game.parse_position(text)
            assert again == state and game.format_position(again) == text
            if game.outcome(state) is not None:
                break
            player = game.to_move(state)
            move = bots[player].choose(game.view(state, player))
            assert game.parse_move(state, game.format_move(state, move)) == move
            state = game.apply(state, move)


def test_challenged_and_won_positions_round_trip() -> None:
    game = load()
    state = game.parse_position("0.0,0.0=Rs;1.0,0.0=Ym;2.0,0.0=Gl Bs")
    won = game.play(state, "3.0,0.0")
    assert game.format_position(won) == "0.0,0.0=Rs;1.0,0.0=Ym;2.0,0.0=Gl;3.0,0.0=Bs -"
    assert game.parse_position(game.format_position(won)) == won
    challenged = game.play(state, "challenge")
    text = game.format_position(challenged)
    assert text.endswith("Bs challenge")
    assert game.parse_position(text) == challenged


@given(text=st.text(max_size=60))
def test_parsers_raise_only_notation_errors(text: str) -> None:
    game = load()
    state = game.parse_position("0.0,0.0=Rs;1.5,0.25=Rl Ym")
    for parse in (lambda t: game.parse_move(state, t), game.parse_position,
                  lambda t: game.parse_move(game.initial_state(), t)):
        with contextlib.suppress(NotationError):
            parse(text)


@given(
    items=st.lists(
        st.tuples(
            st.floats(-9, 9, allow_nan=False), st.floats(-9, 9, allow_nan=False),
            st.sampled_from(["Rs", "Ym", "Gl", "Bs", "Bm", "Rl", "Zz"]),
        ),
        max_size=6,
    ),
    hand=st.sampled_from(["-", "Gs", "Rs", "x"]),
    tail=st.sampled_from(["", " challenge", " more"]),
)
def test_position_fuzz(items: list[tuple[float, float, str]], hand: str, tail: str) -> None:
    """Near-valid positions: either refused with a NotationError or read and round-tripped."""
    game = load()
    pieces = ";".join(f"{x:.2f},{y:.2f}={k}" for x, y, k in items) or "-"
    text = f"{pieces} {hand}{tail}"
    try:
        state = game.parse_position(text)
    except NotationError:
        return
    assert game.parse_position(game.format_position(state)) == state


@given(
    x=st.floats(-9, 9, allow_nan=False), y=st.floats(-9, 9, allow_nan=False),
    give=st.sampled_from(["", " Gs", " Rs", " Q"]),
)
def test_move_fuzz(x: float, y: float, give: str) -> None:
    game = load()
    state = game.parse_position("0.0,0.0=Rs;1.5,0.25=Rl Ym")
    text = f"{x:.3f},{y:.3f}{give}"
    try:
        move = game.parse_move(state, text)
    except NotationError:
        return
    assert game.parse_move(state, game.format_move(state, move)) == move
    with contextlib.suppress(FourfoldError):
        game.apply(state, move)


def test_moves_from_the_lattice_round_trip() -> None:
    game = load()
    state = game.parse_position("0.0,0.0=Rs Ym")
    moves = game.legal_moves(state)
    for move in random.Random(2).sample(moves, 50):
        assert game.parse_move(state, game.format_move(state, move)) == move
