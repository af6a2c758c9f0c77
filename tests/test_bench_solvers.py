"""``fourfold bench --solvers``: fixed position sets, and the runner on tiny sets only.

The real benchmark never runs here (it takes minutes); these tests generate the
sets' positions, run small sets end to end against brute force, and drive the
command with an injected tiny set.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fourfold
from fourfold.bench import solvers
from fourfold.cli.main import build_parser, main
from fourfold.games.dao import solver as dao
from fourfold.games.dao import solver_bench as dao_bench
from fourfold.games.icedao import solver_bench as icedao_bench
from fourfold.games.placement import solver_bench as placement_bench
from fourfold.games.placement.game import PlacementGame
from support.placement_solver import as_value, brute_score
from support.sliding_solver import bf_lose, bf_win

TINY_BITS = 14


def placement_game(name: str, variant: str | None = None, **options: Any) -> PlacementGame:
    game = fourfold.load(name, variant, **options)
    assert isinstance(game, PlacementGame)
    return game


def tiny_set() -> solvers.SolverSet:
    return placement_bench.placement_set("quarto", placement_game("quarto"), 12, 2, TINY_BITS)


# -- the sets -----------------------------------------------------------------------------

def test_every_set_has_a_unique_name_and_the_full_run_goes_deeper() -> None:
    quick = {s.name: s for s in solvers.solver_sets(quick=True)}
    full = {s.name: s for s in solvers.solver_sets(quick=False)}
    assert len(quick) == len(solvers.solver_sets(quick=True))
    assert set(quick) < set(full)
    assert {"dao-build", "dao-probe", "icedao-n1", "icedao-n3", "quarto-n5"} <= set(quick)
    assert {"quarto-n4", "folio-fixed-n3", "quarto-start"} <= set(full) - set(quick)
    labels = {s.game.info.label() for s in full.values()}
    assert "folio (fixed-grid, line-rule=same-colour-or-size)" in labels
    assert {"folio (standard)", "folio (no-grid)", "folio (fixed-grid)"} <= labels


def checked_positions(solver_set: solvers.SolverSet) -> list[Any]:
    """The set's positions, generated twice (the same both times), each one live and
    written and read back unchanged."""
    positions = solver_set.positions()
    assert positions == solver_set.positions(), solver_set.name
    game = solver_set.game
    for state in positions:
        if state is None:  # a whole-table job
            continue
        assert game.outcome(state) is None, solver_set.name
        text = game.format_position(state)
        assert game.format_position(game.parse_position(text)) == text
    return positions


def test_placement_sets_are_deterministic_live_and_have_n_pieces_and_a_hand() -> None:
    for solver_set in placement_bench.placement_sets(quick=False):
        placed = int(solver_set.name.rsplit("-n", 1)[1])
        for state in checked_positions(solver_set):
            assert state.placed == placed and state.hand is not None


def test_the_placement_positions_are_those_of_the_seeds() -> None:
    game = placement_game("folio", "fixed-grid")
    positions = placement_bench.placement_set("folio-fixed", game, 5, 3).positions()
    assert positions == [placement_bench.random_position(game, 5, 5000 + i) for i in range(3)]


def test_dao_and_icedao_sets_are_deterministic_and_live() -> None:
    assert len(checked_positions(dao_bench.dao_probe_set(60))) == 60
    assert checked_positions(dao_bench.dao_build_set()) == [None]
    positions = checked_positions(icedao_bench.icedao_set(3, 30))
    assert len({fourfold.load("icedao").format_position(s) for s in positions}) == 30


# -- running sets --------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("prefix", "game"),
    [("quarto", placement_game("quarto")), ("folio-fixed", placement_game("folio", "fixed-grid"))],
)
def test_a_tiny_placement_set_agrees_with_brute_force(prefix: str, game: PlacementGame) -> None:
    solver_set = placement_bench.placement_set(prefix, game, 12, 3, TINY_BITS)
    row = solvers.run_set(solver_set)
    answers: list[str] = []
    keys = []
    for state in solver_set.positions():
        value, distance = as_value(brute_score(game, state), state)
        answers.append(f"{placement_bench.PLACEMENT_VALUES[value]}:{distance}")
        keys.append(solvers.position_key(game, state, answers[-1]))
    assert row.checksum == solvers.checksum(keys)
    assert row.values == dict(sorted(Counter(a.split(":")[0] for a in answers).items()))
    assert row.positions == 3 and row.nodes is not None and row.nodes > 0
    assert 0 < row.max_seconds <= row.seconds
    assert row.set == f"{prefix}-n12" and row.game == game.info.label()


@pytest.mark.parametrize("variant", ["standard", "no-grid"])
def test_the_warm_up_searches_fixed_and_floating_boxes(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Else numba compiles the floating search inside the first timed solve."""
    from fourfold.games.placement.solver.solver import Solver

    loaded = Counter[bool]()
    load = Solver.load

    def counted(self: Solver, state: Any) -> bool:
        loaded[fixed := load(self, state)] += 1
        return fixed

    monkeypatch.setattr(Solver, "load", counted)
    placement_bench.warm_up(placement_game("folio", variant))
    assert loaded[True] > 0 and loaded[False] > 0


def test_ice_dao_within_one_move_agrees_with_brute_force() -> None:
    solver_set = icedao_bench.icedao_set(1, 12)
    row = solvers.run_set(solver_set)
    keys = []
    for state in solver_set.positions():
        value = "win" if bf_win(state, 1) else "loss" if bf_lose(state, 1) else "unproven"
        answer = f"{value}:{None if value == 'unproven' else 1}"
        keys.append(solvers.position_key(solver_set.game, state, answer))
    assert row.checksum == solvers.checksum(keys)
    assert sum(row.values.values()) == 12 and len(row.values) >= 2


def test_the_dao_probe_never_touches_the_users_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FOURFOLD_CACHE", str(tmp_path))
    # a stand-in table (every entry a draw) instead of the 5-15 s build
    fake = np.zeros(dao.SIZE, dtype=np.uint8)
    monkeypatch.setitem(dao_bench._DAO_BUILT, dao.tables().fingerprint(), fake)
    paths_before = set(dao._TABLE)
    row = solvers.run_set(dao_bench.dao_probe_set(5))
    assert row.values == {"draw": 5} and row.nodes is not None and row.nodes > 5
    assert os.environ["FOURFOLD_CACHE"] == str(tmp_path)
    assert list(tmp_path.iterdir()) == []
    assert set(dao._TABLE) == paths_before


def test_rows_as_json() -> None:
    row = solvers.SolverRow("s", "quarto (standard)", "m", 4, 2.0, 1.0, 1000, {"draw": 4}, "ab")
    assert row.as_dict() == {
        "set": "s", "game": "quarto (standard)", "method": "m", "positions": 4,
        "seconds": 2.0, "mean_seconds": 0.5, "max_seconds": 1.0, "nodes": 1000,
        "nodes_per_s": 500, "values": {"draw": 4}, "checksum": "ab",
    }
    timed = solvers.SolverRow("t", "dao (standard)", "m", 1, 5.0, 5.0, None, {}, "cd")
    assert timed.as_dict()["nodes_per_s"] is None


# -- the command ---------------------------------------------------------------------------

def test_the_command_parses_solvers() -> None:
    args = build_parser().parse_args(["bench", "--solvers", "--quick", "--json"])
    assert args.solvers and args.quick and args.json
    assert not build_parser().parse_args(["bench"]).solvers


@pytest.fixture
def only_a_tiny_set(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    asked: list[bool] = []

    def sets(quick: bool = False) -> list[solvers.SolverSet]:
        asked.append(quick)
        return [tiny_set()]

    monkeypatch.setattr(solvers, "solver_sets", sets)
    return asked


def test_bench_solvers_json(
    only_a_tiny_set: list[bool], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--solvers", "--quick", "--json"]) == 0
    assert only_a_tiny_set == [True]
    report = json.loads(capsys.readouterr().out)
    (row,) = report["solvers"]
    assert row["set"] == "quarto-n12" and row["game"] == "quarto (standard)"
    assert row["positions"] == 2 and row["nodes"] > 0 and row["nodes_per_s"] > 0
    assert sum(row["values"].values()) == 2
    assert report["machine"]["nproc"] == os.cpu_count()


def test_bench_solvers_table(
    only_a_tiny_set: list[bool], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--solvers"]) == 0
    assert only_a_tiny_set == [False]
    out = capsys.readouterr().out
    assert "quarto-n12" in out and "checksum" in out


def test_the_checksum_tells_sets_with_the_same_answers_apart() -> None:
    game = placement_game("quarto")
    first, second = (placement_bench.random_position(game, 12, seed) for seed in (1, 2))
    assert first != second
    one = solvers.checksum([solvers.position_key(game, first, "draw:4")])
    assert one == solvers.checksum([solvers.position_key(game, first, "draw:4")])
    assert one != solvers.checksum([solvers.position_key(game, second, "draw:4")])
    assert one != solvers.checksum([solvers.position_key(game, first, "win:3")])
