"""A saved transposition table loads back into the same solver and nowhere else."""

from __future__ import annotations

from pathlib import Path

import pytest

import fourfold
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.solver import Solver
from fourfold.games.placement.solver.table_file import TableFileError, load_table, save_table
from fourfold.games.placement.solver.tables import ruleset_of
from fourfold.games.placement.solver_bench import random_position

BITS = 14


def folio_same() -> PlacementGame:
    game = fourfold.load("folio", "fixed-grid", line_rule="same-colour-or-size")
    assert isinstance(game, PlacementGame)
    return game


def test_a_reloaded_table_gives_the_same_value_with_less_work(tmp_path: Path) -> None:
    game = folio_same()
    state = random_position(game, 7, 1)
    first = Solver(*ruleset_of(game), table_bits=BITS)
    first.start(None, None)
    value = first.exact(state, True)
    work = first.nodes
    path = tmp_path / "table.npy"
    save_table(first, path)
    second = Solver(*ruleset_of(game), table_bits=BITS)
    load_table(second, path)
    assert (second.work.tt == first.work.tt).all()
    second.start(None, None)
    assert second.exact(state, True) == value
    assert second.nodes < work


def test_a_table_of_another_solver_is_refused(tmp_path: Path) -> None:
    game = folio_same()
    path = tmp_path / "table.npy"
    save_table(Solver(*ruleset_of(game), table_bits=BITS), path)
    cover = fourfold.load("folio", "fixed-grid")
    assert isinstance(cover, PlacementGame)
    other = Solver(*ruleset_of(cover), table_bits=BITS)
    before = other.work.tt.copy()
    with pytest.raises(TableFileError, match="pieces 'folio-share'"):
        load_table(other, path)
    with pytest.raises(TableFileError, match="entries"):
        load_table(Solver(*ruleset_of(game), table_bits=BITS + 1), path)
    with pytest.raises(TableFileError, match="cannot read"):
        load_table(other, tmp_path / "missing.npy")
    assert (other.work.tt == before).all()
