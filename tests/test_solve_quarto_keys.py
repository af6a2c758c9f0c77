"""The placement solver's fast canonical keys equal the keys found by packing every candidate.

``kernel.least_key`` compares candidate keys field by field and packs only the winner;
``kernel.least_key_packed`` (the reference) packs every candidate. Both must give the same
key *and* the same maps (the table stores moves in the canonical frame, so another map of
the same key would change the search's move order, though not its values).
"""

from __future__ import annotations

from typing import Any

import pytest

from fourfold.games.placement.solver import Solver
from fourfold.games.placement.solver import kernel as k4
from fourfold.games.placement.solver.tables import ruleset_of
from support.placement_solver import BITS, GRIDS, load, position


@pytest.mark.parametrize(("name", "variant", "options"), GRIDS)
@pytest.mark.parametrize("dead_lines", [False, True])
def test_fast_keys_equal_packed_keys(
    name: str, variant: str | None, options: dict[str, Any], dead_lines: bool
) -> None:
    game = load(name, variant, options)
    solver = Solver(*ruleset_of(game), table_bits=BITS)
    solver.use_dead_lines(dead_lines)
    checked = 0
    symmetric = 0
    for placed in range(0, 14):
        for seed in range(8):
            state = position(game, placed, 100 * placed + seed)
            assert solver.load(state)
            fast = tuple(int(x) for x in k4.position_key(solver.tables, solver.work))
            packed = tuple(int(x) for x in k4.position_key_packed(solver.tables, solver.work))
            assert fast == packed, (game.format_position(state), fast, packed)
            checked += 1
            # positions with several board maps giving the least image test the tie-break
            images = solver.work.images[: solver.tables.params[k4.P_BOARD_MAPS]]
            symmetric += int((images == images.min()).sum() > 1)
    assert checked == 14 * 8
    assert symmetric > 10
