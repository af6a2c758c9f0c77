"""The conformance checks every game passes, built-in or added from outside (OpenSpiel's
``random_sim_test`` in spirit): seeded random games to the end, checking at every step
that the protocol's parts agree with each other."""

from __future__ import annotations

import contextlib
import copy
import random
from typing import Any

import pytest

from fourfold.core.errors import FourfoldError, IllegalMoveError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.record import format_record, parse_record


def check_state(game: Game[Any, Any], state: Any, rng: random.Random) -> None:
    moves = list(game.legal_moves(state))
    over = game.outcome(state) is not None
    assert over == (not moves), "moves exist exactly while the game is not over"
    assert (game.to_move(state) is None) == over or game.actors(state)
    # the mask and the move list agree, and every move round-trips through its action
    mask = game.legal_action_mask(state)
    assert len(mask) == game.num_actions
    actions = [game.encode(m) for m in moves]
    assert len(set(actions)) == len(actions), "two moves share an action number"
    assert sorted(actions) == [a for a, legal in enumerate(mask) if legal]
    for move, action in zip(moves, actions, strict=True):
        assert game.decode(action) == move
    # notation round trips (for a sample of moves: some states have hundreds)
    for move in rng.sample(moves, min(len(moves), 40)):
        text = game.format_move(state, move)
        assert game.parse_move(state, text) == move, text
    text = game.format_position(state)
    assert game.format_position(game.parse_position(text)) == text
    for player in range(game.num_players):
        view = game.view(state, player)
        assert view.player == player
    # an action outside the mask is refused with IllegalMoveError, never applied
    illegal = [a for a, legal in enumerate(mask) if not legal]
    if illegal and not over:
        with pytest.raises(IllegalMoveError):
            game.apply(state, game.decode(rng.choice(illegal)))


def check_random_games(game: Game[Any, Any], games: int) -> None:
    """``games`` seeded random games to the end: every state checked, ``apply`` pure, and
    each record replays to the same game."""
    for seed in range(games):
        rng = random.Random(seed)
        match: Match[Any, Any] = Match(game, game.initial_state(seed), date="2026-11-22")
        while match.outcome is None:
            state = match.state
            check_state(game, state, rng)
            before = copy.deepcopy(state)
            move = rng.choice(list(game.legal_moves(state)))
            match.play(move)
            assert state == before, "apply changed its input"
        check_state(game, match.state, rng)
        text = format_record(match.referee_record())
        replayed = Match.from_record(parse_record(text))
        assert replayed.moves == match.moves
        assert replayed.state == match.state
        assert replayed.outcome == match.outcome
        assert format_record(replayed.referee_record()) == text


def check_parsers_on_junk(game: Game[Any, Any], text: str) -> None:
    """The parsers refuse junk with a ``FourfoldError``, never another exception."""
    state = game.initial_state(0)
    for parse in (lambda t: game.parse_move(state, t), game.parse_position):
        with contextlib.suppress(FourfoldError):
            parse(text)


def check_move_after_the_end(game: Game[Any, Any]) -> None:
    """A move after the end is refused, saying the game is over."""
    rng = random.Random(7)
    state = game.initial_state(7)
    last_move = None
    while game.outcome(state) is None:
        last_move = rng.choice(list(game.legal_moves(state)))
        state = game.apply(state, last_move)
    assert list(game.legal_moves(state)) == []
    with pytest.raises(IllegalMoveError, match="over"):
        game.apply(state, last_move)
