"""Ice Dao's compiled family for the envs: the ``Observation.vector`` of its bundle.

``family(game)`` gives ``VectorEnv`` and the AEC env's compiled observations the Ice Dao
kernel (``fourfold.games.icedao.kernel``) as a sliding family
(``fourfold.games.sliding.observe_vector``). Ice Dao's own part is its stacks: the
compact row and the first planes of ``fourfold.games.icedao.observe.IceDaoEncoder``.
"""

from __future__ import annotations

from typing import Any

from fourfold.envs.vector_entries import entry_points
from fourfold.envs.vector_kernels import Family
from fourfold.games.icedao import kernel as ik
from fourfold.games.sliding import observe_vector as sliding
from fourfold.kernels.jit import inlined


@inlined
def compact_row(x, o):  # type: ignore[no-untyped-def]
    """Per square and size (small, medium, large): the colour there (0 Blue, 1 Green)
    or -1."""
    for sq in range(ik.SQUARES):
        for size in range(3):
            v = -1
            if (x[ik.S_BB + size] >> sq) & 1:
                v = 0
            elif (x[ik.S_BB + 3 + size] >> sq) & 1:
                v = 1
            o[sq * 3 + size] = v
    return ik.SQUARES * 3


@inlined
def board_planes(x, me, o):  # type: ignore[no-untyped-def]
    """IceDaoEncoder's mine and theirs by size, top by owner and size, height 1-3."""
    sq_n = ik.SQUARES
    for sq in range(sq_n):
        height = 0
        top = -1
        top_rel = 0
        for size in range(3):
            for colour in range(2):
                if (x[ik.S_BB + colour * 3 + size] >> sq) & 1:
                    rel = 0 if colour == me else 1
                    o[(rel * 3 + size) * sq_n + sq] = 1.0
                    height += 1
                    if top < 0:
                        top = size
                        top_rel = rel
        if height > 0:
            o[(6 + top_rel * 3 + top) * sq_n + sq] = 1.0
            o[(11 + height) * sq_n + sq] = 1.0
    return 15 * sq_n


ENTRIES = entry_points(__name__, "ice", **sliding.sliding_functions(__name__, "ice", ik))


def family(game: Any) -> Family:
    """The Ice Dao kernel's family for a configured Ice Dao game."""
    from fourfold.games.icedao.kernel_engine import IceDaoEngine

    return sliding.sliding_family(game, IceDaoEngine, ENTRIES, ik.SQUARES * 3 + 1)
