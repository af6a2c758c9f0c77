"""Quatrefoil Dual (real time, versioned actions) and the clock of the timed variants."""

from __future__ import annotations

import pytest

import fourfold
from fourfold.core.errors import IllegalMoveError, NotationError
from fourfold.core.outcome import Result
from fourfold.games.quatrefoil import ACTION_NAMES, CORNERS
from fourfold.games.quatrefoil.arrangement import push_corner
from fourfold.games.quatrefoil.state import Action
from fourfold.table import ManualClock, Table, TableError


def dual(**options: object) -> tuple[object, object]:
    game = fourfold.load("quatrefoil", "dual", **options)
    return game, game.initial_state(9)


def test_every_seat_may_act_and_pushes_are_only_into_own_corner() -> None:
    game, state = dual()
    assert game.to_move(state) is None
    assert game.actors(state) == (0, 1, 2, 3)
    for seat in range(4):
        corner = state.deal.positions[seat]
        own = [m for m in game.legal_moves(state) if m.seat == seat]
        names = sorted(ACTION_NAMES[m.action] for m in own)
        pushes = [n for n in names if ">" in n]
        assert len(own) == 5 and len(pushes) == 2
        assert all(n.endswith(">" + CORNERS[corner]) for n in pushes)
        assert {"cw", "ccw", "stack"} <= set(names)
        view_moves = game.view_legal_moves(game.view(state, seat))
        assert sorted(game.encode(m) for m in view_moves) == sorted(game.encode(m) for m in own)
        other = next(a for a in range(8) if not ACTION_NAMES[a].endswith(CORNERS[corner]))
        with pytest.raises(IllegalMoveError, match="own position card"):
            game.apply(state, Action(other, seat, 0))


def test_simultaneous_actions_first_lands_second_is_refused_as_stale() -> None:
    game, state = dual()
    # Two seats choose on the same version 0; seat 2's twist lands first.
    first = game.parse_move(state, "2:cw@0")
    second = game.parse_move(state, "4:ccw@0")
    after = game.apply(state, first)
    assert after.version == 1
    with pytest.raises(IllegalMoveError) as refused:
        game.apply(after, second)
    message = str(refused.value)
    assert "stale" in message and "version 0" in message and "Player 2 cw" in message
    assert "current version is 1" in message
    # Chosen again on the new version, it lands.
    again = game.apply(after, Action(9, 3, 1))
    assert again.history == ((1, 8), (3, 9))
    # A version from the future is refused too.
    with pytest.raises(IllegalMoveError, match="does not exist yet"):
        game.apply(again, Action(8, 0, 7))


def test_dual_move_notation() -> None:
    game, state = dual()
    for move in game.legal_moves(state):
        text = game.format_move(state, move)
        parsed = game.parse_move(state, text)
        assert parsed == move and parsed.version == move.version == 0
    assert game.parse_move(state, " 3 : cw @ 0 ") == Action(8, 2, 0)
    for bad in ("cw", "5:cw@0", "1:cw", "1:spin@0", "1:cw@x"):
        with pytest.raises(NotationError):
            game.parse_move(state, bad)
    # A dense action decodes to "on the current version".
    move = game.decode(game.encode(Action(8, 1, 0)))
    assert move.version is None and game.format_move(state, move) == "2:cw@0"


def test_dual_has_no_signals_and_a_public_solution() -> None:
    game, state = dual()
    obs = game.view(state, 0).observation
    assert obs.signals is None and obs.solution == state.deal.solution
    assert obs.colour_cards == (None, None, None, None)
    assert obs.position_cards[0] == state.deal.positions[0]


def test_dual_stack_on_the_solution_wins() -> None:
    from fourfold.games.quatrefoil.solver import solve

    game, state = dual()
    for a in solve(state.start, state.deal.solution):
        corner = push_corner(a)
        seat = 0 if corner is None else state.deal.positions.index(corner)
        state = game.apply(state, Action(a, seat, state.version))
    outcome = game.outcome(state)
    assert outcome is not None and outcome.result is Result.TEAM_WIN


def test_race_the_clock_expiry_loses() -> None:
    game = fourfold.load("quatrefoil", "race-the-clock")
    clock = ManualClock()
    table = Table(game, start=game.initial_state(3), clock=clock)
    assert game.clock == 120 and table.clocks() == (120.0,)
    table.play(0, "cw")
    clock.advance(100)
    table.advance()
    assert table.outcome is None and table.clocks() == (20.0,)
    assert table.actors() == (1,)  # time passing does not pass the turn
    with pytest.raises(NotationError, match="time is not a move"):
        game.parse_move(game.initial_state(3), "wait 5")
    assert table.next_deadline() == 120.0
    clock.advance(20)
    table.advance()
    outcome = table.outcome
    assert outcome is not None and outcome.result is Result.TEAM_LOSS
    assert "clock ran out" in outcome.reason
    with pytest.raises(TableError, match="over"):
        table.play(1, "stack")


def test_race_the_clock_win_before_expiry_and_injectable_length() -> None:
    from fourfold.games.quatrefoil.solver import solve

    game = fourfold.load("quatrefoil", "race-the-clock", clock_seconds=10)
    clock = ManualClock()
    start = game.initial_state(8)
    table = Table(game, start=start, clock=clock)
    for i, a in enumerate(solve(start.start, start.deal.solution)):
        clock.advance(1)
        table.play(i % 4, ACTION_NAMES[a])
    outcome = table.outcome
    assert outcome is not None and outcome.result is Result.TEAM_WIN
    assert table.next_deadline() is None


def test_dual_clock_is_optional() -> None:
    assert fourfold.load("quatrefoil", "dual").clock is None
    game = fourfold.load("quatrefoil", "dual", clock="true", clock_seconds=5)
    clock = ManualClock()
    table = Table(game, start=game.initial_state(2), clock=clock)
    clock.advance(5)
    table.advance()
    outcome = table.outcome
    assert outcome is not None and outcome.result is Result.TEAM_LOSS
    # a stale Dual action is refused by the table with the reason
    game = fourfold.load("quatrefoil", "dual")
    table = Table(game, start=game.initial_state(9), clock=ManualClock())
    table.play(1, "2:cw@0")
    with pytest.raises(TableError, match="stale"):
        table.play(3, "4:ccw@0")
