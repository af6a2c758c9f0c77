"""What the compiled families of the sliding games share (Dao's and Ice Dao's
``observe_vector``): the last four planes of their encoders
(``fourfold.games.sliding.observe.sliding_tail``)."""

from __future__ import annotations

from fourfold.kernels.jit import inlined


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
