"""Brute-force scores of Quarto and Folio grid positions, and random positions to
check the exact placement solver against (solver, helper, symmetry and bench tests)."""

from __future__ import annotations

import random
from typing import Any

import fourfold
from fourfold.core.outcome import Result
from fourfold.games.placement.game import PlacementGame
from fourfold.games.placement.lines import winning_line
from fourfold.games.placement.solver import solve_position
from fourfold.games.placement.solver.kernel import WIN
from fourfold.games.placement.state import PlacementState, Ply

BITS = 16  # small tables keep the tests light

GRIDS: list[tuple[str, str | None, dict[str, Any]]] = [
    ("quarto", None, {}),
    ("folio", "fixed-grid", {}),
    ("folio", "fixed-grid", {"line_rule": "same-colour-or-size"}),
]


def load(name: str, variant: str | None, options: dict[str, Any]) -> PlacementGame:
    game = fourfold.load(name, variant, **options)
    assert isinstance(game, PlacementGame)
    return game



def hand_wins(game: PlacementGame, state: PlacementState) -> bool:
    """Whether the piece in hand completes a winning line on some placeable cell, by the rules."""
    reason = game.pieces.winning_reason
    return any(winning_line(state.pieces, c, reason, state.hand)
               for c in game.geometry.placeable(state.occupied))


def unsafe_by_rules(game: PlacementGame, state: PlacementState, cell: Any) -> int:
    """The kinds (a bitmask) that, once the piece in hand is on ``cell``, would win at once
    on another placeable cell, by the rules."""
    reason = game.pieces.winning_reason
    board = {**state.pieces, cell: state.hand}
    rest = [c for c in game.geometry.placeable(state.occupied) if c != cell]
    return sum(1 << k for k in range(len(state.supply))
               if any(winning_line(board, c, reason, k) for c in rest))

def brute_score(
    game: PlacementGame, state: PlacementState, memo: dict[Any, int] | None = None
) -> int:
    """Plain negamax over ``legal_moves``/``next_state``/``outcome``, scored as the solver
    scores: ``WIN - n`` for a win when the n-th piece goes down, 0 for a draw."""
    memo = {} if memo is None else memo
    key = (state.board, state.hand, state.supply)
    if key not in memo:
        best = -10 * WIN
        for move in game.legal_moves(state):
            best = max(best, move_score(game, state, move, memo))
        memo[key] = best
    return memo[key]


def move_score(game: PlacementGame, state: PlacementState, move: Ply, memo: dict[Any, int]) -> int:
    child = game.next_state(state, move)
    outcome = game.outcome(child)
    if outcome is None:
        return -brute_score(game, child, memo)
    return WIN - child.placed if outcome.result is Result.WIN else 0


def as_value(score: int, state: PlacementState, total: int = 16) -> tuple[int, int]:
    if score == 0:
        return 0, total - state.placed
    return (1 if score > 0 else -1), WIN - abs(score) - state.placed


def careful_move(
    game: PlacementGame, state: PlacementState, rng: random.Random, cells: Any = None
) -> Ply:
    """A random move that neither wins nor hands over a winning piece, when one exists."""
    moves = [
        m for m in game.legal_moves(state) if cells is None or m.place is None or m.place in cells
    ]
    rng.shuffle(moves)
    for move in moves:
        child = game.next_state(state, move)
        if game.outcome(child) is not None:
            continue
        places = game.geometry.placeable(child.occupied)
        assert child.hand is not None
        if not any(
            winning_line(child.pieces, c, game.pieces.winning_reason, child.hand) for c in places
        ):
            return move
    return moves[0]


def position(
    game: PlacementGame, placed: int, seed: int, cells: Any = None
) -> PlacementState:
    """A live position with ``placed`` pieces and a piece in hand, from careful random play."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        while game.outcome(state) is None and (state.hand is None or state.placed < placed):
            state = game.next_state(state, careful_move(game, state, rng, cells))
        if game.outcome(state) is None:
            return state


def check_against_brute(game: PlacementGame, state: PlacementState, workers: int = 1) -> None:
    result = solve_position(game, state, table_bits=BITS, workers=workers)
    memo: dict[Any, int] = {}
    expected = {m: move_score(game, state, m, memo) for m in game.legal_moves(state)}
    got = {m: (v, d) for m, v, d in result.moves}
    assert set(got) == set(expected)
    for move, score in expected.items():
        assert got[move] == as_value(score, state), (game.format_position(state), move)
    best = max(expected.values())
    assert (result.value, result.distance) == as_value(best, state)
    assert expected[result.best_move] == best
