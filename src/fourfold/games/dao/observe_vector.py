"""Classic Dao's compiled family for the envs: the ``Observation.vector`` of its bundle.

``family(game)`` gives ``VectorEnv`` and the AEC env's compiled observations the Dao
kernel (``fourfold.games.dao.kernel``) as a sliding family
(``fourfold.games.sliding.observe_vector``). Dao's own part is its pieces: the compact
row and the first planes of ``fourfold.games.dao.observe.DaoEncoder``.
"""

from __future__ import annotations

from typing import Any

from fourfold.envs.vector_entries import entry_points
from fourfold.envs.vector_kernels import Family
from fourfold.games.dao import kernel as dk
from fourfold.games.sliding import observe_vector as sliding
from fourfold.kernels.jit import inlined


@inlined
def compact_row(x, o):  # type: ignore[no-untyped-def]
    """Per square: 0 for an X piece, 1 for an O piece, -1 empty."""
    for sq in range(dk.SQUARES):
        if (x[dk.S_X] >> sq) & 1:
            o[sq] = 0
        elif (x[dk.S_O] >> sq) & 1:
            o[sq] = 1
        else:
            o[sq] = -1
    return dk.SQUARES


@inlined
def board_planes(x, me, o):  # type: ignore[no-untyped-def]
    """DaoEncoder's mine, theirs, empty."""
    sq_n = dk.SQUARES
    mine = x[dk.S_X + me]
    theirs = x[dk.S_X + 1 - me]
    for sq in range(sq_n):
        if (mine >> sq) & 1:
            o[sq] = 1.0
        elif (theirs >> sq) & 1:
            o[sq_n + sq] = 1.0
        else:
            o[2 * sq_n + sq] = 1.0
    return 3 * sq_n


ENTRIES = entry_points(__name__, "dao", **sliding.sliding_functions(__name__, "dao", dk))


def family(game: Any) -> Family:
    """The Dao kernel's family for a configured Dao game."""
    from fourfold.games.dao.kernel_engine import DaoEngine

    return sliding.sliding_family(game, DaoEngine, ENTRIES, dk.SQUARES + 1)
