"""Classic Dao's retrograde table against brute-force search over the readable rules.

The table is built once per test session into a temporary cache (about 10-20 s on
a shared 2-core machine): the full build is exercised here and in
benchmarks/bench_solve_dao.py.
"""

from __future__ import annotations

import io
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fourfold
from fourfold.ai import make_bot
from fourfold.cli.main import main
from fourfold.core.errors import ConfigurationError
from fourfold.core.match import Match
from fourfold.core.outcome import Result
from fourfold.games.dao import solver as dao
from fourfold.solve.position import Value, solver_for

GAME = fourfold.load("dao")


@pytest.fixture(autouse=True)
def use_cache(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURFOLD_CACHE", str(cache))


@pytest.fixture(scope="module")
def packed(cache: Path) -> np.ndarray:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FOURFOLD_CACHE", str(cache))
        return dao.full_table()


# -- brute force over the readable rules -----------------------------------------------------

def wins_within(state: Any, plies: int) -> bool:
    """The side to move can force a win within ``plies`` plies (or has won: a trap of its
    piece, completed by the other side's last move, wins for it)."""
    outcome = GAME.outcome(state)
    if outcome is not None:
        return outcome.result is Result.WIN and outcome.winner == state.to_play
    if plies <= 0:
        return False
    return any(loses_within(GAME.next_state(state, m), plies - 1)
               for m in GAME.legal_moves(state))


def loses_within(state: Any, plies: int) -> bool:
    """The side to move loses within ``plies`` plies whatever it does."""
    outcome = GAME.outcome(state)
    if outcome is not None:
        return outcome.result is Result.WIN and outcome.winner != state.to_play
    if plies <= 0:
        return False
    return all(wins_within(GAME.next_state(state, m), plies - 1)
               for m in GAME.legal_moves(state))


def brute_force(state: Any, depth: int) -> tuple[Value, int] | None:
    """The value and exact distance when the game is decided within ``depth`` plies."""
    for d in range(depth + 1):
        if loses_within(state, d):
            return Value.LOSS, d
        if wins_within(state, d):
            return Value.WIN, d
    return None


def random_states(rng: random.Random, n: int) -> Iterator[Any]:
    """Uniformly random positions that can occur (``parse_position`` accepts them)."""
    made = 0
    while made < n:
        index = rng.randrange(dao.SIZE)
        try:
            state = GAME.parse_position(dao.position_at(index, rng.randrange(2)))
        except fourfold.core.errors.NotationError:
            continue
        made += 1
        yield state


def table_value(packed: np.ndarray, state: Any) -> tuple[int, int]:
    entry = int(packed[dao.index_of(state)])
    return entry >> dao.DISTANCE_BITS, entry & dao.MAX_DISTANCE


# -- the table ---------------------------------------------------------------------------------

def test_counts_partition_the_positions(packed: np.ndarray) -> None:
    s = dao.summarize(packed)
    assert s.positions + s.invalid == dao.SIZE == 900_900
    assert s.wins + s.losses + s.draws == s.positions
    assert 0 < s.longest_win <= dao.MAX_DISTANCE
    for text in s.longest_win_positions:
        assert dao.lookup(GAME.parse_position(text)) == (Value.WIN, s.longest_win)


def test_the_start_is_a_draw_and_so_is_every_opening_move(packed: np.ndarray) -> None:
    solution = dao.solve(GAME, GAME.initial_state())
    assert solution is not None
    assert solution.value is Value.DRAW and solution.distance is None
    assert len(solution.moves) == len(GAME.legal_moves(GAME.initial_state()))
    assert all(m.value is Value.DRAW for m in solution.moves)


def test_ended_positions_and_positions_one_ply_from_the_end(packed: np.ndarray) -> None:
    """Level 0 is what ``outcome`` says; a win in 1 is exactly a move that wins at once."""
    rng = random.Random(1)
    ones = 0
    for state in random_states(rng, 3000):
        code, dist = table_value(packed, state)
        outcome = GAME.outcome(state)
        if outcome is not None:
            assert dist == 0 and code == (dao.WIN if outcome.winner == state.to_play else dao.LOSS)
            continue
        assert dist > 0 or code == dao.DRAW
        wins_now = any(
            (o := GAME.outcome(GAME.next_state(state, m))) is not None and o.winner == state.to_play
            for m in GAME.legal_moves(state)
        )
        assert ((code, dist) == (dao.WIN, 1)) == wins_now
        ones += wins_now
    assert ones > 50


def states_at(packed: np.ndarray, rng: random.Random, n: int, mask: np.ndarray) -> list[Any]:
    """``n`` random positions (either side to move) among the table entries in ``mask``."""
    indices = np.flatnonzero(mask)
    picked = [int(indices[rng.randrange(len(indices))]) for _ in range(n)]
    return [GAME.parse_position(dao.position_at(i, rng.randrange(2))) for i in picked]


@pytest.mark.parametrize("target", [1, 2, 3, 4, 5, 6, 7])
def test_short_forced_results_agree_with_brute_force(packed: np.ndarray, target: int) -> None:
    """Positions the table says are decided in exactly ``target`` plies (won when odd, lost
    when even), and positions it says are not, against an exhaustive search over the
    readable rules."""
    rng = random.Random(target)
    code = packed >> dao.DISTANCE_BITS
    dist = packed & dao.MAX_DISTANCE
    value = Value.WIN if target % 2 else Value.LOSS
    decided = (code == (dao.WIN if target % 2 else dao.LOSS)) & (dist == target)
    for state in states_at(packed, rng, 5, decided):
        assert brute_force(state, target) == (value, target)
    later = (code == dao.DRAW) | ((code != dao.INVALID) & (dist > target))
    for state in states_at(packed, rng, 3, later):
        assert brute_force(state, min(target, 5)) is None


def test_random_positions_agree_with_brute_force_to_four_plies(packed: np.ndarray) -> None:
    rng = random.Random(7)
    for state in random_states(rng, 100):
        code, dist = table_value(packed, state)
        expected = None
        if code in (dao.WIN, dao.LOSS) and dist <= 4:
            expected = (Value.WIN if code == dao.WIN else Value.LOSS, dist)
        assert brute_force(state, 4) == expected


def _transform(state: Any, f: Any) -> Any:
    board = [None] * 16
    for sq, owner in enumerate(state.board):
        x, y = f(sq % 4, sq // 4)
        board[y * 4 + x] = owner
    cells = ["." if o is None else "XO"[o] for o in board]
    rows = ["," .join(cells[y * 4: y * 4 + 4]) for y in range(3, -1, -1)]
    return GAME.parse_position("/".join(rows) + " " + "XO"[state.to_play])


SYMMETRIES = [
    lambda x, y: (3 - x, y), lambda x, y: (x, 3 - y), lambda x, y: (y, x),
    lambda x, y: (3 - y, 3 - x), lambda x, y: (3 - x, 3 - y), lambda x, y: (y, 3 - x),
    lambda x, y: (3 - y, x),
]


def test_values_are_the_same_under_the_eight_board_symmetries(packed: np.ndarray) -> None:
    """The index is not symmetric, so this checks the build (the rules are)."""
    rng = random.Random(3)
    for state in random_states(rng, 300):
        here = table_value(packed, state)
        for f in SYMMETRIES:
            assert table_value(packed, _transform(state, f)) == here


def test_move_values_fit_the_position_value(packed: np.ndarray) -> None:
    rng = random.Random(5)
    for state in random_states(rng, 300):
        if GAME.outcome(state) is not None:
            continue
        solution = dao.solve(GAME, state)
        assert solution is not None
        best = solution.moves[0]
        assert best.value is solution.value
        if solution.value is Value.WIN:
            assert best.distance == solution.distance
        elif solution.value is Value.LOSS:
            assert all(m.value is Value.LOSS for m in solution.moves)
            assert max(m.distance or 0 for m in solution.moves) == solution.distance
        else:
            assert all(m.value is not Value.WIN for m in solution.moves)


def test_the_perfect_bot_wins_the_longest_win_in_exactly_that_many_plies(
    packed: np.ndarray,
) -> None:
    summary = dao.summarize(packed)
    start = GAME.parse_position(summary.longest_win_positions[0])
    match: Match[Any, Any] = Match(GAME, start)
    bots = [make_bot("perfect", GAME, p, seed=p) for p in (0, 1)]
    while match.outcome is None:
        player = match.to_move
        assert player is not None
        match.play(bots[player].choose(GAME.view(match.state, player)))
    assert match.outcome.winner == start.to_play
    assert len(match.moves) == summary.longest_win


def test_the_perfect_bot_refuses_a_game_without_an_exact_solver() -> None:
    with pytest.raises(ConfigurationError, match="exact solver"):
        make_bot("perfect", fourfold.load("icedao"), 0)


def test_the_table_is_cached_and_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         packed: np.ndarray) -> None:
    monkeypatch.setenv("FOURFOLD_CACHE", str(tmp_path))
    path = dao.table_path()
    assert path.parent == tmp_path
    dao._store(path, packed, dao.BuildInfo(1.0, 12))
    loaded = dao._load(path)
    assert loaded is not None and (loaded == packed).all()
    damaged = packed.copy()
    damaged[123] ^= 1
    np.save(path, damaged)
    assert dao._load(path) is None  # the stored hash no longer matches
    path.with_suffix(".json").write_text("{}", encoding="utf-8")
    assert dao._load(path) is None


def test_a_short_time_limit_does_not_start_a_build(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURFOLD_CACHE", str(tmp_path / "empty"))
    assert dao.solve(GAME, GAME.initial_state(), 1.0) is None


def test_solver_for_finds_the_table() -> None:
    entry = solver_for(GAME)
    assert entry is not None and entry.exact


# -- the command line ----------------------------------------------------------------------------

def run_cli(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    code = main(args)
    return code, out.getvalue(), err.getvalue()


def test_solve_prints_every_move_best_first(monkeypatch: pytest.MonkeyPatch,
                                            packed: np.ndarray) -> None:
    text = dao.summarize(packed).longest_win_positions[0]
    code, out, _ = run_cli(monkeypatch, ["solve", "dao", "--setup", text])
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == f"X to move: win in {dao.summarize(packed).longest_win} plies"
    moves = GAME.legal_moves(GAME.parse_position(text))
    assert lines[2] == f"{len(moves)} legal moves, best first:"
    assert "win in" in lines[3]
    code, out, _ = run_cli(monkeypatch, ["solve", "dao", "--setup", text, "--json"])
    answer = json.loads(out)
    assert answer["value"] == "win" and answer["exact"] is True
    assert len(answer["moves"]) == len(moves)
    assert answer["moves"][0]["value"] == "win"


def test_solve_reads_a_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              packed: np.ndarray) -> None:
    match: Match[Any, Any] = Match(GAME)
    match.play_text("a1-a3")
    path = tmp_path / "game.txt"
    path.write_text(fourfold.core.record.format_record(match.referee_record()), encoding="utf-8")
    code, out, _ = run_cli(monkeypatch, ["solve", "dao", "--record", str(path), "--json"])
    assert code == 0
    answer = json.loads(out)
    assert answer["position"] == GAME.format_position(match.state)
    assert answer["to_move"] == "O"


def test_solve_says_when_a_game_has_no_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    from fourfold.solve import position

    monkeypatch.setattr(position, "game_solvers", lambda game: None)
    code, _, err = run_cli(monkeypatch, ["solve", "dao"])
    assert code == 2
    assert "no position solver for dao" in err


def test_symmetry_classes_partition_like_the_positions(packed: np.ndarray) -> None:
    classes = dao.symmetry_classes(packed)
    assert classes["wins"] + classes["losses"] + classes["draws"] == classes["positions"]
    assert dao.summarize(packed).positions / 8 <= classes["positions"]


def test_a_repetition_the_table_cannot_see_lowers_the_value() -> None:
    """A position the table wins whose winning moves all repeat a position for the third
    time (seen in a seeded level match): the reported value is the best move's, and the
    exact endgame of level 5 still finds a move."""
    from dataclasses import replace

    from fourfold.ai.endgame import Endgame, EndgamePlan

    game = fourfold.load("dao")
    state = game.parse_position("X,.,O,./.,O,.,./.,.,O,X/X,.,O,X O")
    assert dao.lookup(state)[0] is Value.WIN
    wins = [game.next_state(state, m) for m in game.legal_moves(state)
            if dao.lookup(game.next_state(state, m))[0] is Value.LOSS]
    assert wins
    seen = replace(state, history=tuple(child.key for child in wins for _ in range(2)))
    solution = dao.solve(game, seen)
    assert solution is not None and solution.value is Value.DRAW
    assert (solution.moves[0].value, solution.distance) == (Value.DRAW, None)
    assert all(m.value is not Value.WIN for m in solution.moves)
    move = Endgame(game).choose(seen, len(solution.moves), EndgamePlan(1, 64, 1_000),
                                random.Random(0))
    assert move is not None
    chosen = [m for m in solution.moves if game.encode(m.move) == move]
    assert chosen[0].value is Value.DRAW
