"""The motifs of Quarto and Folio puzzles, and the ``puzzles`` part of both.

- ``the only safe give``: the first move of the solution gives a piece, at least one
  other piece could be given, and every legal move that gives another piece (wherever
  it places) lets the opponent win at once: they place it to complete a line. The
  classic Quarto squeeze, read from the rules alone (each such give, then each
  placement of the piece given), so a hand-made position checks it.

Puzzles of both are certified by the generic certifier (the solver proves every value).
"""

from __future__ import annotations

from typing import Any

from fourfold.puzzles.hooks import Certified, PuzzleHooks

ONLY_SAFE_GIVE = "the only safe give"


def wins_at_once(game: Any, state: Any) -> bool:
    """Whether the side to move at ``state`` has a placement that wins."""
    seat = game.to_move(state)
    if seat is None:
        return False
    for move in game.legal_moves(state):
        if move.give is None and move.place is not None:  # a ply that ends the game
            outcome = game.outcome(game.next_state(state, move))
            if outcome is not None and outcome.winner == seat:
                return True
    return False


def only_safe_give(game: Any, state: Any, first: Any) -> bool:
    if first.give is None:
        return False
    others = [m for m in game.legal_moves(state) if m.give is not None and m.give != first.give]
    return bool(others) and all(wins_at_once(game, game.next_state(state, m)) for m in others)


def placement_themes(certified: Certified) -> tuple[str, ...]:
    game, state = certified.game, certified.state
    return (ONLY_SAFE_GIVE,) if only_safe_give(game, state, certified.line[0]) else ()


PUZZLES = PuzzleHooks(themes=placement_themes)
