"""The second core (``helper``) changes no value: paired searches against one process.

A solve with ``workers=2`` shares the searches of early positions with a helper
thread. Here the helper is allowed on every position (``HELPER_MAX_PLACED``
raised for the test) so that positions cheap enough for a test go through it, and
every move's value and distance is compared with the solve in one process and, on
positions small enough, with the brute-force negamax over the readable rules.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from fourfold.core.errors import FourfoldError
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.solver import SolveLimitReached, paired, solve_position
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
    assert all(not h._thread.is_alive() for h in started)


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
    assert len(started) == 1 and not started[0]._thread.is_alive()
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


def record_rounds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, list[paired.Item]]]:
    """Record each round of searches ``paired_scores`` hands out: its size, and the items
    (split into parts or whole) it is about."""
    rounds: list[tuple[int, list[paired.Item]]] = []
    items: list[paired.Item] = []
    split = paired.split_item
    work = paired._work_through

    def splitting(*args: Any) -> paired.Item:
        item = split(*args)
        items.append(item)
        return item

    def working(solver: Any, helper: Any, deadline: Any, size: int, *rest: Any) -> None:
        rounds.append((size, list(items)))
        work(solver, helper, deadline, size, *rest)

    monkeypatch.setattr(paired, "SPLIT_MAX_PLACED", 16)  # split where it is cheap to test
    monkeypatch.setattr(paired, "split_item", splitting)
    monkeypatch.setattr(paired, "_work_through", working)
    return rounds


def test_quarto_items_are_split_into_parts(
    helper_everywhere: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Quarto the searches are handed out as parts of groups (items the rules or the
    table settle, or whose guess loses at once, go whole), and the values are those of
    one process."""
    game = load("quarto", None, {})
    state = position(game, 8, 3)
    placement_solver.forget_solvers()
    alone = solve_position(game, state, table_bits=BITS, rank_moves=False)
    rounds = record_rounds(monkeypatch)
    placement_solver.forget_solvers()
    both = solve_position(game, state, table_bits=BITS, rank_moves=False, workers=2)
    assert (both.value, both.distance) == (alone.value, alone.distance)
    size, items = rounds[0]
    assert any(item.group for item in items)
    assert size > len(items)


def test_wrong_guesses_are_searched_again_whole(
    helper_everywhere: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guesses made wrong on purpose (the last legal move instead of the search's first)
    fail a part: those items are searched whole in a second round, and every value and
    distance is still that of one process and of the brute-force negamax."""
    game = load("quarto", None, {})
    rounds = record_rounds(monkeypatch)

    def last_move(self: Any, state: Any) -> Any:
        return game.legal_moves(state)[-1]

    monkeypatch.setattr(placement_solver.Solver, "first_move", last_move)
    state = position(game, 11, 1)
    placement_solver.forget_solvers()
    check_against_brute(game, state, workers=2)
    # a second round: one with no item split since the round before it
    assert any(len(now) == len(before) for (_, before), (_, now) in itertools.pairwise(rounds))
    state = position(game, 10, 3)
    placement_solver.forget_solvers()
    alone = solve_position(game, state, table_bits=BITS)  # no guesses in one process
    placement_solver.forget_solvers()
    assert solve_position(game, state, table_bits=BITS, workers=2).moves == alone.moves


def test_a_failing_helper_is_an_error_not_a_hang(
    helper_everywhere: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search that fails in the helper thread reaches the caller as one clear error,
    and the helper is stopped."""
    game = load("quarto", None, {})
    started = started_helpers(monkeypatch)
    original = SearchHelper.__init__

    def failing(self: SearchHelper, *args: Any) -> None:
        original(self, *args)

        def search(*_: Any) -> int:
            raise RuntimeError("a broken search")

        self.solver.search = search  # type: ignore[method-assign]

    monkeypatch.setattr(SearchHelper, "__init__", failing)
    placement_solver.forget_solvers()
    with pytest.raises(FourfoldError, match="helper failed: RuntimeError: a broken search"):
        solve_position(game, position(game, 9, 1), table_bits=BITS, workers=2)
    assert len(started) == 1 and not started[0]._thread.is_alive()
