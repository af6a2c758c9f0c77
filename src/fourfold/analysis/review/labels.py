"""The label of a move, from the mover's value before and after it.

With exact values (docs/review.md, "Labels"):

- ``best``: the move is one of the best (the same value and the same distance as
  the solver's best move: the quickest win, the slowest loss);
- ``good``: it keeps the value but not the best distance (a slower win, a quicker
  loss);
- ``mistake``: a win became a draw, or a draw a loss;
- ``blunder``: a win became a loss;
- ``inaccuracy``: a proven value was left for a move the (bounded) solver could not
  prove either way. The position that move left is then estimated (below): if the
  estimate reads a lower value (a proven win to an estimated draw or loss, a draw to an
  estimated loss), the label is ``mistake`` or ``blunder`` as with exact values, and,
  like every label resting on an estimate, it is marked as one.

With estimates (no exact value for the position), the drop of the mover's expected
score decides: at least ``BLUNDER_DROP`` a blunder, ``MISTAKE_DROP`` a mistake,
``INACCURACY_DROP`` an inaccuracy, less than that ``good``; the move the search rates
highest is ``best``. Such labels are estimates and the ply says so. Where neither
the solver nor an estimate answers (a game whose bots' search is too slow for it), the
move gets no label (``None``).
"""

from __future__ import annotations

from fourfold.analysis.review.judgement import Judgement

BEST, GOOD, INACCURACY, MISTAKE, BLUNDER = "best", "good", "inaccuracy", "mistake", "blunder"
LABELS = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER)

#: drops of the mover's expected score (0 lost .. 1 won) that make an estimated label
INACCURACY_DROP = 0.1
MISTAKE_DROP = 0.2
BLUNDER_DROP = 0.3

_CLASS = {"win": 2, "draw": 1, "loss": 0}


def label(before: Judgement, after: Judgement, best: Judgement) -> str | None:
    """The label of a move worth ``after`` from a position worth ``before`` whose best
    move is worth ``best`` (all for the player making the move)."""
    if before.exact and after.exact:
        drop = _CLASS[before.value] - _CLASS[after.value]
        if drop >= 2:
            return BLUNDER
        if drop == 1:
            return MISTAKE
        return BEST if after.rank() == best.rank() else GOOD
    if before.exact:  # a proven value left for a move the (bounded) solver did not prove
        if after.score is not None:  # estimated: a lower class is a mistake or a blunder
            drop = _CLASS[before.value] - _CLASS[after.value]
            return BLUNDER if drop >= 2 else MISTAKE if drop == 1 else INACCURACY
        return INACCURACY
    if before.score is None or after.score is None:
        return None  # nothing known: no label rather than a guess
    if after.score >= before.score:
        return BEST
    lost = before.score - after.score
    if lost >= BLUNDER_DROP:
        return BLUNDER
    if lost >= MISTAKE_DROP:
        return MISTAKE
    if lost >= INACCURACY_DROP:
        return INACCURACY
    return GOOD
