"""Quatrefoil pictures show only the viewer's observation: no hidden card leaks."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

import fourfold
from fourfold.games.quatrefoil.arrangement import ALL_ARRANGEMENTS, TOKENS
from fourfold.games.quatrefoil.state import Action, Deal, QuatrefoilState
from fourfold.render.svg import draw_svg, svg_for_state

HIDDEN = ["base", "half-and-half", "race-the-clock", "dual"]  # nothing-to-hide hides none
ACTIONS = [(0, 0), (1, 8), (2, 3), (3, 9), (0, 5)]  # (seat, action) pairs, no stack


def twins(variant: str) -> tuple[QuatrefoilState, QuatrefoilState]:
    """Two states in play with the same public view that differ in hidden cards (after
    some actions where signals allow it, else at the start)."""
    for history in (tuple(ACTIONS), ()):
        found = _twins(variant, history)
        if found is not None:
            return found
    raise AssertionError("no twin deal found")


def _twins(variant: str, history: tuple[tuple[int, int], ...]
           ) -> tuple[QuatrefoilState, QuatrefoilState] | None:
    game = fourfold.load("quatrefoil", variant)
    start = ALL_ARRANGEMENTS[7]
    if game.dual:
        history = tuple((seat, a) for seat, a in history if a >= 8)
    seen: dict[object, QuatrefoilState] = {}
    for solution in ALL_ARRANGEMENTS:
        if solution == start:
            continue
        for positions in itertools.permutations(range(4)):
            deal = Deal(solution, (positions[0], positions[1], positions[2], positions[3]))
            state = QuatrefoilState(deal, start, history)
            public = game.view(state, None).observation
            if public in seen:
                return seen[public], state
            seen[public] = state
    return None


@pytest.mark.parametrize("variant", HIDDEN)
def test_a_spectator_picture_does_not_depend_on_hidden_cards(variant: str) -> None:
    game = fourfold.load("quatrefoil", variant)
    a, b = twins(variant)
    assert game.outcome(a) is None
    last = Action(5)
    assert draw_svg(game, game.view(a, None), last_move=last) == draw_svg(
        game, game.view(b, None), last_move=last)


def test_base_spectator_sees_only_face_down_cards() -> None:
    game = fourfold.load("quatrefoil", "base")
    state = game.initial_state(3)
    root = ET.fromstring(svg_for_state(game, state))
    values = {el.get("data-value") for el in root.iter() if el.get("data-card")}
    assert values == {"?"}


def test_a_seat_sees_its_own_cards_and_every_signal() -> None:
    game = fourfold.load("quatrefoil", "base")
    state = game.initial_state(3)
    root = ET.fromstring(draw_svg(game, game.view(state, 1)))
    cards = {(el.get("data-seat"), el.get("data-card")): el.get("data-value")
             for el in root.iter() if el.get("data-card") in ("colour", "position")}
    assert cards["2", "colour"] == TOKENS[state.deal.colour(1)]
    assert all(v == "?" for (seat, _), v in cards.items() if seat != "2")
    signals = [el.get("data-signal") for el in root.iter() if el.get("data-signal")]
    assert len(signals) == 4


def test_a_finished_game_shows_every_card_and_the_solution() -> None:
    game = fourfold.load("quatrefoil", "base")
    state = game.apply(game.initial_state(3), Action(10))
    root = ET.fromstring(svg_for_state(game, state, Action(10)))
    values = {el.get("data-value") for el in root.iter() if el.get("data-card")}
    assert "?" not in values
    assert any(el.get("data-corner", "").startswith("solution") for el in root.iter())


def test_dual_has_no_signals() -> None:
    game = fourfold.load("quatrefoil", "dual")
    root = ET.fromstring(svg_for_state(game, game.initial_state(2)))
    assert not [el for el in root.iter() if el.get("data-signal")]
