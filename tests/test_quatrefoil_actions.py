"""Quatrefoil's arrangements and the eleven actions, checked against the rule text."""

from __future__ import annotations

import pytest

import fourfold
from fourfold.core.errors import NotationError
from fourfold.games.quatrefoil import ACTION_NAMES, ALL_ARRANGEMENTS, act
from fourfold.games.quatrefoil.arrangement import (
    CCW,
    CW,
    MOVING_ACTIONS,
    STACK,
    format_arrangement,
    parse_arrangement_text,
)

START = "RGBY/P"  # R on NW, G on NE, B on SW, Y on SE; P free

# Worked by hand from RULES.md §3: the free token P enters the named corner from the
# named side; the token on that corner moves along the row or column to the far
# corner; the token there is ejected and becomes the free token.
EXPECTED = {
    "W>NW": "PRBY/G",  # top row slides east: R to NE, G ejected
    "N>NW": "PGRY/B",  # left column slides south: R to SW, B ejected
    "E>NE": "GPBY/R",  # top row slides west: G to NW, R ejected
    "N>NE": "RPBG/Y",  # right column slides south: G to SE, Y ejected
    "W>SW": "RGPB/Y",  # bottom row slides east: B to SE, Y ejected
    "S>SW": "BGPY/R",  # left column slides north: B to NW, R ejected
    "E>SE": "RGYP/B",  # bottom row slides west: Y to SW, B ejected
    "S>SE": "RYBP/G",  # right column slides north: Y to NE, G ejected
    "cw": "BRYG/P",    # NW to NE, NE to SE, SE to SW, SW to NW
    "ccw": "GYRB/P",
    "stack": "RGBY/P",
}


@pytest.mark.parametrize("name", ACTION_NAMES)
def test_each_action_on_an_arrangement(name: str) -> None:
    start = parse_arrangement_text(START)
    after = act(start, ACTION_NAMES.index(name))
    assert format_arrangement(after) == EXPECTED[name]


def test_the_rules_examples_of_pushes_into_nw() -> None:
    # "entering NW from the west moves NW to NE and ejects NE; entering NW from the north
    # moves NW to SW and ejects SW"
    a = parse_arrangement_text("RGBY/P")
    west = act(a, ACTION_NAMES.index("W>NW"))
    north = act(a, ACTION_NAMES.index("N>NW"))
    assert (west[0], west[1], west[4]) == (a[4], a[0], a[1])
    assert (north[0], north[2], north[4]) == (a[4], a[0], a[2])


def test_every_action_is_a_permutation_with_an_inverse() -> None:
    inverse = {"W>NW": "E>NE", "N>NW": "S>SW", "N>NE": "S>SE", "W>SW": "E>SE", "cw": "ccw"}
    inverse.update({v: k for k, v in list(inverse.items())})
    for arrangement in ALL_ARRANGEMENTS:
        for a in MOVING_ACTIONS:
            after = act(arrangement, a)
            assert sorted(after) == sorted(arrangement)
            assert after != arrangement
            back = ACTION_NAMES.index(inverse[ACTION_NAMES[a]])
            assert act(after, back) == arrangement
        assert act(arrangement, STACK) == arrangement
        four = arrangement
        for _ in range(4):
            four = act(four, CW)
        assert four == arrangement
        assert act(act(arrangement, CW), CCW) == arrangement


def test_pushed_token_ends_on_the_corner_named() -> None:
    corners = {"NW": 0, "NE": 1, "SW": 2, "SE": 3}
    for name in ACTION_NAMES[:8]:
        corner = corners[name.split(">")[1]]
        for arrangement in ALL_ARRANGEMENTS[:20]:
            assert act(arrangement, ACTION_NAMES.index(name))[corner] == arrangement[4]


def test_arrangement_notation_round_trips_and_refuses_junk() -> None:
    assert len(ALL_ARRANGEMENTS) == 120 and len(set(ALL_ARRANGEMENTS)) == 120
    for arrangement in ALL_ARRANGEMENTS:
        assert parse_arrangement_text(format_arrangement(arrangement)) == arrangement
    assert parse_arrangement_text("rgby/p") == parse_arrangement_text("RGBY/P")
    for bad in ("RGBY", "RGBYP", "RGBY/R", "RGBQ/P", "RGBY/PP", ""):
        with pytest.raises(ValueError):
            parse_arrangement_text(bad)


def test_move_notation_of_turn_based_variants() -> None:
    game = fourfold.load("quatrefoil")
    state = game.initial_state(5)
    for move in game.legal_moves(state):
        text = game.format_move(state, move)
        assert game.parse_move(state, text) == move
        assert game.parse_move(state, text.lower()) == move
    assert [game.format_move(state, m) for m in game.legal_moves(state)] == list(ACTION_NAMES)
    with pytest.raises(NotationError, match="not an action"):
        game.parse_move(state, "N>SE")
    with pytest.raises(NotationError, match="time is not a move"):
        game.parse_move(state, "wait 3")


def test_perft_counts() -> None:
    from fourfold.core.perft import perft_table

    game = fourfold.load("quatrefoil")
    # 11 actions; every non-stack action leads on to 11 more.
    assert perft_table(game, 3) == [(1, 11), (2, 10 * 11 + 0), (3, 10 * 10 * 11)]


def test_turns_go_one_two_three_four() -> None:
    game = fourfold.load("quatrefoil")
    state = game.initial_state(1)
    seen = []
    for _ in range(6):
        seen.append(game.to_move(state))
        state = game.play(state, "cw")
    assert seen == [0, 1, 2, 3, 0, 1]
    assert [game.player_name(p) for p in range(4)] == [f"Player {n}" for n in range(1, 5)]


def test_the_ending_counts_its_actions_in_words() -> None:
    game = fourfold.load("quatrefoil")
    state = game.initial_state(1)
    first = game.outcome(game.play(state, "stack"))
    assert first is not None and first.reason.startswith("stacked after 1 action with ")
    later = game.outcome(game.play(game.play(state, "cw"), "stack"))
    assert later is not None and later.reason.startswith("stacked after 2 actions with ")
