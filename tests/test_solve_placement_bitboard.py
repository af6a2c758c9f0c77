"""The bitboard search (``solver/bitboard.py``) stands for ``kernel.search`` on Quarto: the same
winning and unsafe pieces as the rules, the same scores in every window, the same nodes where
no table is used, and exact raw keys."""

from __future__ import annotations

from typing import Any

import pytest

from fourfold.games.placement.solver import Solver, solve_position
from fourfold.games.placement.solver import bitboard as bb
from fourfold.games.placement.solver import kernel as k4
from fourfold.games.placement.solver.tables import SIDE, board_lines, cell_index, ruleset_of
from fourfold.games.placement.state import PlacementState, Ply
from support.placement_solver import (
    BITS,
    GRIDS,
    as_value,
    brute_score,
    hand_wins,
    load,
    position,
    unsafe_by_rules,
)

WINDOWS = ((-1, 0), (0, 1), (-k4.INF, k4.INF), (5, 6), (-8, -7))


def quarto_solver() -> Solver:
    return Solver(*ruleset_of(load("quarto", None, {})), table_bits=BITS)


def bitboard_score(solver: Solver, state: PlacementState, alpha: int, beta: int,
                   fewest: int) -> tuple[int, int]:
    """The bitboard search's score and nodes from a fresh table and history."""
    assert solver.bits is not None
    bt, bw = solver.bits
    k4.clear_table(solver.work)
    solver.work.history[:] = 0
    solver.work.st[k4.FEWEST_REPLIES] = fewest
    solver.start(None, None)
    solver.load(state)
    score = bb.root_search(solver.tables, bt, solver.work, bw.words, alpha, beta)
    return int(score), int(solver.work.st[k4.NODES])


def kernel_score(solver: Solver, state: PlacementState, alpha: int,
                 beta: int) -> tuple[int, int]:
    """``kernel.search``'s score and nodes from a fresh table and history."""
    k4.clear_table(solver.work)
    solver.work.history[:] = 0
    solver.start(None, None)
    solver.load(state)
    score = k4.search(solver.tables, solver.work, alpha, beta)
    return int(score), int(solver.work.st[k4.NODES])


def test_only_quarto_boards_use_it() -> None:
    """Lines won by a shared bit, one piece of each kind, a fixed board: Quarto only."""
    for name, variant, options in GRIDS:
        solver = Solver(*ruleset_of(load(name, variant, options)), table_bits=BITS)
        assert (solver.bits is not None) == (name == "quarto"), (name, options)
    standard = load("folio", "standard", {"line_rule": "same-colour-or-size"})
    assert Solver(*ruleset_of(standard), table_bits=BITS).bits is None


def loaded_words(solver: Solver, state: PlacementState) -> tuple[list[Any], int]:
    """Load ``state`` into the solver's bitboard words; its empty cells and their mask."""
    assert solver.bits is not None
    solver.load(state)
    bb.load_words(solver.tables, solver.work, solver.bits[1].words)
    empty_cells = list(load("quarto", None, {}).geometry.placeable(state.occupied))
    return empty_cells, sum(1 << cell_index(c) for c in empty_cells)


def test_winning_and_unsafe_pieces_are_those_of_the_rules() -> None:
    """``threats`` and ``unsafe_after`` (and ``unsafe_after_kept``) on the bitboards name
    exactly the pieces the rules let win at once, on positions from 3 to 13 pieces."""
    game = load("quarto", None, {})
    solver = quarto_solver()
    assert solver.bits is not None
    bt, bw = solver.bits
    checked = 0
    for seed in range(30):
        state = position(game, 3 + seed % 11, seed)
        assert state.hand is not None
        empty_cells, empty = loaded_words(solver, state)
        t, s = solver.tables, bw.words
        wins_now = hand_wins(game, state)
        assert bool(t.features[state.hand] & bb.threats(bt, s, bb.THREATS, empty)) == wins_now
        if wins_now:
            continue
        for cell in empty_cells:
            expected = unsafe_by_rules(game, state, cell)
            assert bb.unsafe_after(t, bt, s, empty, cell_index(cell), state.hand) == expected
            # the same from the threats kept for the position
            kept = bb.unsafe_after_kept(t, bt, s, empty, cell_index(cell), state.hand)
            assert kept == expected
            checked += 1
    assert checked > 100


def test_reply_counts_are_those_of_the_rules() -> None:
    """``count_replies`` (the fewest-replies order) gives, for each placement and safe give,
    the number of the opponent's moves that the rules say do not lose at once: a placement
    and a give that cannot win at once, on positions from 4 to 11 pieces; and
    ``after_placing`` finds the same safe gives as ``unsafe_after_kept``."""
    game = load("quarto", None, {})
    solver = quarto_solver()
    assert solver.bits is not None
    bt, bw = solver.bits
    checked = 0
    for seed in range(24):
        state = position(game, 4 + seed % 8, 500 + seed)
        assert state.hand is not None
        if hand_wins(game, state):
            continue
        empty_cells, empty = loaded_words(solver, state)
        t, w, s = solver.tables, solver.work, bw.words
        bb.threats(bt, s, bb.THREATS, empty)
        avail = int(s[bb.AVAIL])
        for cell in empty_cells:
            safe = avail & ~int(bb.unsafe_after_kept(t, bt, s, empty, cell_index(cell),
                                                      state.hand))
            after = bb.after_placing(bt, w, s, cell_index(cell), t.features[state.hand])
            assert avail & ~int(bt.kinds_holding[after[1]]) == safe
            bb.count_replies(t, bt, s, after, safe, avail)
            for give in (k for k in range(16) if (safe >> k) & 1):
                child = game.next_state(state, Ply(cell, give))
                free = sum(1 << k for k, n in enumerate(child.supply) if n)
                expected = sum(bin(free & ~unsafe_by_rules(game, child, c)).count("1")
                               for c in game.geometry.placeable(child.occupied))
                assert s[bb.REPLIES + give] == expected, (seed, cell, give)
                checked += 1
    assert checked > 500


def consistent(score: int, value: int, alpha: int, beta: int) -> bool:
    """Whether a fail-soft ``score`` in ``(alpha, beta)`` is right for a position worth
    ``value``: exact inside the window, a true bound outside it (fail-soft bounds
    depend on the order of moves, so two searches may give different ones)."""
    if score >= beta:
        return value >= score
    if score <= alpha:
        return value <= score
    return score == value


@pytest.mark.parametrize("placed", [7, 8, 9, 10, 11, 12])
def test_scores_are_those_of_the_kernel(placed: int) -> None:
    """In every window, with the fewest-replies order on and off, the bitboard search
    scores each position as ``kernel.search`` values it: exactly inside the window,
    a true bound outside."""
    game = load("quarto", None, {})
    solver = quarto_solver()
    for seed in range(3):
        state = position(game, placed, 100 + seed)
        value, _ = kernel_score(solver, state, -k4.INF, k4.INF)
        for alpha, beta in WINDOWS:
            for fewest in (0, 6, 1):
                got, _ = bitboard_score(solver, state, alpha, beta, fewest)
                assert consistent(got, value, alpha, beta), (placed, seed, alpha, beta, fewest)


@pytest.mark.parametrize("placed", [11, 12, 13])
def test_same_nodes_where_no_table_is_used(placed: int) -> None:
    """With the fewest-replies order off and no position keyed (five or fewer pieces
    left for every child), the bitboard search visits exactly the kernel's nodes."""
    game = load("quarto", None, {})
    solver = quarto_solver()
    for seed in range(6):
        state = position(game, placed, 200 + seed)
        for alpha, beta in WINDOWS:
            assert (bitboard_score(solver, state, alpha, beta, 0)
                    == kernel_score(solver, state, alpha, beta)), (placed, seed, alpha, beta)


def test_raw_keys_name_one_position_each() -> None:
    """Raw keys (positions deeper than ``canon_max``) are equal exactly when the board and
    hand are, and never equal a canonical key."""
    game = load("quarto", None, {})
    solver = quarto_solver()
    assert solver.bits is not None
    _, bw = solver.bits
    keys: dict[tuple[int, int], tuple[object, ...]] = {}
    for seed in range(300):
        state = position(game, 10 + seed % 3, seed)
        solver.load(state)
        bb.load_words(solver.tables, solver.work, bw.words)
        hi, lo = bb.raw_key(solver.work, bw.words)
        hi, lo = int(hi), int(lo)
        assert lo & int(bb.RAW_TAG)
        canonical = solver.key(state)
        assert not canonical[1] & int(bb.RAW_TAG)
        seen = (tuple(sorted(state.pieces.items())), state.hand)
        assert keys.setdefault((hi, lo), seen) == seen
    assert len(set(keys.values())) == len(keys)


def test_ten_pieces_agree_with_brute_force() -> None:
    """End to end through ``solve_position`` (which now takes the bitboard search): a
    value and distance that a brute-force minimax over the rules confirms."""
    game = load("quarto", None, {})
    for seed in (7, 8):
        state = position(game, 10, seed)
        result = solve_position(game, state, table_bits=BITS, rank_moves=False)
        assert (result.value, result.distance) == as_value(brute_score(game, state), state)


def shares_a_feature(kinds: list[int]) -> bool:
    """Whether the kinds (4 attribute bits each) all agree on some attribute."""
    both = 15
    either = 0
    for kind in kinds:
        both &= kind
        either |= kind
    return both != 0 or either != 15


def test_the_last_three_pieces_agree_with_brute_force_wherever_the_empty_cells_lie() -> None:
    """The last three pieces are worked out from bit words (``bitboard.three_left``), with
    a case for a line through two empty cells and one through all three. Live positions
    (the piece in hand wins nowhere) whose empty cells include three of each line: with 3
    pieces left the line's piece, the hand and the two pieces left agreeing on some
    attribute (so the line through all three cells decides), and with 4 left any. Every
    score, in every window, is what a brute force over the rules finds."""
    game = load("quarto", None, {})
    solver = quarto_solver()
    cells = [(x, y) for y in range(SIDE) for x in range(SIDE)]
    values = set()
    for i, line in enumerate(board_lines()):
        for j, spot in enumerate((line[:3], line[1:])):
            allowed = [c for c in cells if cell_index(c) not in spot]
            (lone,) = (c for c in cells if cell_index(c) in line and c in allowed)
            for placed in (13, 12):
                state = next(
                    s for s in (position(game, placed, 1000 * (2 * i + j) + k, allowed)
                                for k in range(1000))
                    if not hand_wins(game, s) and (placed == 12 or shares_a_feature(
                        [s.pieces[lone], s.hand, *(k for k, n in enumerate(s.supply) if n)])))
                assert set(spot) <= {cell_index(c) for c in cells if c not in state.pieces}
                expected = brute_score(game, state)
                values.add((placed, expected))
                for alpha, beta in WINDOWS:
                    got, _ = bitboard_score(solver, state, alpha, beta, 6)
                    assert consistent(got, expected, alpha, beta), (spot, placed, alpha, beta)
    assert len(values) >= 4, values
