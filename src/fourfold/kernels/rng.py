"""Random numbers for the kernels: xorshift64*, shared with the benchmarks' C loop.

A generator's state is a one-element ``uint64`` array (``rng_state(seed)``), so
a compiled loop advances it in place and the same seed replays the same games.
"""

from __future__ import annotations

import numpy as np

from fourfold.kernels.jit import inlined


@inlined
def rng_next(rs):  # type: ignore[no-untyped-def]
    x = rs[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rs[0] = x
    return x * np.uint64(2685821657736338717)


@inlined
def rng_below(rs, bound):  # type: ignore[no-untyped-def]
    """A number in ``0 .. bound - 1`` from the top 32 bits (multiply-shift, no division)."""
    r = rng_next(rs) >> np.uint64(32)
    return np.int64((r * np.uint64(bound)) >> np.uint64(32))


def rng_state(seed: int) -> np.ndarray:
    """The generator state for a seed (never zero)."""
    value = (seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) % (1 << 64) or 1
    return np.array([value], dtype=np.uint64)
