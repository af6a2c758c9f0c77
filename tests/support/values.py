"""Exact values of small placement positions by brute force, and the endgames and
named positions the bot tests (test_ai_bots, test_ai_levels) check bots against."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import fourfold

FIXED = fourfold.load("folio", "fixed-grid")

QUARTO = fourfold.load("quarto")


# d1 completes a1-c1 with every size already there: any piece wins on d1
WIN_ON_D1 = "a1=Rs;b1=Rm;c1=Rl Bm"

# a blue piece on d1 would make four colours: giving Bs, Bm or Bl loses unless d1 is filled
BLUE_IS_DEADLY = "a1=Rs;b1=Ys;c1=Gs Rm"


def opponent_can_win(game: Any, state: Any) -> bool:
    player = game.to_move(state)
    return any(
        (o := game.outcome(game.next_state(state, m))) is not None and o.winner == player
        for m in game.legal_moves(state)
    )


def value(game: Any, state: Any) -> int:
    """Brute-force minimax over the readable rules: +1/0/-1 for the player to move."""
    return _value(game, game.format_position(state))


@cache
def _value(game: Any, position: str) -> int:
    state = game.parse_position(position)
    me = game.to_move(state)
    best = -1
    for move in game.legal_moves(state):
        child = game.next_state(state, move)
        outcome = game.outcome(child)
        if outcome is None:
            v = -_value(game, game.format_position(child))
        else:
            v = 0 if outcome.winner is None else (1 if outcome.winner == me else -1)
        best = max(best, v)
        if best == 1:
            break
    return best


def endgames(game: Any, placed: int, count: int, seed: int) -> list[Any]:
    """Positions with ``placed`` pieces down, reached by random moves that do not end the game."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        while state.placed < placed and not game.is_over(state):
            moves = [m for m in game.legal_moves(state)
                     if not game.is_over(game.next_state(state, m))]
            if not moves:
                break
            state = game.next_state(state, moves[rng.randrange(len(moves))])
        if state.placed == placed and not game.is_over(state):
            found.append(state)
    return found
