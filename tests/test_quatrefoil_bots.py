"""Quatrefoil bots: they act on their own view only, never stack wrongly, and solve."""

from __future__ import annotations

from typing import Any

import pytest

import fourfold
from fourfold.ai import make_bot
from fourfold.core.errors import ConfigurationError
from fourfold.core.outcome import Result
from fourfold.games.quatrefoil.arrangement import ALL_ARRANGEMENTS, STACK
from fourfold.games.quatrefoil.bots_seat import (
    QuatrefoilBot,
    consistent_deals,
    play_dual,
    play_turns,
)
from fourfold.games.quatrefoil.deals import DEALS
from fourfold.games.quatrefoil.solver import optimum

CASES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("base", {}),
    ("half-and-half", {"face-up": "colour"}),
    ("half-and-half", {"face-up": "position"}),
    ("race-the-clock", {}),
)


def won(game: Any, state: Any) -> bool:
    outcome = game.outcome(state)
    return outcome is not None and outcome.result is Result.TEAM_WIN


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_hidden_variants_are_always_won(variant: str, options: dict[str, Any]) -> None:
    game = fourfold.load("quatrefoil", variant, **options)
    for seed in range(150):
        result = play_turns(game, seed, seconds_per_action=5)
        assert won(game, result.state), seed
        assert result.actions <= 14


def test_nothing_to_hide_reaches_the_optimum_every_time() -> None:
    game = fourfold.load("quatrefoil", "nothing-to-hide")
    for seed in range(300):
        result = play_turns(game, seed)
        assert won(game, result.state)
        assert result.actions == optimum(result.state.start, result.state.deal.solution)


def test_dual_bots_cope_with_stale_refusals() -> None:
    game = fourfold.load("quatrefoil", "dual")
    refused = 0
    for seed in range(200):
        result = play_dual(game, seed, reaction=(0.5, 1.0), commit=0.6)
        assert won(game, result.state)
        assert result.actions == optimum(result.state.start, result.state.deal.solution)
        refused += result.refused
    assert refused > 0  # some decisions did arrive stale, and the bots chose again


def test_bots_stack_only_when_every_signal_is_up() -> None:
    game = fourfold.load("quatrefoil")
    for seed in range(80):
        state = game.initial_state(seed)
        while game.outcome(state) is None:
            seat = game.to_move(state)
            move = make_bot("quatrefoil", game, seat, seed).choose(game.view(state, seat))
            all_up = all(state.signals(state.arrangement))
            assert (move.action == STACK) == all_up
            state = game.apply(state, move)


@pytest.mark.parametrize("face_up", ["none", "colour", "position"])
def test_beliefs_always_hold_the_real_deal(face_up: str) -> None:
    variant = "base" if face_up == "none" else "half-and-half"
    options = {} if face_up == "none" else {"face_up": face_up}
    game = fourfold.load("quatrefoil", variant, **options)
    narrowed = 0
    for seed in range(60):
        state = game.initial_state(seed)
        real = (ALL_ARRANGEMENTS.index(state.deal.solution), state.deal.positions)
        bots = [QuatrefoilBot(game, p, seed) for p in range(4)]
        while game.outcome(state) is None:
            for seat in range(4):
                obs = game.view(state, seat).observation
                by_signals = [DEALS[d] for d in consistent_deals(obs)]
                by_actions = [DEALS[d] for d in bots[seat].belief(obs)]
                assert real in by_actions and set(by_actions) <= set(by_signals)
                narrowed += len(by_actions) < len(by_signals)
            seat = game.to_move(state)
            state = game.apply(state, bots[seat].choose(game.view(state, seat)))
    assert narrowed > 0  # reading the others' actions does tell a seat something


def test_a_bot_refuses_another_seats_view_and_other_games() -> None:
    game = fourfold.load("quatrefoil")
    bot = QuatrefoilBot(game, 1, 0)
    with pytest.raises(ConfigurationError, match="needs that seat's"):
        bot.choose(game.view(game.initial_state(0), 0))
    with pytest.raises(ConfigurationError):
        make_bot("quatrefoil", fourfold.load("quarto"), 0)
