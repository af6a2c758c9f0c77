"""The rollout improvement behind the ``optimal`` bot (``solver_team.improve``): its table
is what the command computes, its totals are what the evaluator and the engine measure,
and it is never worse than the heuristic rule it starts from. And the tighter lower
bound (``solver_team.bound_first``): its search is exhaustive, and it lies between the
old bound and the policy.

The full runs are commands (docs/solutions.md); these tests redo the small starts.
"""

from __future__ import annotations

import random
from itertools import product

from fourfold.ai import make_bot
from fourfold.games.quatrefoil.arrangement import ALL_ARRANGEMENTS, INDEX, MOVING_ACTIONS
from fourfold.games.quatrefoil.solver_team import bound, bound_first, improve
from fourfold.games.quatrefoil.solver_team.cases import IDENTITY, Case, cases
from fourfold.games.quatrefoil.solver_team.evaluate import evaluate, pattern, play_case
from fourfold.games.quatrefoil.solver_team.policy import _PAIRS, WEIGHTS, choose
from fourfold.games.quatrefoil.solver_team.rollout_table import (
    BOUND_START,
    DEPTHS,
    ROLLOUT,
    TOTALS,
)
from fourfold.games.quatrefoil.state import Deal, QuatrefoilState
from support.quatrefoil_team_replay import game_for, replay

HERE = INDEX[IDENTITY]


def _root_cases(face_up: str, first: int) -> list[Case]:
    return [c for c in cases(face_up)
            if c[0] == IDENTITY and pattern(c[0], c[1], c[2]) == first]


def _redo(face_up: str, first: int) -> tuple[int, int, dict[improve.Key, improve.Changes]]:
    """The improved total, the rule's, and the table entries, for one start of play."""
    weight = WEIGHTS[face_up]
    rollout = improve.Rollout(weight)
    (cards, _), deals = next((k, v) for k, v in improve.roots(face_up, weight).items()
                             if k[1] == first)
    total, walk = improve.improve_opening(rollout, DEPTHS[face_up], cards, first, deals,
                                          BOUND_START)
    return total, rollout.value(deals, HERE, 0), walk.changes


def test_table_covers_the_rules_it_claims() -> None:
    assert set(DEPTHS) == set(TOTALS) >= {"none", "position"}
    for face_up, (total, rule_total, n) in TOTALS.items():
        assert total <= rule_total
        assert n == len(cases(face_up))
    weights = {WEIGHTS[f] for f in DEPTHS}
    assert all(key[0] in weights and len(key[2]) < max(DEPTHS.values()) for key in ROLLOUT)


def test_base_table_entries_are_what_the_command_computes() -> None:
    """Two starts of play with 24 deals each: the walk gives the table's entries for
    them (one changes the rule, 112 to 108 actions; one leaves it at 96)."""
    for first, rule_total, improved in ((7, 112, 108), (13, 96, 96)):
        total, by_rule, changes = _redo("none", first)
        assert (by_rule, total) == (rule_total, improved)
        mine = {k: v for k, v in ROLLOUT.items() if k[0] == WEIGHTS["none"]
                and k[1] == ((None, None),) * 4 and k[3][0] == first}
        assert mine == changes
        # the bot reads the table: the evaluator and the engine measure the same total
        found = _root_cases("none", first)
        assert len(found) == 24
        assert evaluate(choose, "none", found).total == improved
        game = game_for("none")
        for start, solution, positions in found[::6]:
            assert replay(game, "optimal", start, solution, positions) == \
                (play_case(choose, "none", (start, solution, positions))[0], True)


def test_position_up_policy_meets_the_lower_bound_on_a_start() -> None:
    """With the position cards up, the improved policy's total on the deals opening
    with no signal up equals the relaxation's there: optimal on those deals."""
    first = 0
    total, _, changes = _redo("position", first)
    assert all(ROLLOUT[k] == v for k, v in changes.items())
    found = _root_cases("position", first)
    assert evaluate(choose, "position", found).total == total
    deals = [(INDEX[s], p) for _, s, p in found]
    assert bound.relaxed_total(deals, HERE, 0) == total


def test_improvement_never_costs_more_than_the_rule() -> None:
    rollout = improve.Rollout(WEIGHTS["none"])
    roots = improve.roots("none", WEIGHTS["none"])
    for (_, first), deals in sorted(roots.items(), key=lambda kv: len(kv[1]))[:4]:
        table = rollout.improve(deals, HERE, 0)
        groups: dict[int, list[int]] = {}
        for d in deals:
            groups.setdefault(table[_PAIRS[d][0]], []).append(d)
        improved = len(deals) + sum(rollout.after(tuple(g), HERE, a, 0)
                                    for a, g in groups.items())
        assert improved <= rollout.value(deals, HERE, 0), first
    assert ALL_ARRANGEMENTS[HERE] == IDENTITY


def _opening_deals(face_up: str, first: int) -> list[bound.Deal]:
    return [(INDEX[s], p) for _, s, p in _root_cases(face_up, first)]


def test_first_exact_bound_search_is_exhaustive_on_small_openings() -> None:
    """The branch and bound's least total equals trying every prescription: on an
    opening where the first seat may hold 4 pairs, and on one where it may hold 16,
    cut down to the deals of 5 of them (10^5 prescriptions)."""
    cut = _opening_deals("none", 2)
    kept = sorted({bound._pair(d, 0) for d in cut})[::3][:5]
    for deals in (_opening_deals("none", 7), [d for d in cut if bound._pair(d, 0) in kept]):
        found = bound_first.opening(deals, HERE)
        search = bound_first._Search(deals, HERE)
        pairs = sorted(search.by_pair)
        assert len(pairs) in (4, 5)
        least = min(search._value(dict(zip(pairs, choice, strict=True)))
                    for choice in product(MOVING_ACTIONS, repeat=len(pairs)))
        assert found.total == least
        assert found.singles <= found.total
        assert search._value(found.prescription) == found.total


def test_first_exact_bound_lies_between_the_old_bound_and_the_policy() -> None:
    """Per opening: at least the old relaxation's total, at most what the optimal bot's
    policy takes over the same deals (it is a lower bound on every policy)."""
    for first in (7, 13, 3):
        deals = _opening_deals("none", first)
        found = bound_first.opening(deals, HERE)
        played = evaluate(choose, "none", _root_cases("none", first)).total
        assert bound.relaxed_total(deals, HERE, 0) <= found.total <= played
    # position cards up: the bound meets the policy on every case
    assert bound_first.first_exact_bound("position").total == TOTALS["position"][0] == 500


def test_later_seats_choose_from_their_view_only() -> None:
    """With the rollout table in play: after the first two actions, deals that look the
    same to seat 2 (its own cards, the start, the actions, every signal) get the same
    action from its bot, whatever the other seats hold."""
    game = game_for("none")
    bots = [make_bot("optimal", game, k, 0) for k in range(4)]
    seen: dict[tuple[str, object], set[int]] = {}
    found = [c for c in cases("none") if pattern(*c) == 0]
    for start, solution, positions in random.Random(21).sample(found, 300):
        state = QuatrefoilState(Deal(solution, positions), start)
        for seat in (0, 1):
            state = game.apply(state, bots[seat].choose(game.view(state, seat)))
        if game.outcome(state) is not None:
            continue
        view = game.view(state, 2)
        key = (game.view_position(view), view.observation.signals)
        seen.setdefault(key, set()).add(bots[2].choose(view).action)
    assert all(len(actions) == 1 for actions in seen.values())
    assert len(seen) < 300  # some views were shared by several deals
