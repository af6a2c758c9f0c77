"""The second core (``helper``) changes no value: paired searches against one process.

A solve with ``workers=2`` hands the "at least a draw?" search of early positions to
a helper process. Here the helper is allowed on every position (``HELPER_MAX_PLACED``
raised for the test) so that positions cheap enough for a test go through it, and
every move's value and distance is compared with the solve in one process and, on
positions small enough, with the brute-force negamax over the readable rules.
"""

from __future__ import annotations

import pytest

from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.solver import SolveLimitReached, solve_position
from fourfold.games.placement.solver import solver as placement_solver
from fourfold.games.placement.solver.helper import SearchHelper, helper_allowed
from support.placement_solver import GRIDS, check_against_brute, load, position

BITS = 16


@pytest.fixture
def helper_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    if not helper_allowed():
        pytest.skip("one core: solve_position never starts a helper")
    monkeypatch.setattr(placement_solver, "HELPER_MAX_PLACED", 16)


def started_helpers(monkeypatch: pytest.MonkeyPatch) -> list[SearchHelper]:
    """Record every helper ``solve_position`` starts (to show the paired path ran)."""
    started: list[SearchHelper] = []
    original = SearchHelper.__init__

    def recording(self: SearchHelper, *args: object) -> None:
        original(self, *args)  # type: ignore[arg-type]
        started.append(self)

    monkeypatch.setattr(SearchHelper, "__init__", recording)
    return started


@pytest.mark.parametrize(("name", "variant", "options"), GRIDS)
def test_paired_values_are_those_of_one_process(
    name: str, variant: str | None, options: dict[str, object],
    helper_everywhere: None, monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = load(name, variant, options)
    assert isinstance(game, PlacementGame)
    started = started_helpers(monkeypatch)
    state = position(game, 8, 5)
    placement_solver.forget_solvers()
    alone = solve_position(game, state, table_bits=BITS)
    placement_solver.forget_solvers()
    paired = solve_position(game, state, table_bits=BITS, workers=2)
    assert (paired.value, paired.distance) == (alone.value, alone.distance)
    assert sorted(paired.moves, key=repr) == sorted(alone.moves, key=repr)
    placement_solver.forget_solvers()
    first = solve_position(game, state, table_bits=BITS, rank_moves=False, workers=2)
    assert (first.value, first.distance) == (alone.value, alone.distance)
    assert len(started) == 2  # one helper per paired solve, each closed at its end
    assert all(not h._proc.is_alive() for h in started)


def test_paired_values_agree_with_brute_force(
    helper_everywhere: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load("quarto", None, {})
    started = started_helpers(monkeypatch)
    placement_solver.forget_solvers()
    check_against_brute(game, position(game, 11, 1), workers=2)
    assert len(started) == 1


def test_paired_limit_raises_and_stops_the_helper(
    helper_everywhere: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load("quarto", None, {})
    started = started_helpers(monkeypatch)
    with pytest.raises(SolveLimitReached):
        solve_position(game, position(game, 1, 3), limit=0.5, table_bits=BITS, workers=2)
    assert len(started) == 1 and not started[0]._proc.is_alive()
    easy = position(game, 12, 3)
    placement_solver.forget_solvers()
    alone = solve_position(game, easy, table_bits=BITS)
    assert solve_position(game, easy, table_bits=BITS, workers=2).moves == alone.moves


def test_node_budget_keeps_one_process(
    helper_everywhere: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A node budget is for results that repeat exactly: no helper then."""
    game = load("quarto", None, {})
    started = started_helpers(monkeypatch)
    solve_position(game, position(game, 10, 1), table_bits=BITS, nodes=10**7, workers=2)
    assert started == []
