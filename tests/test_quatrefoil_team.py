"""Quatrefoil's team with private cards (issue 34): the evaluator, the policy behind the
``optimal`` bot, the proven lower bound, and an independent replay through the rules.

The figures over every deal are commands (docs/solutions.md); these tests use samples.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from fourfold.ai import bots_for, make_bot
from fourfold.core.errors import ConfigurationError
from fourfold.core.registry import load
from fourfold.games.quatrefoil.arrangement import INDEX
from fourfold.games.quatrefoil.solver_team import bound
from fourfold.games.quatrefoil.solver_team.cases import cases
from fourfold.games.quatrefoil.solver_team.cases import every_deal as every_deal_of_rules
from fourfold.games.quatrefoil.solver_team.evaluate import (
    bots_policy,
    evaluate,
    play_case,
    public_policy,
)
from fourfold.games.quatrefoil.solver_team.policy import choose
from fourfold.games.quatrefoil.state import Deal, QuatrefoilState
from support.quatrefoil_team_replay import every_deal, game_for, replay
from support.server import Server

FACE_UPS = ("none", "colour", "position")


def _sample(face_up: str, n: int, seed: int = 34) -> list:
    found = cases(face_up)
    return random.Random(seed).sample(found, min(n, len(found)))


def test_every_deal_is_the_rules_deal_space() -> None:
    deals = every_deal_of_rules()
    assert len(deals) == len(set(deals)) == 120 * 119 * 24
    assert all(start != solution for start, solution, _ in deals[::997])


def test_cases_match_the_independent_enumeration() -> None:
    for face_up in (*FACE_UPS, "all"):
        assert sorted(cases(face_up)) == sorted(every_deal(face_up))
    assert [len(cases(f)) for f in ("none", "colour", "position", "all")] == [2856, 2856, 119, 119]


@pytest.mark.parametrize("face_up", FACE_UPS)
def test_engine_replay_agrees_with_the_evaluator_deal_by_deal(face_up: str) -> None:
    game = game_for(face_up)
    for start, solution, positions in _sample(face_up, 25):
        mine = play_case(choose, face_up, (start, solution, positions))
        assert replay(game, "optimal", start, solution, positions) == (mine[0], True)
        assert mine[1]


def test_engine_replay_of_todays_bots_agrees_with_the_evaluator() -> None:
    game = game_for("none")
    policy = bots_policy()
    for start, solution, positions in _sample("none", 15, seed=7):
        n, won = play_case(policy, "none", (start, solution, positions))
        assert replay(game, "quatrefoil", start, solution, positions) == (n, won)


def test_any_start_is_a_relabelled_case() -> None:
    """The optimal bot's figures use one start: relabelling the tokens so that the start
    is the identity must give the same number of actions, on deals from the whole space.
    (Today's bots are not symmetric so exactly; their figure uses every deal.)"""
    game = game_for("none")
    bot, policy = "optimal", choose
    rng = random.Random(3)
    for _ in range(8):
        start = tuple(rng.sample(range(5), 5))
        solution = start
        while solution == start:
            solution = tuple(rng.sample(range(5), 5))
        positions = tuple(rng.sample(range(4), 4))
        label = {token: slot for slot, token in enumerate(start)}  # start -> identity
        relabelled = tuple(label[t] for t in solution)
        direct = replay(game, bot, start, solution, positions)  # type: ignore[arg-type]
        assert direct == play_case(policy, "none", ((0, 1, 2, 3, 4), relabelled, positions))


def test_public_policy_through_the_evaluator_gives_the_public_optimum() -> None:
    figure = evaluate(public_policy, "all")
    assert figure.won == figure.cases == 119
    assert figure.mean == Fraction(405, 119)  # Nothing to Hide: the full-information optimum


def test_optimal_bot_wins_and_never_stacks_unsolved_on_a_sample() -> None:
    figure = evaluate(choose, "none", _sample("none", 60, seed=11))
    assert figure.won == figure.cases == 60
    assert figure.longest <= 12


def test_bound_is_the_full_information_optimum_when_all_is_face_up() -> None:
    assert bound.lower_bound("all").value == Fraction(405, 119)


def test_bound_is_below_the_policy_on_every_cell_it_decides() -> None:
    """The relaxation can copy any team policy deal by deal, so on each cell of deals it
    cannot tell apart before its first action (start signals, first seat's pair) its
    total is at most the policy's, here on cells of the position-face-up game."""
    start = (0, 1, 2, 3, 4)
    deals = [(INDEX[s], p) for _, s, p in cases("position")]
    cells: dict[tuple[int, tuple[int, int]], list] = {}
    for d in deals:
        cells.setdefault((bound._signals(INDEX[start], d), bound._pair(d, 0)), []).append(d)
    checked = 0
    for key, cell in sorted(cells.items())[:12]:
        relaxed = bound._decide(cell, INDEX[start], 0)
        from fourfold.games.quatrefoil.arrangement import ALL_ARRANGEMENTS
        played = sum(play_case(choose, "position", (start, ALL_ARRANGEMENTS[s], p))[0]
                     for s, p in cell)
        assert relaxed <= played, key
        full = sum(bound.distance_table()[INDEX[start]][s] + 1 for s, _ in cell)
        assert full <= relaxed
        checked += 1
    assert checked == 12


def test_bot_choice_depends_only_on_its_view() -> None:
    """Deals that look the same to seat 1 (same own cards, same start and signals) get
    the same first action from it, whatever the other seats hold."""
    game = game_for("none")
    start = (0, 1, 2, 3, 4)
    seen: dict[tuple[str, object], set[int]] = {}
    for _, solution, positions in _sample("none", 400, seed=5):
        state = QuatrefoilState(Deal(solution, positions), start)
        view = game.view(state, 0)
        move = make_bot("optimal", game, 0, 0).choose(view)
        key = (game.view_position(view), view.observation.signals)
        seen.setdefault(key, set()).add(move.action)
    assert all(len(actions) == 1 for actions in seen.values())
    assert len(seen) < 400  # some views were shared by several deals


def test_optimal_bot_is_offered_where_it_plays() -> None:
    assert "optimal" in bots_for(load("quatrefoil", "base"))
    assert "optimal" in bots_for(load("quatrefoil", "half-and-half", **{"face-up": "colour"}))
    assert "optimal" in bots_for(load("quatrefoil", "race-the-clock"))
    assert "optimal" not in bots_for(load("quatrefoil", "dual"))
    with pytest.raises(ConfigurationError, match="Dual"):
        make_bot("optimal", load("quatrefoil", "dual"), 0)
    with pytest.raises(ConfigurationError, match="only Quatrefoil"):
        make_bot("optimal", load("dao"), 0)


def test_server_seats_bot_optimal_and_refuses_it_in_dual(tmp_path: Path) -> None:
    """``bot:optimal`` on a real server (loopback): four of them win a base table and a
    Half and Half one; Dual refuses the bot with a one-line reason."""
    server = Server(tmp_path)
    server.start()
    try:
        api = server.client()
        for body in ({}, {"variant": "half-and-half", "options": {"face-up": "position"}}):
            made = api.create(game="quatrefoil", seats=["bot:optimal"] * 4, **body)
            state = api.wait(made["id"], None, lambda s: s["status"] == "finished", 60)
            assert state["outcome"]["result"] == "team-win"
        refused = api.http.post("/api/tables", json={"game": "quatrefoil", "variant": "dual",
                                                     "seats": ["bot:optimal"] * 4})
        assert refused.status_code == 422
        assert "not Dual" in refused.json()["error"]
    finally:
        server.stop()


def test_optimal_bots_with_a_seat_off_the_policy_never_stack_unsolved() -> None:
    """Seat 1 plays random moving actions (a person the policy cannot read): the three
    optimal bots must still choose legal actions and never stack unsolved."""
    game = game_for("none")
    rng = random.Random(8)
    bots = [make_bot("optimal", game, k, 0) for k in range(4)]
    for seed in range(6):
        state = game.initial_state(seed)
        while game.outcome(state) is None and state.version < 120:
            seat = game.to_move(state)
            if seat == 0:
                move = game.decode(rng.randrange(10))
            else:
                move = bots[seat].choose(game.view(state, seat))
            state = game.apply(state, move)
        outcome = game.outcome(state)
        assert outcome is None or outcome.result.value == "team-win"
