"""The exact placement solver agrees with a brute-force minimax over the readable rules."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from typing import Any

import pytest

from fourfold.core.errors import FourfoldError
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.solver import SolveLimitReached, Solver, solve_position
from fourfold.games.placement.solver.kernel import can_win, live_lines, unsafe_after
from fourfold.games.placement.solver.tables import board_lines, cell_index, ruleset_of
from fourfold.games.placement.state import PlacementState
from support.placement_solver import (
    BITS,
    GRIDS,
    as_value,
    brute_score,
    check_against_brute,
    hand_wins,
    load,
    move_score,
    position,
    unsafe_by_rules,
)

FLOATING: list[tuple[str, str | None, dict[str, Any]]] = [
    ("folio", "standard", {}),
    ("folio", "no-grid", {}),
    ("folio", "standard", {"line_rule": "same-colour-or-size"}),
    ("folio", "no-grid", {"line_rule": "same-colour-or-size"}),
]


@pytest.mark.parametrize(("name", "variant", "options"), GRIDS)
def test_unsafe_gives_are_those_the_rules_let_win(
    name: str, variant: str | None, options: dict[str, Any]
) -> None:
    """The kernel's table of winning kinds per line word (``unsafe_after``) names exactly
    the kinds that, once the piece in hand is placed, win somewhere at once by the rules."""
    game = load(name, variant, options)
    solver = Solver(*ruleset_of(game), table_bits=BITS)
    checked = 0
    for seed in range(24):
        state = position(game, 3 + seed % 10, seed)
        assert state.hand is not None
        solver.load(state)
        t, w = solver.tables, solver.work
        wins_now = hand_wins(game, state)
        assert can_win(t, w, state.hand) == wins_now
        if wins_now:
            continue
        for cell in game.geometry.placeable(state.occupied):
            expected = unsafe_by_rules(game, state, cell)
            assert unsafe_after(t, w, cell_index(cell), state.hand) == expected
            checked += 1
    assert checked > 100


def completions(game: PlacementGame, kinds: list[int], pool: list[int]) -> list[list[int]]:
    """Every way some pieces of ``pool`` (copies per kind) fill up the line holding
    ``kinds`` into one the rules call a win."""
    return [
        kinds + list(more)
        for more in combinations_with_replacement(range(len(pool)), 4 - len(kinds))
        if all(more.count(k) <= pool[k] for k in more)
        and game.pieces.winning_reason(kinds + list(more)) is not None
    ]


def rule_shares(game: PlacementGame) -> bool:
    """Whether a winning line is one whose pieces share a feature (Quarto, same-colour)."""
    return getattr(game.pieces, "line_rule", None) != "colours-or-sizes"


@pytest.mark.parametrize(("name", "variant", "options"), GRIDS)
def test_live_lines_are_those_the_pieces_left_could_win(
    name: str, variant: str | None, options: dict[str, Any]
) -> None:
    """``live_lines`` names exactly the lines that some choice of the pieces off the board
    would make a winning line and (same-colour-or-size, Quarto) the feature bits all
    four pieces of such a line share: the search merges dead cells, and kinds equal on
    those bits, by them."""
    game = load(name, variant, options)
    solver = Solver(*ruleset_of(game), table_bits=BITS)
    dead_seen = 0
    for seed in range(30):
        state = position(game, 2 + seed % 13, seed)
        assert state.hand is not None
        solver.load(state)
        live, bits = live_lines(solver.tables, solver.work)
        pool = list(state.supply)
        pool[state.hand] += 1
        shared = 0
        for i, line in enumerate(board_lines()):
            kinds = [state.pieces[(c % 4, c // 4)] for c in line if (c % 4, c // 4) in state.pieces]
            wins = completions(game, kinds, pool)
            assert bool((live >> i) & 1) == bool(wins), (game.format_position(state), i)
            dead_seen += not wins
            for full in wins:
                word = -1
                for k in full:
                    word &= int(solver.tables.features[k])
                shared |= word
        if rule_shares(game):
            assert bits == shared, game.format_position(state)
    assert dead_seen > 10


@pytest.mark.parametrize(("name", "variant", "options"), GRIDS + FLOATING[2:])
def test_dead_lines_change_no_value(
    name: str, variant: str | None, options: dict[str, Any]
) -> None:
    """Values and distances are the same whether or not the search merges positions
    that differ only on dead cells, gives kinds equal on the bits that matter once,
    and calls positions with no live line drawn."""
    game = load(name, variant, options)
    merged = Solver(*ruleset_of(game), table_bits=BITS)
    plain = Solver(*ruleset_of(game), table_bits=BITS)
    merged.use_dead_lines(True)
    plain.use_dead_lines(False)
    for seed in range(6):
        state = position(game, 6 + seed % 4, seed)
        merged.start(None, None)
        plain.start(None, None)
        assert merged.exact(state, True) == plain.exact(state, True)


@pytest.mark.parametrize(("name", "variant", "options"), GRIDS)
def test_children_looked_up_first_change_no_value(
    name: str, variant: str | None, options: dict[str, Any]
) -> None:
    """Values and distances are the same with enhanced transposition cut-offs (children
    looked up in the table before any is searched, at every depth) and without; the
    same tables are shared across positions, so entries of earlier solves are hit."""
    game = load(name, variant, options)
    looked = Solver(*ruleset_of(game), table_bits=BITS, etc_max=16)
    plain = Solver(*ruleset_of(game), table_bits=BITS, etc_max=0)
    for seed in range(8):
        state = position(game, 5 + seed % 5, seed)
        looked.start(None, None)
        plain.start(None, None)
        assert looked.exact(state, True) == plain.exact(state, True), seed


@pytest.mark.parametrize(("name", "variant", "options"), GRIDS)
@pytest.mark.parametrize("seed", range(4))
def test_twelve_pieces_agree_with_brute_force(
    name: str, variant: str | None, options: dict[str, Any], seed: int
) -> None:
    game = load(name, variant, options)
    check_against_brute(game, position(game, 12, seed))


@pytest.mark.parametrize(("name", "variant", "options"), GRIDS)
def test_ten_pieces_agree_with_brute_force(
    name: str, variant: str | None, options: dict[str, Any]
) -> None:
    game = load(name, variant, options)
    state = position(game, 10, 7)
    result = solve_position(game, state, table_bits=BITS, rank_moves=False)
    assert (result.value, result.distance) == as_value(brute_score(game, state), state)


@pytest.mark.parametrize(("name", "variant", "options"), FLOATING)
@pytest.mark.parametrize("seed", range(2))
def test_floating_box_agrees_with_brute_force(
    name: str, variant: str | None, options: dict[str, Any], seed: int
) -> None:
    """Twelve pieces in three columns: the box is not fixed yet (a fourth column may go
    on either side), so the floating search and the hand-over to the 4x4 one both run."""
    game = load(name, variant, options)
    first = game.geometry.placeable(frozenset())[0]
    columns = {(first[0] + dx, first[1] + dy) for dx in range(3) for dy in range(-1, 3)}
    state = position(game, 12, seed, columns)
    assert len({c[0] for c, _ in state.board}) == 3
    check_against_brute(game, state)


def test_fixed_box_standard_is_the_fixed_grid_game() -> None:
    """Once the pieces span 4x4, standard plays as fixed-grid on that box."""
    game = load("folio", "standard", {})
    grid = load("folio", "fixed-grid", {})
    checked = 0
    for seed in range(20):
        state = position(game, 9, seed)
        xs = [c[0] for c, _ in state.board]
        ys = [c[1] for c, _ in state.board]
        if max(xs) - min(xs) < 3 or max(ys) - min(ys) < 3:
            continue
        checked += 1
        moved = PlacementState(
            tuple(sorted((((x - min(xs), y - min(ys)), k) for (x, y), k in state.board),
                         key=lambda item: (item[0][1], item[0][0]))),
            state.hand,
            state.supply,
        )
        got = solve_position(game, state, table_bits=BITS)
        want = solve_position(grid, moved, table_bits=BITS)
        assert (got.value, got.distance) == (want.value, want.distance)
        assert sorted(v for _, v, _ in got.moves) == sorted(v for _, v, _ in want.moves)
    assert checked >= 3


@pytest.mark.parametrize(("name", "variant", "options"), GRIDS + FLOATING[:2])
def test_pruning_winning_gives_changes_no_value(
    name: str, variant: str | None, options: dict[str, Any]
) -> None:
    game = load(name, variant, options)
    pieces, geometry, counts = ruleset_of(game)
    pruned = Solver(pieces, geometry, counts, table_bits=BITS)
    full = Solver(pieces, geometry, counts, table_bits=BITS)
    full.set_prune(False)
    for seed in range(4):
        state = position(game, 9, seed)
        pruned.start(None, None)
        full.start(None, None)
        assert pruned.exact(state, True) == full.exact(state, True)


def test_limit_raises_and_table_stays_sound() -> None:
    game = load("quarto", None, {})
    hard = position(game, 2, 3)
    with pytest.raises(SolveLimitReached):
        solve_position(game, hard, limit=0.05, table_bits=BITS)
    easy = position(game, 12, 3)
    check_against_brute(game, easy)


def test_game_over_and_foreign_games_are_refused() -> None:
    game = load("quarto", None, {})
    state = game.initial_state()
    rng = random.Random(5)
    while game.outcome(state) is None:
        state = game.next_state(state, rng.choice(game.legal_moves(state)))
    with pytest.raises(FourfoldError):
        solve_position(game, state)


@pytest.mark.parametrize(("name", "variant", "options"), GRIDS[:2] + FLOATING[1:2])
def test_perfect_bot_plays_a_best_move(
    name: str, variant: str | None, options: dict[str, Any]
) -> None:
    from fourfold.ai import make_bot

    game = load(name, variant, options)
    for seed in range(3):
        state = position(game, 11, seed)
        player = game.to_move(state)
        assert player is not None
        bot = make_bot("perfect", game, player, seed=seed)
        move = bot.choose(game.view(state, player))
        memo: dict[Any, int] = {}
        best = max(move_score(game, state, m, memo) for m in game.legal_moves(state))
        assert move_score(game, state, move, memo) == best


def test_perfect_bot_falls_back_when_the_solve_cannot_finish() -> None:
    from fourfold.ai import Limit, make_bot
    from fourfold.ai.perfect import PerfectBot

    game = load("quarto", None, {})
    state = position(game, 1, 2)
    player = game.to_move(state)
    assert player is not None
    bot = make_bot("perfect", game, player, seed=1, limit=Limit(seconds=0.05, nodes=2000))
    assert isinstance(bot, PerfectBot)
    move = bot.choose(game.view(state, player))
    assert move in game.legal_moves(state)
    assert bot.last_exact is False


def test_kinds_equal_on_the_bits_that_matter_share_a_key() -> None:
    """Same-colour-or-size: a piece swapped with a kind left in the supply that agrees
    with it on every colour and size some live line can still be won by, where the swap
    leaves those the same, gives the same key (the search merges them) and the same
    exact value (searched without merging)."""
    game = load("folio", "fixed-grid", {"line_rule": "same-colour-or-size"})
    merged = Solver(*ruleset_of(game), table_bits=BITS)
    plain = Solver(*ruleset_of(game), table_bits=BITS)
    plain.use_dead_lines(False)
    swaps = 0
    for seed in range(12):
        state = position(game, 7 + seed % 3, seed)
        merged.load(state)
        _, bits = live_lines(merged.tables, merged.work)
        features = merged.tables.features
        for cell, kind in state.board:
            for other, copies in enumerate(state.supply):
                if other == kind or not copies or features[other] & bits != features[kind] & bits:
                    continue
                supply = list(state.supply)
                supply[other] -= 1
                supply[kind] += 1
                board = tuple((c, other if c == cell else k) for c, k in state.board)
                swapped = PlacementState(board, state.hand, tuple(supply))
                merged.load(swapped)
                if live_lines(merged.tables, merged.work)[1] != bits:
                    continue  # the piece it replaces no longer closes some route
                assert merged.key(swapped) == merged.key(state)
                plain.start(None, None)
                value = plain.exact(swapped, True)
                plain.start(None, None)
                assert value == plain.exact(state, True)
                swaps += 1
    assert swaps > 20
