"""What the compiled families of the sliding games share (Dao's and Ice Dao's
``observe_vector``): the family functions that only read the kernel's common fields,
the last four planes of their encoders (``fourfold.games.sliding.observe.sliding_tail``)
and the ``Family`` itself.

A game's module compiles its family functions from the templates below with
``sliding_functions`` (``fourfold.kernels.jit.specialise``: numba calls its kernel's
functions by name, as in a copy written there) and writes only what its observation
holds: ``compact_row(x, o)`` (the compact row but its last value, the player to move;
returns that value's index) and ``board_planes(x, me, o)`` (the planes before the four
of ``sliding_tail``, from seat ``me``'s side; returns where those start), both
``inlined``.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.envs import vector_kernels as vk
from fourfold.envs.vector_entries import EntryPoints
from fourfold.envs.vector_kernels import Family, family_function, hot_family_function
from fourfold.kernels.jit import inlined, specialise

#: The kernel module and the game's ``observe_vector`` that a compiled copy of the
#: templates below reads (placeholders: ``sliding_functions`` binds each game's own).
kernel: Any = None
game: Any = None


def sliding_functions(module: str, prefix: str, kernel_module: ModuleType) -> dict[str, Any]:
    """The family functions of the sliding game whose ``observe_vector`` is ``module``
    (which defines ``compact_row`` and ``board_planes``) on the kernel ``kernel_module``
    (which defines ``legal_actions``, ``push``, ``pop``, ``wins_at_once``,
    ``occurrences``, ``SQUARES`` and the fields ``S_WINNER``, ``S_DRAW``, ``S_SIDE``,
    ``S_DEPTH``, ``S_PLIES``, ``T_MAX_PLIES``), compiled as ``<prefix>_legal`` and so on
    in ``module``; ``push`` and ``pop`` are the kernel's own."""
    def compiled(template: Any, jit: Any) -> Any:
        return specialise(template, module, f"{prefix}{template.__name__}", jit,
                          kernel=kernel_module, game=sys.modules[module])

    return {"legal": compiled(_legal, family_function),
            "apply": compiled(_apply, family_function),
            "push": kernel_module.push, "pop": kernel_module.pop,
            "status": compiled(_status, hot_family_function),
            "wins_now": compiled(_wins_now, family_function),
            "observe": compiled(_observe, family_function),
            "track": compiled(_track, family_function)}


def _legal(t, x, h, keys, out):  # type: ignore[no-untyped-def]
    return kernel.legal_actions(t, x, out)


def _apply(t, x, h, keys, action):  # type: ignore[no-untyped-def]
    kernel.push(t, x, h, keys, action)
    x[kernel.S_DEPTH] = 0  # nothing is ever popped: the look-ahead rows start at 0 again


def _status(t, x):  # type: ignore[no-untyped-def]
    if x[kernel.S_WINNER] >= 0 or x[kernel.S_DRAW]:
        return -1, x[kernel.S_WINNER]
    return x[kernel.S_SIDE], -1


def _wins_now(t, x, h, keys, buf):  # type: ignore[no-untyped-def]
    if x[kernel.S_WINNER] >= 0 or x[kernel.S_DRAW]:
        return False
    return kernel.wins_at_once(t, x, h, keys, buf)


def _observe(t, ot, x, keys, viewer, o, planes):  # type: ignore[no-untyped-def]
    mover = -1 if x[kernel.S_WINNER] >= 0 or x[kernel.S_DRAW] else x[kernel.S_SIDE]
    if not planes:
        # the game's compact row, then the player to move
        o[game.compact_row(x, o)] = mover
        return
    # the encoder's planes: the game's own, then the four of ``sliding_tail``
    for j in range(o.shape[0]):
        o[j] = 0.0
    tail = game.board_planes(x, max(viewer, 0), o)
    sliding_tail(o, tail, kernel.SQUARES, kernel.occurrences(x, keys, 2),
                 mover >= 0 and mover == viewer,
                 cap_fraction(t, kernel.T_MAX_PLIES, x[kernel.S_PLIES]))


def _track(t, ot, x, action, o, planes):  # type: ignore[no-untyped-def]
    """Nothing: the sliding games' planes are rewritten every step."""


@inlined
def cap_fraction(t, cap_field, plies):  # type: ignore[no-untyped-def]
    cap = t[cap_field]
    if cap > 0:
        return min(plies / cap, 1.0)
    return 0.0


@inlined
def sliding_tail(o, base, sq_n, seen, acting, fraction):  # type: ignore[no-untyped-def]
    """The last four planes of the sliding encoders (``sliding_tail`` of the readable encoders)."""
    for sq in range(sq_n):
        if seen >= 1:
            o[base + sq] = 1.0
        if seen >= 2:
            o[base + sq_n + sq] = 1.0
        if acting:
            o[base + 2 * sq_n + sq] = 1.0
        o[base + 3 * sq_n + sq] = fraction


class EngineRows:
    """Loads a position into a sliding engine's row and keys (``Family.load``)."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def __call__(self, state: Any) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        self.engine.load(state)
        return self.engine.st, self.engine.keys


def sliding_family(game: Any, engine_class: Any, entries: EntryPoints,
                   compact_size: int) -> Family:
    """The family of a sliding game on its kernel engine (``engine_class``: a
    ``SlidingEngine``): a game is the engine's row ``x = st`` and its repetition ``keys``;
    the length cap is in ``t`` (``ot`` is unused)."""
    engine = engine_class(game)
    engine.load(game.initial_state())
    k = engine.k
    return Family(engine.t, np.zeros(1), engine.st.copy(), (vk.LOOKAHEAD_ROWS, k.NUM_FIELDS + 1),
                  engine.keys.shape[1:], compact_size, 1, engine.buffer.shape[0],
                  entries.kernels, entries.view, EngineRows(engine_class(game)))
