"""The themes of a certified puzzle: the generic ones from its goal, then its game's motifs.

Generic: ``win in N`` (a win puzzle: the solver's moves in the line) and ``defend`` (a
hold puzzle: exactly one move avoids losing). Then the motifs the game's ``puzzles`` part
finds in the line (``fourfold.puzzles.hooks``): each is computed from the position, the
line and the proven values, so re-deriving the themes of a stored puzzle gives the same.
"""

from __future__ import annotations

from fourfold.puzzles.hooks import HOLD, Certified, hooks_for

DEFEND = "defend"


def base_theme(goal: str, win_in: int) -> str:
    return DEFEND if goal == HOLD else f"win in {win_in}"


def themes_of(certified: Certified) -> tuple[str, ...]:
    """The generic theme, then the game's motifs (each once, in the game's order)."""
    found = [base_theme(certified.goal, certified.win_in)]
    hook = hooks_for(certified.game).themes
    for motif in () if hook is None else hook(certified):
        if motif not in found:
            found.append(motif)
    return tuple(found)
