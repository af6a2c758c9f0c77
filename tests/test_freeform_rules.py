"""Folio freeform rules: placement, challenges won and lost, wins on turned grids, the
strict option, the draw, dense actions and the freeform bot."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import fourfold
from fourfold.ai import make_bot
from fourfold.core.errors import ConfigurationError, FourfoldError, IllegalMoveError
from fourfold.core.match import Match
from fourfold.core.outcome import Result
from fourfold.core.record import format_record, parse_record
from fourfold.games.folio.freeform.notation import format_point
from fourfold.games.folio.freeform.state import CHALLENGE, FreeformPly, FreeformState
from support.freeform import ROW, on_grid, position


def load(**options: Any) -> Any:
    return fourfold.load("folio", "freeform", **options)


# -- placement ---------------------------------------------------------------------------


def test_the_first_piece_goes_at_the_centre() -> None:
    game = load()
    state = game.play(game.initial_state(), "Gs")
    assert game.to_move(state) == 0
    with pytest.raises(IllegalMoveError, match="centre"):
        game.play(state, "1.0,0.0 Rs")
    state = game.play(state, "0.0,0.0 Rs")
    assert state.pieces == ((0.0, 0.0, game.pieces.parse("Gs")),)


@pytest.mark.parametrize(
    ("ply", "reason"),
    [
        ("0.5,0.5 Ym", "pieces must be at least 1.0 apart"),
        ("8.5,0.0 Ym", "off the table"),
        ("1.0,0.0", "you must give"),
        ("1.0,0.0 Rs", "no Rs is left"),
        ("1.0000001,0.0 Ym", "decimal places"),
    ],
)
def test_placement_rules(ply: str, reason: str) -> None:
    game = load()
    state = game.parse_position("0.0,0.0=Rs;2.0,0.0=Rs Gm")
    with pytest.raises(FourfoldError, match=reason):
        game.play(state, ply)


def test_pieces_may_touch_at_exactly_one() -> None:
    game = load()
    state = game.parse_position("0.0,0.0=Rs Gm")
    state = game.play(state, "0.6,0.8 Ym")
    assert state.placed == 2


def test_any_decimal_point_can_be_played_off_the_action_lattice() -> None:
    game = load()
    state = game.parse_position("0.0,0.0=Rs Gm")
    move = game.parse_move(state, "1.234567,0.1 Ym")
    assert move not in game.legal_moves(state)
    state = game.apply(state, move)
    assert state.pieces[-1][:2] == (1.234567, 0.1)
    with pytest.raises(FourfoldError, match="action lattice"):
        game.encode(move)


# -- challenges -------------------------------------------------------------------------


def test_a_challenge_against_a_fitting_position_loses() -> None:
    game = load()
    state = game.parse_position("0.0,0.0=Rs;1.2,0.1=Gm;2.3,-0.1=Bl Yl")
    assert state.broken is None
    end = game.apply(state, CHALLENGE)
    outcome = game.outcome(end)
    assert outcome.result is Result.WIN and outcome.winner == 0  # player 2 challenged
    assert "a grid fits all 3 pieces" in outcome.reason and "scale" in outcome.reason
    assert game.legal_moves(end) == []


def test_a_challenge_after_the_opponent_broke_the_grid_wins() -> None:
    game = load()
    state = game.parse_position(ROW)
    state = game.play(state, "4.0,0.0 Bm")  # player 1 puts a fifth piece in the row
    assert state.broken == 5
    end = game.play(state, "challenge")
    outcome = game.outcome(end)
    assert outcome.winner == 1
    assert "after placement 5" in outcome.reason and "Player 1" in outcome.reason
    assert "fitted the 4 before it" in outcome.reason


def test_the_challenger_who_broke_the_grid_loses() -> None:
    game = load()
    state = game.parse_position(ROW)
    state = game.play(state, "4.0,0.0 Bm")  # player 1 breaks the grid
    state = game.play(state, "0.0,3.0 Gs")  # player 2 does not challenge
    end = game.play(state, "challenge")  # player 1 challenges: they broke it first
    outcome = game.outcome(end)
    assert outcome.winner == 1 and "after placement 5" in outcome.reason


def test_a_challenge_needs_a_piece_on_the_table() -> None:
    game = load()
    with pytest.raises(IllegalMoveError, match="nothing to challenge"):
        game.play(game.initial_state(), "challenge")
    state = game.play(game.initial_state(), "Gs")
    with pytest.raises(IllegalMoveError, match="nothing to challenge"):
        game.play(state, "challenge")


def test_after_the_grid_breaks_nobody_can_win() -> None:
    game = load()
    state = game.parse_position("0.0,0.0=Rs;1.0,0.0=Ym;2.0,0.0=Gl Rm")
    state = game.play(state, "7.0,7.0 Bs")  # far away: no grid holds it with the row
    assert state.broken == 4
    state = game.play(state, "3.0,0.0 Yl")  # the row now has all four colours
    assert game.outcome(state) is None


# -- winning ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("angle", "scale", "cells"),
    [
        (0.0, 1.0, [(0, 0), (1, 0), (2, 0), (3, 0)]),
        (30.0, 1.3, [(0, 1), (1, 1), (2, 1), (3, 1)]),
        (-50.0, 1.7, [(2, 0), (2, 1), (2, 2), (2, 3)]),
        (63.0, 1.25, [(0, 0), (1, 1), (2, 2), (3, 3)]),
        (17.0, 1.9, [(3, 0), (0, 3), (1, 2), (2, 1)]),
    ],
)
def test_a_line_of_four_wins_on_a_turned_grid(
    angle: float, scale: float, cells: list[tuple[int, int]]
) -> None:
    game = load()
    points = on_grid(angle, scale, cells)
    state = game.parse_position(position(points[:3], ["Rs", "Ym", "Gl"], "Bs"))
    assert game.to_move(state) == 1
    winning = FreeformPly(game.parse_move(state, points[3]).place, None)
    assert game.illegal_reason(state, winning) is None
    with pytest.raises(IllegalMoveError, match="wins the game, so no piece is given"):
        game.play(state, f"{points[3]} Rm")
    end = game.play(state, points[3])
    outcome = game.outcome(end)
    assert outcome.result is Result.WIN and outcome.winner == 1
    assert "line of four" in outcome.reason and "all four colours" in outcome.reason
    assert "grid origin" in outcome.reason


def test_a_winning_point_may_be_off_centre() -> None:
    game = load()
    points = on_grid(30.0, 1.3, [(0, 1), (1, 1), (2, 1), (3, 1)])
    x, y = (float(v) for v in points[3].split(","))
    nudged = format_point((round(x + 0.1, 6), round(y - 0.05, 6)))
    state = game.parse_position(position(points[:3], ["Rs", "Ym", "Gl"], "Bs"))
    assert game.outcome(game.play(state, nudged)).winner == 1


def test_no_win_when_the_line_rule_fails() -> None:
    game = load()
    points = on_grid(20.0, 1.4, [(0, 0), (1, 0), (2, 0), (3, 0)])
    state = game.parse_position(position(points[:3], ["Rs", "Ym", "Rs"], "Ym"))
    with pytest.raises(IllegalMoveError, match="must give"):
        game.play(state, points[3])
    after = game.play(state, f"{points[3]} Gs")
    assert game.outcome(after) is None
    # the same line wins under the other line rule: all four small ... not here; but
    # four of one size do
    other = load(line_rule="same-colour-or-size")
    state = other.parse_position(position(points[:3], ["Rs", "Ys", "Gs"], "Bs"))
    outcome = other.outcome(other.play(state, points[3]))
    assert outcome.winner == 1 and "all small" in outcome.reason


def test_no_win_off_the_line() -> None:
    game = load()
    points = on_grid(10.0, 1.5, [(0, 0), (1, 0), (2, 0), (1, 2)])
    state = game.parse_position(position(points[:3], ["Rs", "Ym", "Gl"], "Bs"))
    assert game.outcome(game.play(state, f"{points[3]} Rm")) is None


def test_winning_moves_in_the_move_list_match_apply() -> None:
    game = load()
    points = on_grid(0.0, 1.5, [(0, 0), (1, 0), (2, 0), (3, 0)])
    state = game.parse_position(position(points[:3], ["Rs", "Ym", "Gl"], "Bs"))
    wins = [m for m in game.legal_moves(state) if not m.challenge and m.give is None]
    assert wins, "some lattice point near 4.5,0 completes the row"
    assert ((4.5, 0.0)) in {m.place for m in wins}
    for move in wins:
        assert game.outcome(game.apply(state, move)).winner == 1
    sample = random.Random(0).sample(
        [m for m in game.legal_moves(state) if m.give is not None], 40
    )
    for move in sample:
        assert game.outcome(game.apply(state, move)) is None


# -- strict play and the end ------------------------------------------------------------


def test_strict_refuses_unfittable_placements() -> None:
    game = load(strict=True)
    state = game.parse_position(ROW)
    with pytest.raises(IllegalMoveError, match="no notional grid fits"):
        game.play(state, "4.0,0.0 Bm")
    moves = game.legal_moves(state)
    assert (4.0, 0.0) not in {m.place for m in moves}
    assert (1.0, 1.0) in {m.place for m in moves}
    for move in random.Random(1).sample([m for m in moves if not m.challenge], 30):
        assert game.apply(game.apply(state, move), CHALLENGE).ended.winner == 0
    with pytest.raises(FourfoldError, match="impossible"):
        game.parse_position("0.0,0.0=Rs;1.0,0.0=Rs;2.0,0.0=Ym;3.0,0.0=Ym;4.0,0.0=Yl Bm")


def test_the_sixteenth_piece_ends_in_a_draw_even_unfitted() -> None:
    game = load()
    rng = random.Random(4)
    kinds = [game.pieces.name(k) for k, n in enumerate(game.pieces.counts) for _ in range(n)]
    rng.shuffle(kinds)
    points = ["0.0,0.0"] + [f"{x}.0,{y}.0" for x in (-6, -3, 0, 3, 6) for y in (-6, -3, 3, 6)]
    points = points[:16]
    state = game.parse_position(position(points[:15], kinds[:15], kinds[15]))
    assert state.broken is not None
    end = game.play(state, points[15])
    outcome = game.outcome(end)
    assert outcome.result is Result.DRAW and game.legal_moves(end) == []


@pytest.mark.parametrize("value", ["0", "0.5", "x"])
def test_bad_tolerance_is_refused(value: str) -> None:
    with pytest.raises(ConfigurationError, match="tolerance"):
        load(tolerance=value)


def test_tolerance_and_table_options() -> None:
    loose = load(tolerance="0.3")
    tight = load(tolerance="0.05")
    text = "0.0,0.0=Rs;1.25,0.15=Gm;2.5,-0.1=Bl Yl"
    assert loose.parse_position(text).broken is None
    assert tight.parse_position(text).broken == 3
    small = load(table="6")
    with pytest.raises(IllegalMoveError, match="off the table"):
        small.play(small.parse_position("0.0,0.0=Rs Gm"), "3.5,0.0 Ym")


# -- actions, records and the bot -------------------------------------------------------


def test_actions_round_trip() -> None:
    game = load()
    state = game.parse_position("0.0,0.0=Rs;1.5,0.0=Gm Bl")
    moves = game.legal_moves(state)
    assert moves[-1] == CHALLENGE and game.encode(CHALLENGE) == game.num_actions - 1
    for move in moves[:: max(1, len(moves) // 200)]:
        assert game.decode(game.encode(move)) == move
    with pytest.raises(FourfoldError, match="not in"):
        game.decode(game.num_actions)


def test_a_challenge_record_replays() -> None:
    game = load()
    match: Match[FreeformState, FreeformPly] = Match(game, date="2026-11-22")
    for ply in ["Rs", "0.0,0.0 Rs", "1.0,0.0 Ym", "2.0,0.0 Ym", "3.0,0.0 Yl",
                "4.0,0.0 Bm", "challenge"]:
        match.play_text(ply)
    text = format_record(match.referee_record())
    again = Match.from_record(parse_record(text))
    assert again.state == match.state and again.outcome == match.outcome
    assert game.format_position(match.state).endswith(" challenge")


def play_bots(game: Any, seed: int) -> tuple[Any, list[Any]]:
    bots = [make_bot("freeform", game, p, seed=seed * 2 + p) for p in (0, 1)]
    state = game.initial_state()
    states = [state]
    while game.outcome(state) is None:
        player = game.to_move(state)
        state = game.apply(state, bots[player].choose(game.view(state, player)))
        states.append(state)
    return state, states


@pytest.mark.parametrize("seed", range(3))
def test_the_bot_keeps_the_grid_and_plays_to_the_end(seed: int) -> None:
    game = load()
    end, states = play_bots(game, seed)
    assert all(s.broken is None for s in states)
    assert game.grid(end) is not None
    assert game.outcome(end).result in (Result.WIN, Result.DRAW)
    assert game.outcome(end).reason.startswith(("line of four", "all pieces"))


def test_the_bot_challenges_exactly_when_it_wins() -> None:
    game = load()
    broken = game.play(
        game.parse_position(ROW), "4.0,0.0 Bm"
    )
    assert make_bot("freeform", game, 1, seed=1).choose(game.view(broken, 1)) == CHALLENGE
    later = game.play(broken, "0.0,3.0 Gs")  # player 2 let it pass; player 1 broke it
    move = make_bot("freeform", game, 0, seed=1).choose(game.view(later, 0))
    assert move != CHALLENGE
    fitting = game.parse_position("0.0,0.0=Rs;1.2,0.1=Gm;2.3,-0.1=Bl Yl")
    move = make_bot("freeform", game, 1, seed=1).choose(game.view(fitting, 1))
    assert move != CHALLENGE and game.apply(fitting, move).broken is None


def test_the_bot_takes_a_win() -> None:
    game = load()
    points = on_grid(30.0, 1.3, [(0, 1), (1, 1), (2, 1), (3, 1)])
    state = game.parse_position(position(points[:3], ["Rs", "Ym", "Gl"], "Bs"))
    move = make_bot("freeform", game, 1, seed=3).choose(game.view(state, 1))
    assert game.outcome(game.apply(state, move)).winner == 1


def test_the_bot_refuses_other_games() -> None:
    with pytest.raises(ConfigurationError, match="freeform"):
        make_bot("freeform", fourfold.load("folio"), 0)


@pytest.mark.parametrize("strict", [False, True])
def test_the_move_list_agrees_with_the_rules_at_every_point(strict: bool) -> None:
    """The move list finds winning and (strict) fitting points through a necessary filter;
    check it against the rules themselves at a sample of lattice points."""
    game = load(strict=strict)
    points = on_grid(25.0, 1.4, [(0, 0), (1, 0), (2, 0), (0, 1), (1, 2)])
    state = game.parse_position(position(points, ["Rs", "Ym", "Gl", "Bm", "Gs"], "Bs"))
    moves = game.legal_moves(state)
    places = {m.place for m in moves if m.place is not None}
    wins = {m.place for m in moves if m.place is not None and m.give is None}
    free = [p for p in game.lattice
            if all(math.dist(p, q) >= 1 for q in state.points)]
    sample = random.Random(5).sample(free, 120) + sorted(wins)
    assert wins
    for point in sample:
        won, broken = game.after(state, point)
        assert (won is not None) == (point in wins), point
        legal = not strict or won is not None or broken is None
        assert legal == (point in places), point
