"""Sound, quick refutations of Folio freeform placements (a fast path before ``fitting``).

After a placement at ``p`` the rules ask two searches of ``fitting``: does some grid
with a winning line through ``p`` fit the pieces (``FreeformGame.winning_grid``), and
does any grid fit them at all (``fitting.fits``). Both are exhaustive and slow when
the answer is no, which it nearly always is. This module answers "certainly not"
cheaply for most such points, and otherwise leaves the answer to the search, so the
rules' answers are unchanged (``tests/test_envs_fast_paths.py`` compares both ways
on many random positions).

Why a "certainly not" is right. Any grid ``G`` the search could return for the pieces
``P`` plus ``p`` fits ``P`` alone, so its cells for ``P``, turned to ``P``'s canonical
quarter turn, are one of ``fitting.leaves(P)`` (the completeness argument in
``fitting``'s docstring), with ``G``'s rotation and scale ``q`` in the leaf's box. The
cell of ``p`` is then one of the leaf's free cells ``w``, and (``game._disc_maker``) ``p``
lies in every disc of that target. So if, for every target whose discs hold ``p``, the
assignment with ``p`` in ``w`` is certainly infeasible (``infeasible``: Lawson's
certified lower bound of ``fitting.convex``, above the tolerance), no grid fits. The
leaves kept here are every leaf not certainly infeasible (``fitting.free_cells`` drops
a leaf whose solve merely ran out of steps too; here it stays), and every comparison
has a margin of ``MARGIN`` (relative and absolute), a thousand times ``fitting``'s own
slack, so rounding and that slack can never turn a fitting grid into a refusal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fourfold.games.folio.freeform import fitting

#: relative and absolute margin of every refutation (``fitting.SLACK`` is 1e-9)
MARGIN = 1e-6
#: Lawson steps before giving up on a refutation (then the full search decides)
STEPS = 60


def infeasible(ps: Sequence[complex], ws: Sequence[complex], t: float) -> bool:
    """Whether no similarity ``(q, b)`` has every ``|q p + b - w| <= t (1 + MARGIN)`` and
    ``|q| <= 1 + MARGIN``: ``fitting.convex`` refuses it, its certified lower bound above
    the tolerance by ``3 MARGIN`` (relative, on the square) within ``STEPS`` steps.

    ``False`` means "maybe": a fitting similarity was found, or no certificate came
    within ``STEPS`` steps (undecided).
    """
    return fitting.convex(ps, ws, t, margin=3 * MARGIN, steps=STEPS).refused


def admits(discs: Sequence[tuple[complex, float]], z: complex) -> bool:
    """Whether ``z`` is in every disc, each widened by ``MARGIN``."""
    return all(abs(z - c) <= r * (1 + MARGIN) + MARGIN for c, r in discs)


def on_table(
    ps: Sequence[complex],
    offsets: Sequence[complex],
    table: fitting.Table,
    t: float,
    box: tuple[float, float, float, float],
) -> bool:
    """Whether a grid with these cell offsets, its ``q`` in ``box``, might lie on the
    table in some placement of the block: ``fitting._may_fit_table`` for every point,
    on a table and with a tolerance widened by ``MARGIN``. ``False`` only when none can."""
    wider = fitting.Table(table.centre, table.side * (1 + MARGIN) + MARGIN)
    tol = t * (1 + MARGIN) + MARGIN
    ws = [d + fitting.HALF for d in offsets]
    return any(
        all(fitting._may_fit_table(p, w, shift, tol, wider, box)
            for p, w in zip(ps, ws, strict=True))
        for shift in fitting._shifts(offsets)
    )


#: a target as ``possible`` reads it: ``(offsets, free cell, discs, box of q)``
TargetParts = tuple[tuple[complex, ...], complex, tuple[tuple[complex, float], ...],
                    tuple[float, float, float, float]]


def possible(
    ps: Sequence[complex],
    targets: Iterable[TargetParts],
    z: complex,
    t: float,
    table: fitting.Table,
) -> bool:
    """Whether a grid might fit the pieces ``ps`` plus one at ``z`` on ``table``, judged by
    ``targets`` (``(offsets, free cell, discs, box of q)`` for the pieces, see the module):
    ``False`` only when it certainly cannot."""
    points = [*ps, z]
    for offsets, cell, discs, box in targets:
        every = (*offsets, cell)
        if (
            admits(discs, z)
            and not infeasible(points, [d + fitting.HALF for d in every], t)
            and on_table(points, every, table, t, box)
        ):
            return True
    return False
