"""Array indexes numba need not fix up: ``a[unsigned(i)]`` for an ``i`` known to be >= 0.

Numba gives an array read or write with a signed index Python's meaning, so ``a[-1]`` is
the last element: every access with an index it cannot prove non-negative pays a compare
and a select (three instructions on x86, and registers the hot loops lack). An unsigned
index skips that fix-up; the cast itself costs nothing. The kernels use it where the index
comes from data (a table entry, a cell or kind on the board, a move count) and is never
negative by construction; a constant index or a ``range`` counter needs no help (LLVM
proves it non-negative itself).
"""

from __future__ import annotations

import numpy as np

from fourfold.kernels.jit import inlined


@inlined
def unsigned(i):  # type: ignore[no-untyped-def]
    """``i`` (an int64 >= 0) as an index without the negative-index fix-up."""
    return np.uint64(i)
