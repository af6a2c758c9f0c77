"""The value chart of a review, as text: one row per position, from the first player's
side (GamesmanUni's value history turned on its side).

The first player's loss is on the left, a draw in the middle, the first player's win on
the right; the nearer the end (the smaller the distance), the further out the mark.
An exact value is ``●``, an estimate ``○`` (placed by its expected score), an unknown
value ``?`` in the middle.
"""

from __future__ import annotations

from dataclasses import dataclass

from fourfold.analysis.review.judgement import Judgement
from fourfold.analysis.review.review import Review

WIDTH = 21
_FLIP = {"win": "loss", "loss": "win", "draw": "draw", "unknown": "unknown"}


@dataclass(frozen=True)
class Row:
    ply: int  # 0: the start
    column: int
    mark: str
    #: the value for the first player (``win``, ``draw``, ``loss``, ``unknown``)
    value: str


def for_first(judged: Judgement, mover: int) -> Judgement:
    """The same judgement from the first player's side."""
    if mover == 0:
        return judged
    score = None if judged.score is None else 1 - judged.score
    return Judgement(_FLIP[judged.value], judged.distance, judged.exact, score)


def column(judged: Judgement, width: int = WIDTH) -> int:
    half = width // 2
    if judged.score is not None:
        return min(max(round(judged.score * (width - 1)), 0), width - 1)
    reach = half - 1 if judged.distance is None else min(judged.distance, half - 1)
    if judged.value == "win":
        return width - 1 - reach
    if judged.value == "loss":
        return reach
    return half


def row(ply: int, judged: Judgement, mover: int) -> Row:
    first = for_first(judged, mover)
    mark = "?" if first.value == "unknown" else ("●" if first.exact else "○")
    return Row(ply, column(first), mark, first.value)


def rows(review: Review) -> list[Row]:
    """The start (the first mover's "before") and the position after every ply."""
    if not review.plies:
        return []
    first = review.plies[0]
    found = [row(0, first.before, first.player)]
    found += [row(p.ply, p.after, p.player) for p in review.plies]
    return found


def lines(review: Review, width: int = WIDTH) -> list[str]:
    """The chart as plain text lines (a header, then one line per row)."""
    left, right = f"{review.players[0]} loses", f"{review.players[0]} wins"
    pad = max(width - len(left) - len(right), 1)
    out = [f"      {left}{' ' * pad}{right}"]
    for r in rows(review):
        cells = [" "] * width
        cells[width // 2] = "┊"
        cells[r.column] = r.mark
        out.append(f"{r.ply:>4}  {''.join(cells)}")
    return out
