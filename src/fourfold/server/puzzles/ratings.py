"""Glicko-2 (the ``glicko2`` package) for puzzles and solvers: a try is a game between
the solver and the puzzle, won by whoever it went to."""

from __future__ import annotations

import glicko2  # type: ignore[import-untyped]

from fourfold.server.puzzles.store import Rating

#: a new solver's rating, deviation and volatility (Glicko-2's defaults)
SOLVER_START = (1500.0, 350.0, 0.06)
#: a new puzzle's deviation: its starting rating is the miner's estimate (puzzles/certify.py)
PUZZLE_RD = 250.0


def _player(rating: Rating) -> glicko2.Player:
    return glicko2.Player(rating=rating.rating, rd=rating.rd, vol=rating.vol)


def start_of_puzzle(rating: int) -> Rating:
    return Rating(float(rating), PUZZLE_RD, 0.06, 0)


def start_of_solver() -> Rating:
    return Rating(*SOLVER_START, 0)


def rate(solver: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """Both new ratings after one try (each updated from the other's rating before)."""
    a, b = _player(solver), _player(puzzle)
    a.update_player([puzzle.rating], [puzzle.rd], [1.0 if solved else 0.0])
    b.update_player([solver.rating], [solver.rd], [0.0 if solved else 1.0])
    return (Rating(a.rating, a.rd, a.vol, solver.plays + 1),
            Rating(b.rating, b.rd, b.vol, puzzle.plays + 1))
