"""The split searches (``paired``): the helper takes searches from the shared list, and
the two scores bound the value exactly as the two whole searches in one thread do."""

from __future__ import annotations

from typing import Any

import pytest

from fourfold.games.placement.solver import kernel as k4
from fourfold.games.placement.solver import solver as placement_solver
from fourfold.games.placement.solver.helper import SearchHelper, helper_allowed
from fourfold.games.placement.solver.paired import move_positions, paired_scores
from support.placement_solver import BITS, GRIDS, load, position
from support.wait import wait_until


@pytest.mark.parametrize(("name", "variant", "options"), GRIDS)
def test_split_scores_bound_the_value(
    name: str, variant: str | None, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    if not helper_allowed():
        pytest.skip("one core: no helper")
    game = load(name, variant, options)
    answered: list[int] = []
    original = SearchHelper.answers

    def recording(self: SearchHelper, wait: bool = False) -> Any:
        out = original(self, wait)
        answered.extend(index for index, _, _ in out)
        return out

    monkeypatch.setattr(SearchHelper, "answers", recording)
    search = placement_solver.Solver.search
    helpers: list[SearchHelper] = []

    def after_the_helper(self: placement_solver.Solver, *args: Any) -> int:
        """This thread searches only once the helper has an answer waiting (so that the
        helper takes searches however fast this thread is)."""
        helper = helpers[-1]
        if self is not helper.solver and helper.busy:
            wait_until(lambda: not helper._answers.empty(), 120, "the helper's answer")
        return search(self, *args)

    signs = set()
    for seed in range(4):
        state = position(game, 8, seed)
        placement_solver.forget_solvers()
        alone = placement_solver.solver_for(game, BITS)
        alone.start(None, None)
        value = alone.exact(state, False)
        placement_solver.forget_solvers()
        solver = placement_solver.solver_for(game, BITS)
        solver.start(None, None)
        before = len(answered)
        helpers.append(SearchHelper(solver))
        try:
            with monkeypatch.context() as m:
                m.setattr(placement_solver.Solver, "search", after_the_helper)
                first, second = paired_scores(solver, game, state, helpers[-1])
        finally:
            helpers[-1].close()
        assert not helpers[-1]._thread.is_alive()
        assert (first >= 0) == (value >= 0)
        if value >= 0:
            assert (second >= 1) == (value > 0)
        assert solver.nodes > int(solver.work.st[k4.NODES])  # the helper's nodes count
        _, children = move_positions(game, solver, state)
        if value <= 0 and len(children) > 2:
            assert len(answered) - before >= 2  # the helper took several searches
            assert len(set(answered[before:])) == len(answered) - before
        signs.add(value)
    assert signs  # some positions were solved
