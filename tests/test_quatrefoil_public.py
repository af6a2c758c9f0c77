"""Quatrefoil's optimum on public information (``fourfold.games.quatrefoil.solver_public``).

The search works on relative, symmetry-reduced per-seat card sets; the brute force
here works on explicit sets of ``Deal`` values at absolute arrangements, with the
engine's own signals, and finds the optimum by plain value iteration. They must agree
exactly. The full base-game figure is then checked against the full-information
optimum, the variants' order, and a replay of the optimal policy through the engine
on every deal from one start.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from itertools import permutations

import pytest

import fourfold
from fourfold.cli.main import main
from fourfold.core.outcome import Result
from fourfold.games.quatrefoil import ALL_ARRANGEMENTS, act
from fourfold.games.quatrefoil.arrangement import (
    MOVING_ACTIONS,
    Arrangement,
    parse_arrangement_text,
)
from fourfold.games.quatrefoil.solver import distance_table
from fourfold.games.quatrefoil.solver_public import (
    ALL_PAIRS,
    action_values,
    best_action,
    card_masks,
    expected_actions,
    pair_bit,
    public_optimum,
)
from fourfold.games.quatrefoil.state import Action, Deal, QuatrefoilState

POSITIONS = [tuple(p) for p in permutations(range(4))]
BASE_VALUE = Fraction(676, 119)

# -- brute force: value iteration over (arrangement, set of deals) --------------------------


def deals_allowed(masks: list[int], start: Arrangement, unsolved_start: bool) -> list[Deal]:
    """Every deal whose four (corner, colour) card pairs the masks allow."""
    out = []
    for solution in ALL_ARRANGEMENTS:
        if unsolved_start and solution == start:
            continue
        for p in POSITIONS:
            if all(masks[s] & pair_bit(p[s], solution[p[s]]) for s in range(4)):
                out.append(Deal(solution, (p[0], p[1], p[2], p[3])))
    return out


def brute_force(start: Arrangement, masks: list[int], unsolved_start: bool = True) -> Fraction:
    """The least expected number of actions (stack included) of a policy that sees only
    the arrangement and the signals, and stacks only when sure to win."""
    deals = deals_allowed(masks, start, unsolved_start)
    signal_cache: dict[tuple[int, Arrangement], tuple[bool, ...]] = {}

    def signals(d: int, arrangement: Arrangement) -> tuple[bool, ...]:
        key = (d, arrangement)
        if key not in signal_cache:
            signal_cache[key] = QuatrefoilState(deals[d], start).signals(arrangement)
        return signal_cache[key]

    def split(arrangement: Arrangement, members: frozenset[int]) -> list[frozenset[int]]:
        groups: dict[tuple[bool, ...], set[int]] = {}
        for d in members:
            groups.setdefault(signals(d, arrangement), set()).add(d)
        return [frozenset(g) for g in groups.values()]

    State = tuple[Arrangement, frozenset[int]]
    roots: list[State] = [(start, g) for g in split(start, frozenset(range(len(deals))))]
    children: dict[State, list[list[State]] | None] = {}
    todo = list(roots)
    while todo:
        state = todo.pop()
        if state in children:
            continue
        arrangement, members = state
        if all(deals[d].solution == arrangement for d in members):
            children[state] = None  # stack and win
            continue
        options = []
        for action in MOVING_ACTIONS:
            after = act(arrangement, action)
            option = [(after, g) for g in split(after, members)]
            options.append(option)
            todo.extend(option)
        children[state] = options
    # W(state) = |deals| * expected actions; iterate the Bellman equation from "unknown"
    # until nothing changes (each sweep extends the horizon by one action).
    total: dict[State, int | None] = {s: None for s in children}
    changed = True
    while changed:
        changed = False
        for state, choices in children.items():
            size = len(state[1])
            if choices is None:
                value: int | None = size
            else:
                sums = [sum(total[c] or 0 for c in option) for option in choices
                        if all(total[c] is not None for c in option)]
                value = size + min(sums) if sums else None
            if value != total[state]:
                total[state] = value
                changed = True
    parts = [total[r] for r in roots]
    assert all(v is not None for v in parts)
    return Fraction(sum(v or 0 for v in parts), len(deals))


def random_instance(rng: random.Random) -> tuple[Arrangement, list[int], bool]:
    """A start and per-seat masks around a random true deal, a few extra pairs each,
    drawn until 4 to 16 deals and at least 3 solutions are possible (so that the
    brute force stays quick and the instance needs some searching)."""
    while True:
        solution = rng.choice(ALL_ARRANGEMENTS)
        p = rng.sample(range(4), 4)
        unsolved = rng.random() < 0.8
        start = rng.choice([a for a in ALL_ARRANGEMENTS if a != solution or not unsolved])
        masks = []
        for s in range(4):
            mask = pair_bit(p[s], solution[p[s]])
            for _ in range(rng.randint(3, 8)):
                mask |= pair_bit(rng.randrange(4), rng.randrange(5))
            masks.append(mask)
        deals = deals_allowed(masks, start, unsolved)
        if 4 <= len(deals) <= 16 and len({d.solution for d in deals}) >= 3:
            return start, masks, unsolved


@pytest.mark.parametrize("seed", range(20))
def test_search_matches_brute_force_on_small_instances(seed: int) -> None:
    start, masks, unsolved = random_instance(random.Random(seed))
    assert expected_actions(start, masks, unsolved) == brute_force(start, masks, unsolved)


def test_small_instances_are_not_trivial() -> None:
    # Signals alone cost something on most of them: the brute force is really tested.
    harder = 0
    for seed in range(20):
        start, masks, unsolved = random_instance(random.Random(seed))
        deals = deals_allowed(masks, start, unsolved)
        table = distance_table()
        here = ALL_ARRANGEMENTS.index(start)
        full = Fraction(sum(table[here][ALL_ARRANGEMENTS.index(d.solution)] + 1
                            for d in deals), len(deals))
        value = expected_actions(start, masks, unsolved)
        assert value >= full
        harder += value > full
    assert harder >= 15


@pytest.mark.parametrize("start", ["RGBY/P", "BGPR/Y", "YRGB/P", "PYRG/B"])
def test_search_matches_brute_force_with_colour_cards_face_up(start: str) -> None:
    # Half and Half with the colour cards up: 24 deals (which seat holds which corner).
    arrangement = parse_arrangement_text(start)
    masks = list(card_masks([None] * 4, [0, 1, 2, 3]))
    assert expected_actions(arrangement, masks) == brute_force(arrangement, masks)


def test_a_known_solution_costs_its_distance() -> None:
    start = parse_arrangement_text("RGBY/P")
    solution = parse_arrangement_text("YBRG/P")
    masks = card_masks([0, 1, 2, 3], [solution[0], solution[1], solution[2], solution[3]])
    d = distance_table()[ALL_ARRANGEMENTS.index(start)][ALL_ARRANGEMENTS.index(solution)]
    assert expected_actions(start, masks) == d + 1


# -- the variants' figures -----------------------------------------------------------------


def test_nothing_to_hide_is_the_full_information_optimum() -> None:
    table = distance_table()
    pairs = [(i, j) for i in range(120) for j in range(120) if i != j]
    full = Fraction(sum(table[i][j] + 1 for i, j in pairs), len(pairs))
    assert full == Fraction(405, 119)  # 3.403
    assert public_optimum("all").value == full


def test_base_game_value_and_order_of_variants() -> None:
    base = public_optimum("none")
    assert base.cases == 2856  # 120 solutions x 24 dealings, less the 24 solved at start
    assert base.value == BASE_VALUE  # 5.681
    colour = public_optimum("colour").value
    position = public_optimum("position").value
    full = public_optimum("all").value
    # More face-up cards never hurt a public policy.
    assert full <= colour <= base.value
    assert full <= position <= base.value
    assert (colour, position) == (Fraction(491, 119), Fraction(583, 119))
    # The public optimum is above the full-information one (3.41) and, since the bots
    # also use their own cards and read each other's actions, above their measured mean
    # in the base game (4.66 over 10,000 deals, docs/quatrefoil.md): private cards are
    # worth about one action.
    assert Fraction(341, 100) < base.value
    assert 4.66 < float(base.value) < 4.66 + 1.5


def test_unknown_face_up_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="face_up"):
        public_optimum("some")


def test_optimal_public_policy_replayed_through_the_engine() -> None:
    """Every deal from one start, played by the engine with the policy reading only the
    public part of a seat's view: always won, and the mean is exactly the value."""
    game = fourfold.load("quatrefoil")
    start = parse_arrangement_text("RGBY/P")
    total = games = 0
    for solution in ALL_ARRANGEMENTS:
        if solution == start:
            continue
        for p in POSITIONS:
            state = QuatrefoilState(Deal(solution, (p[0], p[1], p[2], p[3])), start)
            while game.outcome(state) is None:
                seat = game.to_move(state)
                assert seat is not None
                obs = game.view(state, seat).observation
                actions = [a for _, a in obs.history]
                state = game.apply(state, Action(best_action(obs.start, actions, obs.signals)))
            outcome = game.outcome(state)
            assert outcome is not None and outcome.result is Result.TEAM_WIN
            total += state.version
            games += 1
    assert games == 2856
    assert Fraction(total, games) == BASE_VALUE


def test_action_values_at_the_start_and_when_solved() -> None:
    start = parse_arrangement_text("RGBY/P")
    signals = [(False, False, False, False)]
    values = action_values(start, [], signals)
    assert sorted(values) == list(MOVING_ACTIONS)
    # The 1,272 deals with no token in place: 7,560 actions in all, the first included.
    assert min(values.values()) == Fraction(7560, 1272)
    solved = [(True, True, True, True)]
    assert action_values(start, [], solved, (ALL_PAIRS,) * 4) == {10: Fraction(1)}
    with pytest.raises(ValueError, match="signals"):
        action_values(start, [0], signals)


def test_solve_command_public(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "quatrefoil", "--public", "--face-up", "all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == "405/119" and data["face_up"] == "all"
    assert main(["solve", "quatrefoil", "--public", "--start", "RGBY/P"]) == 2
    assert "drop --start" in capsys.readouterr().err
    assert main(["solve", "quatrefoil"]) == 2
    assert "needs --start and --solution" in capsys.readouterr().err
