"""The motifs of Dao and Ice Dao puzzles, computed from the position and the line.

- ``pin``: the first move of the solution takes every slide away from an opposing
  piece that had one: it covers the piece (Ice Dao: only a stack's top piece moves) or
  closes the last open direction around it. Counted only when that move does not end
  the game (a pin that matters on the board).
- ``double threat``: after the first move of the solution (not ending the game), two
  or more different moves would each win at once were it the mover's turn again: one
  reply must meet two threats.

Both read the readable rules only (``stop``, ``legal_moves``, ``outcome``), so a
hand-made position checks them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from fourfold.games.sliding.geometry import NUM_DIRECTIONS
from fourfold.puzzles.hooks import Certified, Themer

PIN, DOUBLE_THREAT = "pin", "double threat"

#: ``owner(state, square)``: the seat of the piece that would move from ``square`` (its
#: top piece), or ``None`` for an empty square
Owner = Callable[[Any, int], "int | None"]


def mobile(game: Any, state: Any, side: int, owner: Owner) -> set[int]:
    """The squares of ``side``'s pieces that can slide at least one square."""
    return {sq for sq in range(game.board.num_squares) if owner(state, sq) == side
            and any(game.stop(state, sq, d) != sq for d in range(NUM_DIRECTIONS))}


def pins(game: Any, state: Any, move: Any, owner: Owner) -> bool:
    after = game.next_state(state, move)
    if game.outcome(after) is not None:
        return False
    opponent = 1 - state.to_play
    return bool(mobile(game, state, opponent, owner) - mobile(game, after, opponent, owner))


def threats(game: Any, state: Any, move: Any) -> int:
    """The moves that would win at once after ``move`` were the mover to move again."""
    after = game.next_state(state, move)
    if game.outcome(after) is not None:
        return 0
    mover = state.to_play
    again = dataclasses.replace(after, to_play=mover, history=(), plies=0)
    wins = 0
    for reply in game.legal_moves(again):
        outcome = game.outcome(game.next_state(again, reply))
        wins += outcome is not None and outcome.winner == mover
    return wins


def sliding_themes(owner: Owner) -> Themer:
    """The themer of a sliding game whose top pieces belong to ``owner(state, sq)``."""

    def themes(certified: Certified) -> tuple[str, ...]:
        game, state, first = certified.game, certified.state, certified.line[0]
        found = []
        if pins(game, state, first, owner):
            found.append(PIN)
        if threats(game, state, first) >= 2:
            found.append(DOUBLE_THREAT)
        return tuple(found)

    return themes
